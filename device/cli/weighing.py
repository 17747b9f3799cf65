"""``spielleiter weigh``, ``calibrate`` and ``scale``: the pans from a terminal.

Only the command line lives here; the work is done in ``pans.py`` and ``scale_live.py``.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ..i18n import LANGUAGES, _
from .common import EXIT_UNUSABLE, add_config, add_lang, emit, load_config, say


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("weigh", help=_("weigh masses on the simulated pans (a scriptable check)"),
                       description=_("Set masses down on simulated pans and print what they "
                                   "read and which side is heavier. The pans are calibrated "
                                   "afresh each run (real cells with 100, 200 and 500 g, as "
                                   "the Scale tool's three masses): a `calibrate --sim` "
                                   "calibration is what `sim` and `scale --sim` use."))
    p.add_argument("left", type=float, metavar="LEFT", help=_("grams on the left pan"))
    p.add_argument("right", type=float, nargs="?", default=None, metavar="RIGHT",
                   help=_("grams on the right pan"))
    p.add_argument("--sim", action="store_true", help=_("use simulated pans (required for now)"))
    p.add_argument("--seed", type=int, default=0,
                   help=_("the simulated cells' random seed (default: 0)"))
    p.add_argument("--rate", type=int, choices=(10, 80), default=10,
                   help=_("conversions per second, as the HX711's RATE pin is wired (default: 10)"))
    p.add_argument("--json", action="store_true", help=_("print the result as JSON"))
    _cells(p)
    p.add_argument("--lang", choices=LANGUAGES, default=None,
                   help=_("the lines' language for this run (default: [ui] language in the "
                          "config)"))
    p.set_defaults(func=weigh)

    p = sub.add_parser("calibrate", help=_("calibrate a pan with one to three known masses"),
                       description=_("Calibrate each pan: empty it, then set a known mass down; "
                                   "the result is kept in the journal."))
    p.add_argument("--pan", default=None,
                   help=_("the pan to calibrate (default: every pan)"))
    p.add_argument("--mass", type=float, action="append", metavar="GRAMS",
                   help=_("a known mass in grams (default: 200); give it two or three times "
                        "(e.g. --mass 200 --mass 500 --mass 100) to fit the cell's bow too"))
    p.add_argument("--yes", action="store_true", help=_("do not wait for Enter between steps"))
    add_lang(p, _("the steps' language"))
    _maintenance(p)
    p.set_defaults(func=calibrate)

    p = sub.add_parser("scale", help=_("show the pans live in grams"),
                       description=_("Show what each pan reads, live and in real time: on a "
                                   "terminal one line updated in place, into a pipe or file a "
                                   "line every half second. With --sim the pans read as "
                                   "calibrated; a tare saved in the simulator is not applied."))
    p.add_argument("--put", action="append", default=[], metavar="PAN=GRAMS",
                   help=_("with --sim: set a mass down after the start (repeatable)"))
    p.add_argument("--seconds", type=float, default=None,
                   help=_("stop after this many seconds (default: run until Ctrl-C)"))
    p.add_argument("--tare", action="store_true",
                   help=_("zero every pan once it holds still, before any --put (for this run "
                        "only; the saved zero is not changed)"))
    add_lang(p, _("the lines' language"))
    _maintenance(p, sim_help=_("simulated load cells in real time (they start empty)"))
    p.set_defaults(func=scale)


def _maintenance(p: argparse.ArgumentParser,
                 sim_help: str | None = None) -> None:
    p.add_argument("--sim", action="store_true",
                   help=sim_help or _("simulated load cells on virtual time"))
    _cells(p)
    add_config(p)
    p.add_argument("--state-dir", type=Path, default=None, metavar="DIR",
                   help=_("the journal's directory, where the calibration lives (default: "
                        "/var/lib/spielleiter; with --sim the simulator's)"))


def _cells(p: argparse.ArgumentParser) -> None:
    from ..pans.simulated import SIM_CELLS

    p.add_argument("--cells", choices=SIM_CELLS, default="real",
                   help=_("with --sim: real load cells (default: warm-up, a bent output until "
                        "calibrated, the stop at 600-800 g, as in `spielleiter sim`) or ideal ones "
                        "(only the HX711's own noise)"))


def _paths(args: argparse.Namespace) -> tuple[Path | None, Path]:
    """The config file and state directory a maintenance command works on."""
    from ..config.paths import find_config, find_state_dir, sim_state_dir

    config = find_config(args.config, os.environ)
    if args.sim:  # the same journal `spielleiter sim` uses
        return config, sim_state_dir(args.state_dir, os.environ)
    return config, find_state_dir(args.state_dir, os.environ)


def weigh(args: argparse.Namespace) -> int:
    from .pans import run_weigh

    from ..config.paths import find_config

    language = args.lang
    if language is None:
        config = load_config("weigh", find_config(None, os.environ))
        language = config.language if config is not None else None
    return run_weigh(args.left, args.right, sim=args.sim, seed=args.seed, rate=args.rate,
                     as_json=args.json, cells=args.cells, language=language)


def calibrate(args: argparse.Namespace) -> int:
    from ..config.core import ConfigError
    from .pans import run_calibrate

    config, state_dir = _paths(args)
    if load_config("calibrate", config) is None:  # every problem said once, before any step
        return EXIT_UNUSABLE
    try:
        return run_calibrate([args.pan] if args.pan else None, sim=args.sim,
                             mass_g=args.mass or [200.0],
                             state_dir=state_dir, config_path=config, yes=args.yes,
                             cells=args.cells, language=args.lang)
    except ConfigError as exc:
        for problem in exc.problems:
            say("calibrate", problem)
        return EXIT_UNUSABLE


def scale(args: argparse.Namespace) -> int:
    from ..config.core import ConfigError
    from .scale_live import run_scale

    config, state_dir = _paths(args)
    if load_config("scale", config) is None:
        return EXIT_UNUSABLE
    try:
        return run_scale(sim=args.sim, puts=args.put, seconds=args.seconds, state_dir=state_dir,
                         config_path=config, out=emit, tare=args.tare,
                         language=args.lang, cells=args.cells)
    except ConfigError as exc:
        for problem in exc.problems:
            say("scale", problem)
        return EXIT_UNUSABLE
