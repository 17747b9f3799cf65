"""``spielleiter selftest``: check every part of the box and print a verdict per part."""

from __future__ import annotations

import argparse
import json
import logging
import os
from pathlib import Path

from ..i18n import _
from .common import EXIT_UNUSABLE, add_config, add_lang, emit, say, speak


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("selftest", help=_("check every part: OLED, load cells, buttons, link, journal"),
                       description=_("Check every part and print a table with a verdict per part. "
                                   "Stop the service first on the box (it holds the pins)."),
                       epilog=_("Exit status: 0 no part failed (skipped parts are fine); 1 a part "
                              "failed; 2 bad usage."))
    p.add_argument("--sim", action="store_true",
                   help=_("the simulated twins instead of the hardware"))
    add_config(p)
    p.add_argument("--json", action="store_true", help=_("print the result as JSON"))
    add_lang(p, _("the table's language"), settings=False)
    p.add_argument("--state-dir", type=Path, default=None, metavar="DIR",
                   help=_("also check the journal there and its newest backup (default: the "
                        "box's, /var/lib/spielleiter, or with --sim the simulator's, when "
                        "there is one)"))
    p.add_argument("--fail", metavar="PARTS", default=None,
                   help=_("with --sim: break these parts to see a failure; comma-separated: "
                        "display, left, right (left:stuck, left:saturated), buttons "
                        "(buttons:host.ok), link, thermo (the cells' thermometer)"))
    p.set_defaults(func=run)


def _journal_dir(args: argparse.Namespace) -> Path | None:
    """The state directory whose journal is checked: as given, else the default one when a
    journal is there (a laptop without a box has none: no row then)."""
    from ..config.paths import JOURNAL_NAME, find_state_dir, sim_state_dir

    if args.state_dir is not None:
        return args.state_dir
    found = (sim_state_dir(None, os.environ) if args.sim
             else find_state_dir(None, os.environ))
    return found if (found / JOURNAL_NAME).is_file() else None


def run(args: argparse.Namespace) -> int:
    from ..config.paths import find_config
    from ..service import checks

    speak(args.lang, args.config)
    if args.fail is not None and not args.sim:
        say("selftest", _("--fail needs --sim"))
        return EXIT_UNUSABLE
    try:
        faults = checks.parse_faults(args.fail)
    except ValueError as exc:
        say("selftest", str(exc))
        return EXIT_UNUSABLE
    if not args.verbose:  # the table says it; the drivers' warnings would only repeat it
        logging.getLogger("spielleiter.drivers").setLevel(logging.ERROR)
    report = checks.run(find_config(args.config, os.environ), sim=args.sim, faults=faults,
                        state_dir=_journal_dir(args))
    if args.json:
        emit(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        emit(report.table())
    return report.exit_code
