"""Terminal tools for the pans: ``weigh`` (scriptable check), ``calibrate``, and the session on the
pans that ``scale`` (``scale_live.py``) reads too.

With ``--sim`` they run on simulated HX711s on virtual time (faster than real time, and the
"person" who empties the pan and sets the reference mass down is simulated too); without it they
read the load cells the config names, on the real clock.
"""

from __future__ import annotations

import json
import logging
import math
import queue
import sys
import time
from pathlib import Path
from typing import Any, Callable

from ...drivers.loadcell import LoadCellSample, LoadCellStatus
from ...drivers.thermometer import Temperature
from ...drivers.weighing import (MAX_LOAD_G, MAX_MASSES, CalibrationError,
                                 Calibrator)
from .. import config as config_mod
from ..journal import Journal
from ..scales import Scales, verdict_text
from ..scales_sim import sim_physics, weigh_sim
from ..thermometer import thermometer_for, warmth_note
from .pan_load import mass_problem

STEP_TIMEOUT_S = 30.0  # a calibration step the pan never holds still for
SILENT_AFTER_S = 3.0  # a pan that has said nothing for this long is reported, not waited for


def run_weigh(left_g: float, right_g: float | None, *, sim: bool, seed: int, rate: int,
              as_json: bool, cells: str = "real") -> int:
    if not sim:
        print("spielleiter weigh: only --sim places masses by itself; on the box use "
              "`spielleiter scale` or the Scale menu", file=sys.stderr)
        return 2
    for grams in (left_g, right_g):
        problem = None if grams is None else mass_problem(grams)
        if problem is not None:
            print(f"spielleiter weigh: {problem}", file=sys.stderr)
            return 2
    result = weigh_sim(left_g, right_g, seed=seed, rate=rate, cells=cells)
    heavy = [pan for pan in ("left", "right") if result.get(pan, {}).get("overload")]
    if heavy:
        print(f"spielleiter weigh: too heavy for the {' and '.join(heavy)} pan (the box weighs "
              f"up to {MAX_LOAD_G:g} g, below the cells' stop); no reading", file=sys.stderr)
        return 1
    unsettled = [pan for pan in ("left", "right")
                 if pan in result and result[pan]["stable_after_s"] is None]
    if unsettled or (right_g is not None and "verdict" not in result):
        which = " and ".join(unsettled) or "left and right"
        print(f"spielleiter weigh: the {which} pan never settled; no verdict", file=sys.stderr)
        return 1
    if as_json:
        print(json.dumps(result))
        return 0
    for pan in ("left", "right"):
        if pan in result:
            got = result[pan]
            print(f"{pan:5}: {got['grams']} g, stable after {got['stable_after_s']} s")
    if "verdict" in result:
        print(f"verdict: {verdict_text(result['verdict'])} (judged after "
              f"{result['judged_after_s']} s)")
    return 0


class _Session:
    """Scales plus the queue their readers post to, pumped on this thread."""

    def __init__(self, config: config_mod.Config, state_dir: Path, sim: bool, seed: int = 0,
                 cells: str = "real"):
        self.config = config
        self.journal = Journal(state_dir / "journal.sqlite3")
        self.events: queue.Queue[Any] = queue.Queue()
        quiet = logging.getLogger(Scales.__module__)  # the command says itself which pan
        quiet.disabled = True                         # cannot be read (``_unreadable``)
        try:
            self.scales = Scales.build(self.config, self.journal, self.events.put,
                                       simulated=sim, seed=seed,
                                       physics=sim_physics(cells) if sim else None)
            self.sim = self.scales.sim
            if self.sim is None:
                self.scales.start()
        finally:
            quiet.disabled = False
        self.thermometer = thermometer_for(self.scales, self.events.put)
        self.read_temperature()

    def read_temperature(self) -> None:
        """One reading of the cells' thermometer, if the box has one (a calibration records
        the temperature it was made at)."""
        if self.thermometer is not None:
            self.thermometer.read_once()

    def run(self, seconds: float) -> None:
        """Let ``seconds`` pass (virtual with --sim) and feed what the readers delivered."""
        if self.sim is not None:
            self.sim.run_for(seconds)
            self._drain(block_until=None)
        else:
            self._drain(block_until=time.monotonic() + seconds)

    def _drain(self, block_until: float | None) -> None:
        while True:
            try:
                if block_until is None:
                    event = self.events.get_nowait()
                else:
                    event = self.events.get(timeout=max(0.0, block_until - time.monotonic()))
            except queue.Empty:
                return
            if isinstance(event, LoadCellSample):
                self.scales.on_sample(event)
            elif isinstance(event, LoadCellStatus):
                self.scales.on_status(event)
            elif isinstance(event, Temperature):
                self.scales.set_temperature(event.celsius)

    def close(self) -> None:
        self.scales.close()
        self.journal.close()


def _ask(prompt: str, wait: bool, out: Callable[[str], None]) -> None:
    out(prompt + (" Press Enter when done." if wait else ""))
    if wait:
        input()


def _waits(yes: bool, sim: bool, stdin: Any = None) -> bool:
    """Whether ``calibrate`` waits for Enter between steps: not with ``--yes``; with ``--sim``
    only on a terminal (the simulated person then acts once Enter is pressed; a script or a
    pipe runs through)."""
    if yes:
        return False
    if not sim:
        return True
    stream = stdin if stdin is not None else sys.stdin
    return bool(stream is not None and stream.isatty())


def _unreadable(command: str, session: _Session, names: list[str]) -> bool:
    """Say at once which pans cannot be read at all (a missing module, no bus); True if any."""
    failed = session.scales.failed()
    for name in names:
        if name in failed:
            print(f"spielleiter {command}: cannot read the {name} pan: {failed[name]}"
                  " (on the box: install the pi extra; elsewhere: use --sim)", file=sys.stderr)
    return any(name in failed for name in names)


def _hold_step(session: _Session, calibrator: Calibrator, step: str) -> str | None:
    """Run until ``calibrator`` has captured ``step``; None, or why it could not."""
    session.read_temperature()
    errors: list[CalibrationError] = []
    session.scales.begin_calibration(calibrator, lambda _c, error: errors.extend(
        [error] if error is not None else []))
    pan = session.scales.pans[calibrator.pan]
    waited = silent = 0.0
    while calibrator.step == step and not errors and waited < STEP_TIMEOUT_S:
        session.run(0.25)
        waited += 0.25
        silent = 0.0 if pan.connected else silent + 0.25
        if silent >= SILENT_AFTER_S:
            session.scales.cancel_calibration()
            return f"no signal from the {pan.name} pan ({pan.status})"
    session.scales.cancel_calibration()
    if errors:
        return str(errors[0])
    if calibrator.step == step:
        return f"the {pan.name} pan never held still ({pan.status})"
    return None


def calibration_masses(masses: float | list[float]) -> list[float] | str:
    """The known masses ``calibrate`` weighs, in order; or why they cannot be used."""
    masses = [masses] if isinstance(masses, (int, float)) else list(masses)
    for m in masses:
        if not (math.isfinite(m) and 1 <= m <= MAX_LOAD_G):
            return (f"--mass {m:g} g: use a known mass of 1-{MAX_LOAD_G:g} g (heavier ones rest on "
                    "the overload stop)")
    if len(masses) > MAX_MASSES:
        return f"at most {MAX_MASSES} masses (--mass given {len(masses)} times)"
    if len({round(m) for m in masses}) != len(masses):
        return "each --mass must be a different mass"
    return masses


def run_calibrate(pans: list[str] | None, *, sim: bool, mass_g: float | list[float],
                  state_dir: Path, config_path: Path | None, yes: bool,
                  out: Callable[[str], None] = print, cells: str = "real") -> int:
    """Calibrate each pan: empty, then each known mass in turn (two or three fit the bow)."""
    masses = calibration_masses(mass_g)
    if isinstance(masses, str):
        print(f"spielleiter calibrate: {masses}", file=sys.stderr)
        return 2
    config = config_mod.load(config_path)
    names = pans or list(config.pan_names)
    missing = [p for p in names if p not in config.pan_names]
    if missing or not names:
        configured = ", ".join(config.pan_names) or "none"
        print(f"spielleiter calibrate: no {', '.join(missing) or 'load cell'} in the config "
              f"(configured: {configured})", file=sys.stderr)
        return 2
    session = _Session(config, state_dir, sim, cells=cells)
    wait = _waits(yes, sim)
    try:
        if _unreadable("calibrate", session, names):
            return 1
        for pan in names:
            calibrator = Calibrator(pan, masses[0])
            _ask(f"Calibrating the {pan} pan. Empty it.", wait, out)
            steps = [("empty", 0.0)] + [("mass", m) for m in masses]
            for i, (step, mass) in enumerate(steps):
                if step == "mass":
                    if i > 1:
                        calibrator.another(mass)
                    off = f"Take the {masses[i - 2]:g} g off, then put" if i > 1 else "Put"
                    _ask(f"{off} {mass:g} g on the {pan} pan.", wait, out)
                    if sim:
                        if i > 1:
                            session.sim.remove(pan, masses[i - 2])
                        session.sim.put(pan, mass)
                        out(f"  (sim: {mass:g} g set down on the {pan} pan)")
                problem = _hold_step(session, calibrator, step)
                if problem is not None:
                    print(f"spielleiter calibrate: {problem}", file=sys.stderr)
                    return 1
            result = calibrator.result
            assert result is not None
            if sim:
                session.sim.remove(pan, masses[-1])
            bow = f", bow {result.bend * 500 ** 2:+.3f} g at 500 g" if result.bend else ""
            out(f"{pan} pan calibrated with {', '.join(f'{m:g}' for m in masses)} g: "
                f"{result.counts_per_gram:.2f} counts per gram{bow}, "
                f"saved in {session.journal.path}")
            out(warmth_note(session.scales.pans[pan].channel.calibration))
        return 0
    finally:
        session.close()
