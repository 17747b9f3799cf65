"""``spielleiter demo``: a scripted walk through a mode on simulated hardware.

The script presses gpiozero ``MockFactory`` pins exactly as players would (and sets masses on the
simulated pans); the box underneath is the one ``spielleiter run`` builds, on a ``ManualClock`` so
countdowns and pages pass instantly. Scripts come from the modes' registry.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterator

from PIL import Image

from ...drivers.buttons import mock_factory
from ...drivers.display import open_device, to_blocks
from .. import config as config_mod
from ..box import Box
from ..modes import MODES, demos
from ..modes.base import DemoStep
from ..runtime import ManualClock

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
    return run_demo(game=args.game, frames=args.frames, seed=args.seed)


READ_S = 1.5  # how long the demo "reads" a page before OK turns it


def play(box: Box, steps: Iterator[DemoStep], say: Callable[[str], None] = lambda s: None) -> None:
    """Run a script of steps against a ManualClock box, from the home menu."""
    box.runtime.pump()
    for step in steps:
        if step[0] == "tap":
            box.tap(step[1])
        elif step[0] == "hold":
            box.hold(step[1], step[2])
        elif step[0] == "idle":
            box.idle(step[1])
        elif step[0] == "put":
            box.put(step[1], step[2])
        elif step[0] == "say":
            say(step[1])
        elif step[0] == "open":  # walk the home menu to a mode, wherever the registry puts it
            names = [mode.name for mode in MODES]
            for _ in range((names.index(step[1]) - box.app.cursor) % len(names)):
                box.tap("host.next")
            box.tap("host.ok")
        elif step[0] == "read":  # the pages after an action, each read, then turned with OK
            while box.app.mode == "game" and box.app.referee is not None \
                    and box.app.referee.pages:
                box.idle(READ_S)
                box.tap("host.ok")


def demo_config(game: str) -> config_mod.Config:
    raw = config_mod.read(None)
    names = list(demos()[game].players)
    raw["players"]["names"] = names + [n for n in raw["players"]["names"] if n not in names][
        : 10 - len(names)]
    return config_mod.validate(raw)


def run_demo(game: str = "tatort-tonne", frames: Path | None = None, seed: int = 7,
             out: Callable[[str], None] = print) -> int:
    scripts = demos()
    if game not in scripts:
        print(f"spielleiter demo: no demo for {game!r}; try: {', '.join(scripts)}",
              file=sys.stderr)
        return 2
    count = 0

    def on_frame(image: Image.Image) -> None:
        nonlocal count
        count += 1
        if frames is not None:
            image.convert("L").resize((256, 128), Image.NEAREST).save(
                frames / f"frame-{count:03d}.png")
        else:
            out(f"--- frame {count} ---\n{to_blocks(image)}")

    if frames is not None:
        try:
            frames.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"spielleiter demo: cannot save frames in {frames}: {exc}", file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory(prefix="spielleiter-demo-") as state_dir:
        with Box.build(demo_config(game), Path(state_dir), pin_factory=mock_factory(),
                       display_device=open_device("dummy"), clock=ManualClock(),
                       on_frame=on_frame, seed_source=lambda: seed) as box:
            play(box, scripts[game].script(), say=lambda text: out(f"### {text}"))
            state = box.app.session.state if box.app.session else None
            winners = ", ".join(state.winners()) if state is not None else "-"
    out(f"demo: {count} frames{f' saved in {frames}' if frames else ''}; winners: {winners}")
    return 0
