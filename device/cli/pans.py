"""Terminal tools for the pans: ``weigh`` (scriptable check), ``calibrate``, and the session on the
pans that ``scale`` (``scale_live.py``) reads too. They speak the table's language (``--lang``,
else the Settings choice, else ``[ui] language``); ``weigh --json`` is for scripts and has none.

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
from typing import Any, Callable, Sequence

from ...drivers.loadcell import LoadCellSample, LoadCellStatus
from ...drivers.thermometer import Temperature
from ...drivers.weighing import (MAX_LOAD_G, MAX_MASS_G, MAX_MASSES, CalibrationError,
                                 Calibrator)
from ..config import core as config_mod
from .. import i18n
from ..journal import settings as settings_store
from ..i18n import _, decimal, refusal, signed
from ..journal.store import Journal
from ..pans.scales import Scales, verdict_text
from ..pans.words import pan_name
from ..pans.simulated import sim_physics, weigh_sim
from ..pans.thermometer import thermometer_for, warmth_note
from .pan_load import mass_problem

STEP_TIMEOUT_S = 30.0  # a calibration step the pan never holds still for
SILENT_AFTER_S = 3.0  # a pan that has said nothing for this long is reported, not waited for


def _pans(names: Sequence[str]) -> str:
    """Pans named as a sentence says them: "left", "left and right"."""
    said = [pan_name(name) for name in names]
    return said[0] if len(said) == 1 else _("{first} and {last}").format(
        first=", ".join(said[:-1]), last=said[-1])


def run_weigh(left_g: float, right_g: float | None, *, sim: bool, seed: int, rate: int,
              as_json: bool, cells: str = "real", language: str | None = None) -> int:
    """Set the masses down on simulated pans and say what they read, in ``language``."""
    if language is not None:
        i18n.use(language)
    if not sim:
        print(_("spielleiter weigh: only --sim places masses by itself; on the box use "
                "`spielleiter scale` or the Scale menu"), file=sys.stderr)
        return 2
    for grams in (left_g, right_g):
        problem = None if grams is None else mass_problem(grams)
        if problem is not None:
            print(f"spielleiter weigh: {problem}", file=sys.stderr)
            return 2
    result = weigh_sim(left_g, right_g, seed=seed, rate=rate, cells=cells)
    masses = {"left": left_g, "right": right_g or 0.0}
    heavy = [pan for pan in ("left", "right") if result.get(pan, {}).get("overload")]
    unsettled = [pan for pan in ("left", "right")
                 if pan in result and result[pan]["stable_after_s"] is None]
    problem = None
    if heavy and all(masses[pan] <= MAX_LOAD_G for pan in heavy):  # read over, not put over
        problem = _("spielleiter weigh: the {pans} pan read past {most} g, the most the box "
                    "weighs (a real cell's output bends a little, so a mass near the limit can "
                    "read over it); no reading").format(pans=_pans(heavy), most=f"{MAX_LOAD_G:g}")
    elif heavy:
        problem = _("spielleiter weigh: too heavy for the {pans} pan (the box weighs up to {most} "
                    "g, below the cells' stop); no reading").format(
            pans=_pans(heavy), most=f"{MAX_LOAD_G:g}")
    elif unsettled or (right_g is not None and "verdict" not in result):
        problem = _("spielleiter weigh: the {pans} pan never settled; no verdict").format(
            pans=_pans(unsettled or ["left", "right"]))
    if as_json:  # a script reads the same object either way ("overload", grams null)
        print(json.dumps(result))
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1
    if as_json:
        return 0
    said = {pan: pan_name(pan) for pan in ("left", "right")}
    width = max(len(name) for name in said.values())
    for pan in ("left", "right"):
        if pan in result:
            got = result[pan]
            print(_("{pan}: {grams} g, stable after {seconds} s").format(
                pan=said[pan].ljust(width), grams=decimal(got["grams"], 2),
                seconds=decimal(got["stable_after_s"], 2)))
    if "verdict" in result:
        print(_("verdict: {verdict} (judged after {seconds} s)").format(
            verdict=verdict_text(result["verdict"]),
            seconds=decimal(result["judged_after_s"], 2)))
    return 0


class _Session:
    """Scales plus the queue their readers post to, pumped on this thread."""

    def __init__(self, config: config_mod.Config, state_dir: Path, sim: bool, seed: int = 0,
                 cells: str = "real"):
        self.config = config
        self.journal_path = state_dir / "journal.sqlite3"
        self.made_journal = not self.journal_path.exists()  # closed unused: taken away again
        self.journal = Journal(self.journal_path)
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

    def speak(self, language: str | None) -> None:
        """Speak ``language`` (``--lang``), else the table's: the Settings choice saved in this
        journal, else the config's ``[ui] language``."""
        i18n.use(language or settings_store.load(
            self.journal, settings_store.Settings(language=self.config.language)).language)

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
        """Close the pans and the journal; a journal this command made for pans none of which
        could be read holds nothing, and goes (``calibrate`` on a laptop without --sim left an
        empty /var/lib/spielleiter/journal.sqlite3 behind)."""
        unused = self.made_journal and self.scales.pans and \
            set(self.scales.failed()) == set(self.scales.pans)
        self.scales.close()
        self.journal.close()
        if unused:
            for path in (self.journal_path,
                         *(self.journal_path.with_name(self.journal_path.name + end)
                           for end in ("-wal", "-shm", "-journal"))):
                path.unlink(missing_ok=True)


def _ask(prompt: str, wait: bool, out: Callable[[str], None]) -> None:
    out(prompt + (" " + _("Press Enter when done.") if wait else ""))
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
            print(_("spielleiter {command}: cannot read the {pan} pan: {why} (on the box: "
                    "install the pi extra; elsewhere: use --sim)").format(
                command=command, pan=pan_name(name), why=failed[name]), file=sys.stderr)
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
            return _("no signal from the {pan} pan ({status})").format(
                pan=pan_name(pan.name), status=pan.status)
    session.scales.cancel_calibration()
    if errors:
        return refusal(errors[0])
    if calibrator.step == step:
        return _("the {pan} pan never held still ({status})").format(
            pan=pan_name(pan.name), status=pan.status)
    return None


def calibration_masses(masses: float | list[float]) -> list[float] | str:
    """The known masses ``calibrate`` weighs, in order; or why they cannot be used."""
    masses = [masses] if isinstance(masses, (int, float)) else list(masses)
    for m in masses:
        if not (math.isfinite(m) and 1 <= m <= MAX_MASS_G):
            return _("--mass {mass} g: use a known mass of 1-{most} g (a heavier one may read "
                     "beyond the pan's range before it is calibrated)").format(
                mass=f"{m:g}", most=f"{MAX_MASS_G:g}")
    if len(masses) > MAX_MASSES:
        return _("at most {most} masses (--mass given {count} times)").format(
            most=MAX_MASSES, count=len(masses))
    if len({round(m) for m in masses}) != len(masses):
        return _("each --mass must be a different mass")
    return masses


def run_calibrate(pans: list[str] | None, *, sim: bool, mass_g: float | list[float],
                  state_dir: Path, config_path: Path | None, yes: bool,
                  out: Callable[[str], None] = print, cells: str = "real",
                  language: str | None = None) -> int:
    """Calibrate each pan: empty, then each known mass in turn (two or three fit the bow), in
    ``language``, else the table's."""
    config = config_mod.load(config_path)
    i18n.use(language or config.language)  # until the journal's Settings are read
    masses = calibration_masses(mass_g)
    if isinstance(masses, str):
        print(f"spielleiter calibrate: {masses}", file=sys.stderr)
        return 2
    names = pans or list(config.pan_names)
    missing = [p for p in names if p not in config.pan_names]
    if missing or not names:
        print(_("spielleiter calibrate: no {missing} in the config (configured: {pans})").format(
            missing=", ".join(missing) or _("load cell"),
            pans=", ".join(config.pan_names) or _("none")), file=sys.stderr)
        return 2
    session = _Session(config, state_dir, sim, cells=cells)
    session.speak(language)
    wait = _waits(yes, sim)
    try:
        if _unreadable("calibrate", session, names):
            return 1
        for pan in names:
            calibrator = Calibrator(pan, masses[0])
            said = pan_name(pan)
            _ask(_("Calibrating the {pan} pan. Empty it.").format(pan=said), wait, out)
            steps = [("empty", 0.0)] + [("mass", m) for m in masses]
            for i, (step, mass) in enumerate(steps):
                if step == "mass":
                    if i > 1:
                        calibrator.another(mass)
                        ask = _("Take the {off} g off, then put {mass} g on the {pan} pan.")
                    else:
                        ask = _("Put {mass} g on the {pan} pan.")
                    _ask(ask.format(off=f"{masses[i - 2]:g}" if i > 1 else "",
                                    mass=f"{mass:g}", pan=said), wait, out)
                    if sim:
                        if i > 1:
                            session.sim.remove(pan, masses[i - 2])
                        session.sim.put(pan, mass)
                        out("  " + _("(sim: {mass} g set down on the {pan} pan)").format(
                            mass=f"{mass:g}", pan=said))
                problem = _hold_step(session, calibrator, step)
                if problem is not None:
                    print(f"spielleiter calibrate: {problem}", file=sys.stderr)
                    return 1
            result = calibrator.result
            assert result is not None
            if sim:
                session.sim.remove(pan, masses[-1])
            bow = _(", bow {grams} g at 500 g").format(
                grams=signed(result.bend * 500 ** 2, 3)) if result.bend else ""
            out(_("{pan} pan calibrated with {masses} g: {counts} counts per gram{bow}, saved in "
                  "{path}").format(pan=said, masses=", ".join(f"{m:g}" for m in masses),
                                   counts=decimal(result.counts_per_gram, 2), bow=bow,
                                   path=session.journal.path))
            out(warmth_note(session.scales.pans[pan].channel.calibration))
        return 0
    finally:
        session.close()
