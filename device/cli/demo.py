"""``spielleiter demo``: a scripted walk through a mode on simulated hardware.

The script presses gpiozero ``MockFactory`` pins exactly as players would (and sets masses on the
simulated pans); the box underneath is the one ``spielleiter run`` builds, on a ``ManualClock`` so
countdowns and pages pass instantly. Scripts come from the modes' registry. Each screen is
printed as text with its time on that clock (``[12.5 s] [Title] ...``), or with ``--frames``
saved as a 128x64 PNG (``--scale N`` enlarges it without blurring).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Callable, Iterator

from PIL import Image

from ...drivers.buttons import mock_factory
from ...drivers.display import open_device
from ..config import core as config_mod
from ..box import Box
from ..i18n import _, decimal
from ..modes import MODES, demos
from ..modes.base import DemoStep
from ..runtime import ManualClock
from ..screen.render import View
from .common import add_lang, emit, speak

MAX_SCALE = 16  # --scale: 2048x1024 at most


class _NoHyphenBreaks(argparse.HelpFormatter):
    """Help lines that never split a game's name at its hyphens."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help=_("play a scripted game on simulated hardware"),
                       formatter_class=_NoHyphenBreaks,
                       description=_("Play a scripted game on the simulated box and print each "
                                   "screen as text with its time on the box's clock (or save "
                                   "each frame as a PNG)."))
    p.add_argument("game", nargs="?", default="tatort-tonne", metavar="GAME",
                   help=_("the game to play: {games} (default: tatort-tonne)").format(
                       games=", ".join(demos())))
    p.add_argument("--frames", type=Path, default=None, metavar="DIR",
                   help=_("save each frame as a PNG here instead of printing the screens"))
    p.add_argument("--scale", type=int, default=1, metavar="N",
                   help=_("with --frames: enlarge the 128x64 frames N times, 1-{most} "
                          "(default: 1)").format(most=MAX_SCALE))
    p.add_argument("--seed", type=int, default=7, help=_("the game's random seed (default: 7)"))
    add_lang(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    speak(args.lang)  # the refusals below; the box then speaks --lang or its Settings' choice
    return run_demo(game=args.game, frames=args.frames, seed=args.seed, scale=args.scale,
                    out=emit, language=args.lang)


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
            for _ in range((names.index(step[1]) - (box.app.cursor or 0)) % len(names)):
                box.tap("host.next")
            box.tap("host.ok")
            if box.app.mode == "start":  # a game's own menu: "New game" is first
                box.tap("host.ok")
        elif step[0] == "read":  # the pages after an action, each read, then turned with OK
            while box.app.mode == "game" and box.app.referee is not None \
                    and box.app.referee.pages:
                box.idle(READ_S)
                box.tap("host.ok")


def demo_config(game: str, pans: bool = True) -> config_mod.Config:
    """The shipped configuration with the demo's players first; ``pans=False``: no load cells
    (a game that weighs nothing runs ten times faster without the bit-level HX711 twins)."""
    raw = config_mod.read(None)
    names = list(demos()[game].players)
    raw["players"]["names"] = names + [n for n in raw["players"]["names"] if n not in names][
        : 10 - len(names)]
    if not pans:
        raw["loadcells"] = {name: {"reader": "none"} if isinstance(cell, dict) else cell
                            for name, cell in raw["loadcells"].items()}
    return config_mod.validate(raw)


def screen_text(seconds: float, view: View) -> str:
    """One screen for the demo's output: ``[12.5 s] `` and the view as text, later lines
    indented under the first."""
    stamp = f"[{decimal(seconds, 1)} s] "
    return stamp + view.as_text().replace("\n", "\n" + " " * len(stamp))


def run_demo(game: str = "tatort-tonne", frames: Path | None = None, seed: int = 7,
             out: Callable[[str], None] = print, scale: int = 1,
             language: str | None = None) -> int:
    scripts = demos()
    if game not in scripts:
        print("spielleiter demo: " + _("no demo for {game!r}; try: {games}").format(
            game=game, games=", ".join(scripts)), file=sys.stderr)
        return 2
    if not 1 <= scale <= MAX_SCALE:
        print("spielleiter demo: " + _("--scale {n}: use 1-{most}").format(n=scale, most=MAX_SCALE),
              file=sys.stderr)
        return 2
    count = 0
    broken = False  # the reader closed the pipe (``spielleiter demo | head``): stop printing
    box: Box | None = None
    clock = ManualClock()
    start = clock()

    def on_frame(image: Image.Image) -> None:
        nonlocal count, broken
        count += 1
        if frames is not None:
            picture = image.convert("L")
            if scale > 1:
                picture = picture.resize((image.width * scale, image.height * scale),
                                         Image.Resampling.NEAREST)
            picture.save(frames / f"frame-{count:03d}.png")
        elif box is not None and not broken:
            try:  # on the runtime's handler, which would log an exception as an error
                out(screen_text(clock() - start, box.last_view))
            except BrokenPipeError:
                broken = True

    if frames is not None:
        try:
            frames.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print("spielleiter demo: " + _("cannot save frames in {folder}: {why}").format(
                folder=frames, why=exc), file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory(prefix="spielleiter-demo-") as state_dir:
        with Box.build(demo_config(game), Path(state_dir), pin_factory=mock_factory(),
                       display_device=open_device("dummy"), clock=clock,
                       on_frame=on_frame, seed_source=lambda: seed, language=language) as box:
            if frames is None and box.frame() is not None:  # drawn while the box was built
                out(screen_text(clock() - start, box.last_view))
            play(box, scripts[game].script(), say=lambda text: out(f"### {text}"))
            state = box.app.session.state if box.app.session else None
            winners = ", ".join(state.winners()) if state is not None else "-"
    if broken:
        raise BrokenPipeError  # ``main`` turns it into status 141, quietly
    said = (_("demo: {count} frames saved in {frames}; winners: {winners}") if frames else
            _("demo: {count} frames; winners: {winners}"))
    out(said.format(count=count, frames=frames, winners=winners))  # in the table's language
    return 0
