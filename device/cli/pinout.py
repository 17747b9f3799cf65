"""``spielleiter pinout``: the pin map as the builder reads it, drawn from a config: the Markdown
table hardware/README.md shows, or (``--svg``) the picture of the header, hardware/wiring.svg."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..i18n import _
from .common import EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE, say


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("pinout", help=_("the pin map as a table or a picture, from a config"),
                       description=_("Draw the pin map of a config over the shipped defaults: "
                                     "the Markdown table of hardware/README.md, or with --svg the "
                                     "picture of the 40-pin header."))
    p.add_argument("--config", type=Path, default=None, help=_("a config.toml over the defaults"))
    p.add_argument("--svg", action="store_true", help=_("the header's picture instead of the table"))
    group = p.add_mutually_exclusive_group()
    group.add_argument("--update", type=Path, metavar="FILE",
                       help=_("write it into FILE (the table: the generated block of FILE)"))
    group.add_argument("--check", type=Path, metavar="FILE",
                       help=_("exit 1 if FILE holds something else"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..config import pinout, wiring
    from ..config.core import ConfigError, load

    try:
        cfg = load(args.config)
    except ConfigError as exc:
        print("\n".join(exc.problems), file=sys.stderr)
        return EXIT_UNUSABLE
    if args.svg:
        drawn = wiring.render(cfg, "the shipped config" if args.config is None
                              else str(args.config))
        current = (lambda text: text)
        place = (lambda text: drawn)
    else:
        drawn = pinout.render(cfg)
        current, place = pinout.block_in, (lambda text: pinout.replace_block(text, drawn))
    if args.update is not None:
        before = args.update.read_text(encoding="utf-8") if args.update.is_file() else ""
        args.update.write_text(place(before), encoding="utf-8")
    elif args.check is not None:
        if not args.check.is_file() or current(args.check.read_text(encoding="utf-8")) != drawn:
            say("pinout", _("{file} differs from the config; run with --update").format(
                file=args.check))
            return EXIT_PROBLEMS
    else:
        sys.stdout.write(drawn if drawn.endswith("\n") else drawn + "\n")
    return EXIT_OK
