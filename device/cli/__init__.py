"""The ``spielleiter`` command: the device (run, sim, demo), scripting and maintenance tools.

``main`` builds the parser from one module per command group (each has ``register``, adding its
sub-command, and the function that runs it) and turns what may go wrong at the edge into an exit
status: a ``DeviceError`` is one line on stderr and status 1, Ctrl-C is 130, a reader that closed
the pipe (``spielleiter replay - | head``) is 141 without a traceback.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import Sequence

from .. import DeviceError, __version__, i18n
from ..i18n import N_, _
from . import (argparse_words, config_check, demo, games, history, pinout, players, replay, room,
               run, selftest, sim, stats, uplink, watch, weighing)
from .common import EXIT_BROKEN_PIPE, help_language, quiet_stdout, say

DESCRIPTION = N_("Spielleiter, the board game referee box: the device itself (run, sim, demo) "
                 "and its scripting and maintenance tools.")
GROUPS = (replay, sim, weighing, selftest, config_check, pinout, watch, demo, players, history,
          games, stats, uplink, room, run)


def build_parser() -> argparse.ArgumentParser:
    """The command's parser, its help and argparse's own words in the current language."""
    argparse_words.install()
    parser = argparse.ArgumentParser(prog="spielleiter", description=_(DESCRIPTION),
                                     epilog=_("Each command has its own --help."))
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}",
                        help=_("print the installed version and exit"))
    parser.add_argument("-v", "--verbose", action="store_true", help=_("log debug messages"))
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for group in GROUPS:
        group.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    i18n.use(help_language(sys.argv[1:] if argv is None else argv, os.environ))
    try:  # the help in the user's language; the command then speaks its own (--lang, Settings)
        parser = build_parser()
        args = parser.parse_args(argv)
    finally:
        i18n.use(i18n.DEFAULT)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        quiet_stdout()
        return EXIT_BROKEN_PIPE
    except DeviceError as exc:  # a journal that cannot be opened, and the like: one line
        say(args.command, str(exc))
        return 1

