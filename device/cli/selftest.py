"""``spielleiter selftest``: check every part of the box and print a verdict per part."""

from __future__ import annotations

import argparse
import json
import logging
import os

from .common import EXIT_UNUSABLE, add_config, emit, say


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("selftest", help="check every part: OLED, load cells, buttons, link",
                       description="Check every part and print a table with a verdict per part. "
                                   "Stop the service first on the box (it holds the pins).",
                       epilog="Exit status: 0 no part failed (skipped parts are fine); 1 a part "
                              "failed; 2 bad usage.")
    p.add_argument("--sim", action="store_true",
                   help="the simulated twins instead of the hardware")
    add_config(p)
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--fail", metavar="PARTS", default=None,
                   help="with --sim: break these parts to see a failure; comma-separated: "
                        "display, left, right (left:stuck, left:saturated), buttons "
                        "(buttons:host.ok), link")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..paths import find_config
    from ..service import checks

    if args.fail is not None and not args.sim:
        say("selftest", "--fail needs --sim")
        return EXIT_UNUSABLE
    try:
        faults = checks.parse_faults(args.fail)
    except ValueError as exc:
        say("selftest", str(exc))
        return EXIT_UNUSABLE
    if not args.verbose:  # the table says it; the drivers' warnings would only repeat it
        logging.getLogger("spielleiter.drivers").setLevel(logging.ERROR)
    report = checks.run(find_config(args.config, os.environ), sim=args.sim, faults=faults)
    if args.json:
        emit(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        emit(report.table())
    return report.exit_code
