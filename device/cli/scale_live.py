"""``spielleiter scale``: the pans live in the terminal, in real time (with ``--sim`` the simulated
pans move at the speed of the wall clock): on a terminal one line rewritten in place, into a pipe
or file a line every half second; ``--put`` sets masses down on simulated pans, ``--tare`` zeroes
them for this run. The pans themselves are ``pans._Session``'s, as ``weigh`` and ``calibrate``
read them.
"""

from __future__ import annotations

import math
import shutil
import sys
import time
from pathlib import Path
from typing import Callable, TextIO

from ...drivers.weighing import Calibration, CalibrationError
from ..config import core as config_mod
from .. import i18n
from ..i18n import _
from ..pans.scales import Scales, verdict_text
from ..pans.words import pan_name
from .pan_load import mass_problem
from .pans import STEP_TIMEOUT_S, _Session, _unreadable

MAX_SECONDS = 86400.0  # `scale --seconds`: a day at most
LIVE_TICK_S = 0.1  # `scale` on a terminal: the line is rewritten ten times a second
PRINT_TICK_S = 0.5  # `scale` into a pipe or file: a line every half second


def parse_puts(puts: list[str], pans: tuple[str, ...]) -> dict[str, float]:
    """``PAN=GRAMS`` items for the configured ``pans``; ValueError says what is wrong."""
    masses: dict[str, float] = {}
    for item in puts:
        pan, _, grams = item.partition("=")
        if pan not in pans:
            raise ValueError(f"--put {item!r}: use PAN=GRAMS with a pan of the config "
                             f"({', '.join(pans) or 'none configured'})")
        try:
            masses[pan] = float(grams)
        except ValueError:
            raise ValueError(f"--put {item!r}: the grams must be a number") from None
        problem = mass_problem(masses[pan])
        if problem is not None:
            raise ValueError(f"--put {item!r}: {problem}")
    return masses


def _untared(session: _Session) -> None:
    """--sim: every pan on its calibration as calibrated (``calibrate --sim``) or, without one,
    on the simulated chip's own, never on a zero a tare in ``spielleiter sim`` saved. For this
    run only: nothing is written to the journal."""
    assert session.sim is not None
    for name in session.scales.pans:
        saved = session.journal.calibration(name)
        calibration = None
        try:
            points = Calibration.from_json(saved).points if saved is not None else ()
            if len({grams for grams, _ in points}) >= 2:
                calibration = Calibration.from_points(points)
        except (CalibrationError, AttributeError, KeyError, TypeError, ValueError):
            pass  # Scales already logged an unusable calibration
        session.scales.use_calibration(name, calibration or session.sim.true_calibration(name))


def _tare_when_still(session: _Session, tick: float, pause: Callable[[], None]) -> str | None:
    """Zero every pan once it holds still (for this run only); None, or why it could not."""
    waited = 0.0
    while True:
        working = [name for name, pan in session.scales.pans.items() if pan.error is None]
        refused = [name for name in session.scales.tare(save=False) if name in working]
        if not refused:
            return None
        if waited >= STEP_TIMEOUT_S:
            return f"the {' and '.join(refused)} pan never held still; not tared"
        session.run(tick)
        pause()
        waited += tick


class _Live:
    """Where ``scale`` prints: on a terminal one line rewritten in place, else one line a tick."""

    def __init__(self, stream: TextIO, out: Callable[[str], None]):
        self.stream, self.out = stream, out
        self.in_place = stream.isatty()
        self.open = False

    def show(self, text: str) -> None:
        if not self.in_place:
            self.out(text)
            return
        width = shutil.get_terminal_size().columns  # a wrapped line could not be rewritten
        self.stream.write(f"\r{text[:max(1, width - 1)]}\x1b[K")
        self.stream.flush()
        self.open = True

    def close(self) -> None:
        if self.open:
            self.stream.write("\n")
            self.stream.flush()
            self.open = False


def _pacer(sim: bool, sleep: Callable[[float], None], clock: Callable[[], float],
           tick: float) -> Callable[[], None]:
    """Called after each tick: with --sim (virtual time) waits until the wall clock has caught
    up, so the pans move in real time; real pans are read in real time already."""
    due = [clock() + tick]

    def pause() -> None:
        if sim:
            wait = due[0] - clock()
            if wait > 0:
                sleep(wait)
            due[0] = max(due[0] + tick, clock())  # after a stall: go on, do not rush to catch up
    return pause


def run_scale(*, sim: bool, puts: list[str], seconds: float | None, state_dir: Path,
              config_path: Path | None, out: Callable[[str], None] = print, tare: bool = False,
              stream: TextIO | None = None, sleep: Callable[[float], None] = time.sleep,
              clock: Callable[[], float] = time.monotonic, language: str | None = None,
              cells: str = "real") -> int:
    """The pans live, in real time: on a terminal one line updated in place ten times a second,
    otherwise one line every half second (``out``). ``seconds`` of real time, or until Ctrl-C.
    The lines speak ``language`` (``--lang``), else the table's (the Settings choice, else
    ``[ui] language``)."""
    if seconds is not None and not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS):
        print(f"spielleiter scale: --seconds {seconds}: use a number of seconds above 0 "
              f"(at most {MAX_SECONDS:g}), or leave it out to run until Ctrl-C", file=sys.stderr)
        return 2
    config = config_mod.load(config_path)
    try:
        masses = parse_puts(puts, config.pan_names)
    except ValueError as exc:
        print(f"spielleiter scale: {exc}", file=sys.stderr)
        return 2
    if masses and not sim:
        print("spielleiter scale: --put needs --sim", file=sys.stderr)
        return 2
    if not config.pan_names:
        print("spielleiter scale: no load cell in the config", file=sys.stderr)
        return 2
    live = _Live(stream if stream is not None else sys.stdout, out)
    tick = LIVE_TICK_S if live.in_place else PRINT_TICK_S
    session = _Session(config, state_dir, sim, cells=cells)
    session.speak(language)
    try:
        if _unreadable("scale", session, list(config.pan_names)) and len(
                session.scales.failed()) == len(session.scales.pans):
            return 1
        if sim:
            _untared(session)
            session.run(1.0)  # the simulated pans settle, empty, before anyone looks
        pause = _pacer(sim, sleep, clock, tick)
        if tare:
            problem = _tare_when_still(session, tick, pause)
            if problem is not None:
                print(f"spielleiter scale: {problem}", file=sys.stderr)
                return 1
        if sim:
            for pan, grams in masses.items():
                session.sim.put(pan, grams)
        legend = _("Grams on each pan (* = stable); Ctrl-C stops.")
        if live.in_place:
            out(legend)
        else:  # into a pipe the lines stay data; the person watching still reads what * means
            print(legend, file=sys.stderr)
        steps = None if seconds is None else max(1, round(seconds / tick))
        step = 0
        while steps is None or step < steps:
            session.run(tick)
            pause()
            step += 1
            live.show(_scale_line(session.scales, step * tick))
        return 0
    except KeyboardInterrupt:
        return 130
    finally:
        live.close()
        session.close()


def _scale_line(scales: Scales, elapsed: float) -> str:
    parts = [f"{pan_name(name)}: {scales.reading(name).text()}" for name in scales.pans]
    verdict = scales.verdict()
    warming = any(shot.warming for shot in scales.snapshots().values())
    return (f"t={i18n.decimal(elapsed, 1, 5)}s  " + "   ".join(parts) +
            (f"   {verdict_text(verdict)}" if verdict else "") +
            ("   " + _("(warming up: the zero is not steady yet)") if warming else ""))


__all__ = ["LIVE_TICK_S", "MAX_SECONDS", "PRINT_TICK_S", "parse_puts", "run_scale"]
