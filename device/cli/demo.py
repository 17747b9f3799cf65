"""``spielleiter demo``: a scripted game on simulated hardware (the demo: ``device/demo.py``)."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="play a scripted game on simulated hardware",
                       description="Play a scripted game on the simulated box and print each "
                                   "screen.")
    p.add_argument("game", nargs="?", default="tatort-tonne", metavar="GAME",
                   help="the game to play (default: tatort-tonne)")
    p.add_argument("--frames", type=Path, default=None, metavar="DIR",
                   help="save each frame as PNG here")
    p.add_argument("--seed", type=int, default=7, help="the game's random seed (default: 7)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..demo import run_demo

    return run_demo(game=args.game, frames=args.frames, seed=args.seed)
