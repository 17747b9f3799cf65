"""A simulated scale: any number of named simulated pans with their readers and channels, on one
virtual clock, calibrated the way a person would (``Calibrator``), with the two-pan ``Judge``.

``run_until``/``run_for`` are deterministic and faster than real time (tests, the CLI); ``start``
runs the clock at wall-clock speed on a background thread for the interactive ``spielleiter sim``.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Iterable, Sequence

from ..loadcell import LoadCellReader, LoadCellSample, LoadCellStatus, ReaderEvent, make_reader
from ..loadcell import pump
from ..weighing import (CALIBRATION_HOLD_S, CALIBRATION_MASS_G, JUDGE_S, TIE_BAND_G, Calibration,
                        Calibrator, Judge, Judgement, ScaleChannel, WeighEvent)
from .chip import SimCell, make_cell
from .clock import VirtualClock
from .pan import PanPhysics

log = logging.getLogger(__name__)


class SimScale:
    """Simulated pans with readers (SPI over the fake SpiDev) and ``ScaleChannel``s.

    ``on_event`` (optional) receives every reader event, as a real reader would deliver it, so
    the device can pass ``queue.put`` and run its own channels; the scale's own ``channels``
    see the same samples and are what ``weigh_sim`` and tests look at. With two pans or more,
    ``judge`` judges the first two (``judged_at``: since when its judgement has been in force).
    """

    def __init__(self, pans: Sequence[str] = ("left", "right"), *, seed: int = 0,
                 rate: int = 10, on_event: Callable[[ReaderEvent], Any] | None = None,
                 physics: PanPhysics | None = None, judge_s: float = JUDGE_S,
                 tie_band_g: float = TIE_BAND_G) -> None:
        if len(set(pans)) != len(pans):
            raise ValueError(f"pan names must differ: {list(pans)}")
        self.clock = VirtualClock()
        self.rate = rate
        self.on_event = on_event
        self.cells: dict[str, SimCell] = {}
        self.readers: dict[str, LoadCellReader] = {}
        self.channels: dict[str, ScaleChannel] = {}
        self.events: list[WeighEvent] = []
        self.judge = Judge(pans[0], pans[1], judge_s=judge_s,
                           tie_band_g=tie_band_g) if len(pans) >= 2 else None
        self.judged_at: float | None = None
        self._keep_events = True
        self._lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._closed = False
        for i, pan in enumerate(pans):
            cell = make_cell(self.clock, rate=rate, seed=seed * 1009 + 17 * i, physics=physics)
            self.cells[pan] = cell
            self.readers[pan] = make_reader("sim", pan, on_event=self._dispatch, cell=cell,
                                            rate=rate)
            self.channels[pan] = ScaleChannel(pan, self.true_calibration(pan), rate=rate)

    @property
    def judgement(self) -> Judgement | None:
        """The verdict on the first two pans now in force, or None."""
        return self.judge.judgement if self.judge is not None else None

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

    # -- calibration, the way a person does it -------------------------------------------------

    def true_calibration(self, pan: str) -> Calibration:
        """The calibration the simulated chip really has (no measuring): for a quick start."""
        chip = self.cells[pan].chip
        zero = chip.offset_counts + chip.pan.physics.pan_mass_g * chip.counts_per_gram
        return Calibration(offset=zero, counts_per_gram=chip.counts_per_gram)

    def calibrate(self, pans: Sequence[str] | None = None, mass_g: float = CALIBRATION_MASS_G,
                  hold_s: float = CALIBRATION_HOLD_S) -> dict[str, Calibration]:
        """Every pan at once through the ``Calibrator`` steps (empty, then ``mass_g`` on it, each
        held still for ``hold_s``), then the mass is taken off and the empty pans are tared."""
        pans = list(pans or self.channels)
        calibrators = {p: Calibrator(p, mass_g, hold_s) for p in pans}
        self._run_calibrators(calibrators, "empty")
        for p in pans:
            self.put(p, mass_g)
        self._run_calibrators(calibrators, "mass")
        for p in pans:
            self.remove(p, mass_g)
            result = calibrators[p].result
            assert result is not None
            self.channels[p].set_calibration(result)
        self.hold_still(pans, 0.5)
        for p in pans:
            self.channels[p].tare()
        return {p: self.channels[p].calibration for p in pans}

    def hold_still(self, pans: Iterable[str], hold_s: float, timeout_s: float = 30.0) -> None:
        """Run until every pan's settled value has been averaging for ``hold_s``."""
        pans = list(pans)
        end = self.clock.now() + timeout_s
        while self.clock.now() < end:
            self.run_for(1.0 / self.rate)
            chs = [self.channels[p] for p in pans]
            if all(c.settled_since is not None and c.t is not None
                   and c.t - c.settled_since >= hold_s for c in chs):
                return
        raise TimeoutError("the simulated pans did not settle")

    def _run_calibrators(self, calibrators: dict[str, Calibrator], step: str,
                         timeout_s: float = 30.0) -> None:
        end = self.clock.now() + timeout_s
        while any(c.step == step for c in calibrators.values()):
            if self.clock.now() >= end:
                raise TimeoutError("the simulated pans did not settle")
            self.run_for(1.0 / self.rate)
            for p, c in calibrators.items():
                if c.step == step:
                    c.capture(self.channels[p])

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

    # -- plumbing ------------------------------------------------------------------------------

    def _dispatch(self, ev: ReaderEvent) -> None:
        ch = self.channels.get(ev.pan)
        if ch is not None:
            if isinstance(ev, LoadCellSample):
                wev = ch.feed(ev.t, ev.counts)
                if self._keep_events:
                    self.events.extend(wev)
                self._judge(ch)
            elif isinstance(ev, LoadCellStatus) and ev.state == "disconnected":
                ch.reset()
                if self.judge is not None:
                    self.judge.forget(ev.pan)
                    self.judged_at = None
        if self.on_event is not None:
            self.on_event(ev)

    def _judge(self, channel: ScaleChannel) -> None:
        if self.judge is None:
            return
        before = self.judge.judgement
        now = self.judge.observe_channel(channel)
        if now is None:
            self.judged_at = None
        elif before is None:
            self.judged_at = now.t


__all__ = ["SimScale"]
