"""Simulated scales: two (or one) simulated pans with their readers and channels, calibrated the
way a person would, and ``weigh_sim`` behind ``spielleiter weigh --sim``.

Everything runs on one virtual clock: ``run_until``/``run_for`` are deterministic and faster than
real time (tests, the CLI); ``start`` runs the clock at wall-clock speed on a background thread
for the interactive ``spielleiter sim``.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Iterable, Sequence

from . import hx711_sim as sim
from .loadcell import LoadCellReader, LoadCellSample, LoadCellStatus, ReaderEvent, make_reader
from .loadcell import pump
from .weighing import Calibration, ScaleChannel, WeighEvent, compare

log = logging.getLogger(__name__)

CALIBRATION_MASS_G = 200.0
CALIBRATION_HOLD_S = 5.0  # how long the empty and the loaded pan are averaged
TIE_BAND_G = 0.05


class SimScale:
    """Simulated pans with readers (SPI over the fake SpiDev) and ``ScaleChannel``s.

    ``on_event`` (optional) receives every reader event, as a real reader would deliver it, so
    the device can pass ``queue.put`` and run its own channels; the scale's own ``channels``
    see the same samples and are what ``weigh_sim`` and tests look at.
    """

    def __init__(self, pans: Sequence[str] = ("left", "right"), *, seed: int = 0,
                 rate: int = 10, on_event: Callable[[ReaderEvent], Any] | None = None,
                 physics: sim.PanPhysics | None = None) -> None:
        self.clock = sim.VirtualClock()
        self.rate = rate
        self.on_event = on_event
        self.cells: dict[str, sim.SimCell] = {}
        self.readers: dict[str, LoadCellReader] = {}
        self.channels: dict[str, ScaleChannel] = {}
        self.events: list[WeighEvent] = []
        self._keep_events = True
        self._lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._closed = False
        for i, pan in enumerate(pans):
            cell = sim.make_cell(self.clock, rate=rate, seed=seed * 1009 + 17 * i,
                                 physics=physics)
            self.cells[pan] = cell
            self.readers[pan] = make_reader("sim", pan, on_event=self._dispatch, cell=cell,
                                            rate=rate)
            self.channels[pan] = ScaleChannel(pan, self.true_calibration(pan), rate=rate)

    # -- the table -----------------------------------------------------------------------------

    def put(self, pan: str, grams: float, *, drop: bool = False) -> float:
        """Set ``grams`` down on ``pan`` now; returns the (virtual) set-down time."""
        return self.cells[pan].pan.place(grams, drop=drop)

    def remove(self, pan: str, grams: float) -> float:
        return self.cells[pan].pan.remove(grams)

    def press(self, pan: str, grams: float, seconds: float) -> float:
        return self.cells[pan].pan.press(grams, seconds)

    def load_g(self, pan: str) -> float:
        """The truth: what lies on ``pan``."""
        return self.cells[pan].pan.load_g

    # -- virtual time --------------------------------------------------------------------------

    def now(self) -> float:
        return self.clock.now()

    def run_until(self, t: float) -> None:
        with self._lock:
            pump(list(self.readers.values()), t)

    def run_for(self, seconds: float) -> None:
        self.run_until(self.clock.now() + seconds)

    def wait_stable(self, pans: Iterable[str], *, after: float, timeout_s: float = 10.0,
                    expect_g: dict[str, float] | None = None,
                    motion_grace_s: float = 3.0) -> dict[str, tuple[float, float] | None]:
        """For each pan, (time, settled grams) of the first stable state after ``after`` that
        shows the change: at least half of ``expect_g[pan]`` away from the value settled before
        (or, without an expectation, the first stable state after a motion; a pan that shows no
        motion within ``motion_grace_s``, or expects 0 g, counts from its first stable sample).
        None on timeout.
        """
        pans = list(pans)
        expect_g = expect_g or {}
        before = {p: self.channels[p].last_settled_g or 0.0 for p in pans}
        seen = len(self.events)
        moved: set[str] = set()
        out: dict[str, tuple[float, float] | None] = {p: None for p in pans}
        end = after + timeout_s
        while self.clock.now() < end and any(out[p] is None for p in pans):
            self.run_for(1.0 / self.rate)
            for ev in self.events[seen:]:
                p = ev.pan
                if p not in out or ev.t < after or out[p] is not None:
                    continue
                if ev.kind == "moving":
                    moved.add(p)
                elif ev.kind == "stable":
                    want = abs(expect_g.get(p, 0.0))
                    if want >= 0.2 and abs(ev.grams - before[p]) >= 0.5 * want:
                        out[p] = (ev.t, ev.grams)
                    elif want < 0.2 and p in moved:
                        out[p] = (ev.t, ev.grams)
            seen = len(self.events)
            for p in pans:
                ch = self.channels[p]
                grace = 0.0 if p in expect_g and expect_g[p] == 0 else motion_grace_s
                if (out[p] is None and abs(expect_g.get(p, 0.0)) < 0.2 and p not in moved
                        and ch.stable and ch.t is not None and ch.t - after >= grace):
                    out[p] = (ch.t, ch.settled_g or 0.0)
        return out

    # -- calibration, the way a person does it -------------------------------------------------

    def true_calibration(self, pan: str) -> Calibration:
        """The calibration the simulated chip really has (no measuring): for a quick start."""
        chip = self.cells[pan].chip
        zero = chip.offset_counts + chip.pan.physics.pan_mass_g * chip.counts_per_gram
        return Calibration(offset=zero, counts_per_gram=chip.counts_per_gram)

    def calibrate(self, pans: Sequence[str] | None = None, mass_g: float = CALIBRATION_MASS_G,
                  hold_s: float = CALIBRATION_HOLD_S) -> dict[str, Calibration]:
        """Zero and span with a known mass on every pan at once, then tare the empty pans:
        measure the empty pan, put ``mass_g`` on, measure, take it off, tare."""
        pans = list(pans or self.channels)
        zero = self._hold_counts(pans, hold_s)
        for p in pans:
            self.put(p, mass_g)
        loaded = self._hold_counts(pans, hold_s)
        cals = {p: Calibration.from_known_mass(zero[p], loaded[p], mass_g) for p in pans}
        for p in pans:
            self.remove(p, mass_g)
            self.channels[p].set_calibration(cals[p])
        self._hold_counts(pans, 0.5)
        for p in pans:
            self.channels[p].tare()
        return {p: self.channels[p].calibration for p in pans}

    def _hold_counts(self, pans: Sequence[str], hold_s: float,
                     timeout_s: float = 30.0) -> dict[str, float]:
        """Run until every pan has been stable for ``hold_s``; their settled raw counts."""
        since: dict[str, float | None] = {p: None for p in pans}
        end = self.clock.now() + timeout_s
        while self.clock.now() < end:
            self.run_for(1.0 / self.rate)
            now = self.clock.now()
            for p in pans:
                ch = self.channels[p]
                if not ch.stable:
                    since[p] = None
                elif since[p] is None:
                    since[p] = now
            if all(s is not None and now - s >= hold_s for s in since.values()):
                return {p: float(self.channels[p].settled_counts) for p in pans}
        raise TimeoutError("the simulated pans did not settle")

    # -- real time -----------------------------------------------------------------------------

    def start(self) -> None:
        """Advance the virtual clock at wall-clock speed on a background thread."""
        if self._thread is not None:
            return
        self._keep_events = False  # a long interactive run must not grow a list
        self._stop.clear()
        self._thread = threading.Thread(target=self._run_realtime, name="sim-scale",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.stop()
        for r in self.readers.values():
            r.close()

    def __enter__(self) -> "SimScale":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run_realtime(self) -> None:
        w0, v0 = time.monotonic(), self.clock.now()
        while not self._stop.wait(0.01):
            try:
                self.run_until(v0 + time.monotonic() - w0)
            except Exception:  # noqa: BLE001 - keep the simulated world alive
                log.exception("simulated scale failed")

    # -- plumbing ------------------------------------------------------------------------------

    def _dispatch(self, ev: ReaderEvent) -> None:
        ch = self.channels.get(ev.pan)
        if ch is not None:
            if isinstance(ev, LoadCellSample):
                wev = ch.feed(ev.t, ev.counts)
                if self._keep_events:
                    self.events.extend(wev)
            elif isinstance(ev, LoadCellStatus) and ev.state == "disconnected":
                ch.reset()
        if self.on_event is not None:
            self.on_event(ev)


def weigh_sim(left_g: float, right_g: float | None = None, *, seed: int = 0,
              rate: int = 10) -> dict[str, Any]:
    """Calibrate simulated pans, set the masses down together, wait for stability and report
    {"left": {"grams", "stable_after_s"}, "right": {...}, "verdict"} (right and verdict only
    with two masses). Times are virtual seconds from the set-down; grams to 0.01 g."""
    pans = ("left", "right") if right_g is not None else ("left",)
    masses = {"left": left_g, "right": right_g}
    with SimScale(pans, seed=seed, rate=rate) as scale:
        scale.run_for(1.0)
        scale.calibrate(pans)
        scale.run_for(0.5)
        t0 = scale.now()
        for p in pans:
            if masses[p]:
                scale.put(p, float(masses[p]))  # type: ignore[arg-type]
        got = scale.wait_stable(pans, after=t0,
                                expect_g={p: float(masses[p] or 0.0) for p in pans})
        out: dict[str, Any] = {}
        raw: dict[str, float | None] = {}
        for p in pans:
            r = got[p]
            raw[p] = r[1] if r is not None else scale.channels[p].grams
            out[p] = {"grams": None if raw[p] is None else round(raw[p], 2) + 0.0,
                      "stable_after_s": None if r is None else round(r[0] - t0, 3)}
        if right_g is not None and raw["left"] is not None and raw["right"] is not None:
            verdict = compare(raw["left"], raw["right"], TIE_BAND_G)
            out["verdict"] = "balanced" if verdict == "balanced" else f"left-{verdict}"
        return out


__all__ = ["SimScale", "weigh_sim", "CALIBRATION_HOLD_S", "CALIBRATION_MASS_G", "TIE_BAND_G"]
