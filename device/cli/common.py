"""What every command shares: exit statuses, printing that cannot raise, options, the config."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, Mapping, Sequence, TextIO

from ..i18n import LANGUAGES, N_, _

EXIT_OK = 0
EXIT_PROBLEMS = 1  # the input was read and is wrong (an illegal action, config problems)
EXIT_UNUSABLE = 2  # the input could not be used at all (unreadable, not JSON/TOML, bad usage)
EXIT_BROKEN_PIPE = 141  # the reader went away (as a shell reports SIGPIPE: 128 + 13)


def say(command: str, text: str) -> None:
    """One line on stderr, ``spielleiter COMMAND: text`` (stderr escapes what it cannot encode)."""
    print(f"spielleiter {command}: {' '.join(str(text).splitlines())}", file=sys.stderr)


def lacks_extra(command: str, module: str = "paho.mqtt.client", extra: str = "room") -> bool:
    """Whether ``module``, which only the ``extra`` installs, is missing; if so, say how to get
    it (``room`` on a laptop installed for the simulator stopped with a traceback)."""
    try:
        __import__(module)
    except ImportError:
        say(command, f"needs {module.split('.')[0]}, the {extra} extra: pip install "
                     f"'spielleiter[{extra}]' (in a checkout: .venv/bin/pip install -e "
                     f"'.[{extra}]')")
        return True
    return False


def emit(text: str, stream: TextIO | None = None) -> None:
    """Print ``text`` and a newline; characters the stream's encoding lacks are escaped instead
    of raising (a terminal in a C locale). BrokenPipeError propagates: ``main`` handles it."""
    stream = stream if stream is not None else sys.stdout
    try:
        stream.write(text + "\n")
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "ascii"
        stream.write((text + "\n").encode(encoding, "backslashreplace").decode(encoding))
    stream.flush()


def quiet_stdout() -> None:
    """After a BrokenPipeError: point stdout at /dev/null so the interpreter's final flush does
    not print a second traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file descriptor (a test's capture)
        pass


SITE_DEFAULT = N_("$CONFIGURATION_DIRECTORY/config.toml or /etc/spielleiter/config.toml if "
                  "present, else the shipped defaults")


def add_config(p: argparse.ArgumentParser, what: str | None = None,
               default: str | None = None) -> None:
    """``--config FILE``; ``what`` and ``default`` as the help says them (already in the help's
    language)."""
    p.add_argument("--config", type=Path, default=None, metavar="FILE",
                   help=_("{what} (default: {default})").format(
                       what=what or _("a config.toml over the defaults"),
                       default=default or _(SITE_DEFAULT)))


def add_lang(p: argparse.ArgumentParser, what: str | None = None, settings: bool = True) -> None:
    """``--lang de|en``: this run's screen language, over the saved setting (unless not
    ``settings``: a command that reads no Settings) and ``[ui] language``."""
    said = (_("{what} for this run (default: the Settings choice, else [ui] language in the "
              "config)") if settings else
            _("{what} for this run (default: [ui] language in the config)"))
    p.add_argument("--lang", choices=LANGUAGES, default=None,
                   help=said.format(what=what or _("the screens' language")))


def help_language(argv: Sequence[str], env: Mapping[str, str]) -> str:
    """The language ``--help`` speaks: ``--lang``'s on the command line, else the locale's
    (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext looks), else English."""
    for i, word in enumerate(argv):
        lang = argv[i + 1] if word == "--lang" and i + 1 < len(argv) else (
            word.partition("=")[2] if word.startswith("--lang=") else None)
        if lang in LANGUAGES:
            return lang
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        if env.get(name):
            first = env[name].split(":")[0][:2]
            return first if first in LANGUAGES else "en"
    return "en"


def speak(lang: str | None, config: Path | None = None) -> None:
    """A laptop command's lines in ``--lang``, else the config's ``[ui] language`` (German as
    shipped), as the box's screens; a config it cannot read leaves the shipped language."""
    from .. import i18n
    from ..config.core import ConfigError
    from ..config.paths import find_config, load_config as load

    if lang is None:
        try:
            lang = load(find_config(config, os.environ)).language
        except (ConfigError, OSError):
            lang = None
    i18n.use(lang or load(None).language)


def load_config(command: str, path: Path | None) -> Any:
    """The validated config, or None after saying every problem on stderr (one a line)."""
    from ..config.core import ConfigError
    from ..config.paths import load_config as load

    try:
        return load(path)
    except ConfigError as exc:
        for problem in exc.problems:
            say(command, problem)
        return None
