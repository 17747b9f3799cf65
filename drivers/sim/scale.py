"""A simulated scale: any number of named simulated pans (cell physics, the bit-level HX711 and
the reader in front of it) on one virtual clock. Cells and readers only: what the readers deliver
goes to ``on_event``, where the device's ``Scales`` (channel and judge per pan) weighs it, the
same pipeline whether the pans are real or simulated.

``run_until``/``run_for`` are deterministic and faster than real time (tests, the CLI); ``start``
runs the clock at wall-clock speed on a background thread for the interactive ``spielleiter sim``.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Sequence

from ..loadcell import LoadCellReader, ReaderEvent
from ..loadcell import pump
from ..weighing import Calibration
from .chip import SimCell, make_cell
from .clock import VirtualClock
from .pan import PanPhysics
from .reader import sim_reader

log = logging.getLogger(__name__)


class SimScale:
    """Simulated pans with readers (SPI over the fake SpiDev) on one virtual clock; every reader
    event goes to ``on_event``, as a real reader would deliver it (the device passes its queue's
    ``put``, or ``Scales`` itself on virtual time)."""

    def __init__(self, pans: Sequence[str] = ("left", "right"), *, seed: int = 0,
                 rate: int = 10, on_event: Callable[[ReaderEvent], Any] | None = None,
                 physics: PanPhysics | None = None) -> None:
        if len(set(pans)) != len(pans):
            raise ValueError(f"pan names must differ: {list(pans)}")
        self.clock = VirtualClock()
        self.rate = rate
        self.on_event = on_event
        self.cells: dict[str, SimCell] = {}
        self.readers: dict[str, LoadCellReader] = {}
        self._lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._closed = False
        for i, pan in enumerate(pans):
            cell = make_cell(self.clock, rate=rate, seed=seed * 1009 + 17 * i, physics=physics)
            self.cells[pan] = cell
            self.readers[pan] = sim_reader(pan, on_event=self._dispatch, cell=cell,
                                            rate=rate)

    @property
    def pans(self) -> tuple[str, ...]:
        return tuple(self.cells)

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

    # -- calibration ---------------------------------------------------------------------------

    def true_calibration(self, pan: str) -> Calibration:
        """The calibration the simulated chip really has (no measuring): for a quick start."""
        chip = self.cells[pan].chip
        zero = chip.offset_counts + chip.pan.physics.pan_mass_g * chip.counts_per_gram
        return Calibration(offset=zero, counts_per_gram=chip.counts_per_gram)

    # -- real time -----------------------------------------------------------------------------

    def start(self) -> None:
        """Advance the virtual clock at wall-clock speed on a background thread."""
        if self._thread is not None:
            return
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
        if self.on_event is not None:
            self.on_event(ev)


__all__ = ["SimScale"]
