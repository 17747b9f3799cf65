"""The reader base: one HX711 behind one interface, on its own thread with a read deadline.

Every read attempt is short and bounded; a supervisor abandons a read that overruns its
deadline. The callback must only enqueue (the device passes ``queue.put``). On a virtual clock
(the simulation) readers run deterministically in the caller's thread through ``pump``.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import replace
from typing import Any, Callable, ClassVar, Iterable, Protocol, Sequence

from .chip import RATES
from .events import LoadCellError, ReadAttempt, ReaderEvent, ReaderStats
from .integrity import RECOVER_AFTER, Integrity

log = logging.getLogger(__name__)


class ReaderClock(Protocol):
    """The time a reader runs on: ``MonotonicClock`` on the box, ``sim.VirtualClock`` in tests
    (which also has ``advance_to`` and ``virtual = True``)."""

    def now(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class MonotonicClock:
    """Wall time for real hardware."""

    virtual = False

    @staticmethod
    def now() -> float:
        return time.monotonic()

    @staticmethod
    def sleep(seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class LoadCellReader:
    """One HX711 behind one interface. ``start`` runs it on its own thread (and a supervisor
    thread that enforces the read deadline); ``pump`` runs it in the caller's thread on a
    virtual clock. ``on_event`` receives ``LoadCellSample``/``LoadCellStatus`` and must only
    enqueue. ``close`` is idempotent; readers are context managers.
    """

    kind: ClassVar[str] = "base"

    def __init__(self, pan: str, on_event: Callable[[ReaderEvent], Any], *, rate: int = 10,
                 clock: ReaderClock | None = None, deadline_s: float = 0.1,
                 disconnect_after_s: float = 0.35, settle_samples: int = 4,
                 poll_s: float | None = None) -> None:
        if rate not in RATES:
            raise ValueError(f"rate must be 10 or 80, not {rate!r}")
        self.pan = pan
        self.rate = rate
        self.period = 1.0 / rate
        self.on_event = on_event
        self.clock: ReaderClock = clock or MonotonicClock()
        self.deadline_s = deadline_s
        self.poll_s = poll_s if poll_s is not None else min(0.002, self.period / 8)
        self._integrity = Integrity(pan, rate, disconnect_after_s=disconnect_after_s,
                                    settle_samples=settle_samples, start=self.clock.now())
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._opened = False
        self._closed = False
        self._next_wake: float | None = None
        self._inflight: tuple[int, float] | None = None
        self._gen = 0
        self._abandoned = -1

    # -- public --------------------------------------------------------------------------------

    @property
    def stats(self) -> ReaderStats:
        with self._lock:
            return replace(self._integrity.stats)

    @property
    def connected(self) -> bool:
        return self._integrity.connected

    def start(self) -> None:
        """Open the hardware and read on a background thread; returns at once."""
        if self._closed:
            raise LoadCellError(f"{self.pan}: reader is closed")
        if self._threads:
            return
        self._ensure_open()
        self._stop.clear()
        if getattr(self.clock, "virtual", False):
            targets = [(self._run_paced, "paced")]
        else:
            targets = [(self._run, "reader"), (self._supervise, "supervisor")]
        for fn, name in targets:
            th = threading.Thread(target=fn, name=f"loadcell-{self.pan}-{name}", daemon=True)
            self._threads.append(th)
            th.start()

    def stop(self) -> None:
        """Stop the threads (a read stuck in the driver is left behind as a daemon)."""
        self._stop.set()
        for th in self._threads:
            if th is not threading.current_thread():
                th.join(timeout=max(0.5, 2 * self.deadline_s))
                if th.is_alive():
                    log.warning("%s: %s did not stop; left behind", self.pan, th.name)
        self._threads = []

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.stop()
        if self._opened:
            try:
                self._release()
            except Exception:  # noqa: BLE001 - closing must not raise
                log.exception("%s: releasing the load cell failed", self.pan)
            self._opened = False

    def __enter__(self) -> "LoadCellReader":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def step(self) -> float:
        """One bounded read attempt now; returns the clock time to call again."""
        if self._closed:
            raise LoadCellError(f"{self.pan}: reader is closed")
        self._ensure_open()
        clock = self.clock
        with self._lock:
            self._gen += 1
            gen = self._gen
            self._inflight = (gen, clock.now())
        t0 = clock.now()
        try:
            attempts = self._attempts()
        except Exception as exc:  # noqa: BLE001 - a driver fault must not kill the reader
            log.warning("%s: read failed: %s", self.pan, exc)
            attempts = [ReadAttempt(t0, "error", detail=str(exc))]
            self._on_error(exc)
        with self._lock:
            self._inflight = None
            abandoned = self._abandoned == gen
        overrun = clock.now() - t0 > self.deadline_s
        if abandoned or overrun:
            attempts = [ReadAttempt(t0, "deadline")]
        if any(a.outcome in RECOVER_AFTER for a in attempts):
            try:
                self._recover()
            except Exception as exc:  # noqa: BLE001
                log.warning("%s: recovery failed: %s", self.pan, exc)
        events: list[ReaderEvent] = []
        with self._lock:
            for a in attempts:
                if abandoned and a.outcome == "deadline":
                    events.extend(self._integrity.tick(clock.now()))  # counted by supervisor
                    continue
                events.extend(self._integrity.accept(a))
            events.extend(self._integrity.tick(clock.now()))
        self._emit(events)
        return self._wake_after(attempts, clock.now())

    def pump(self, until: float) -> None:
        """Run this reader on its virtual clock up to ``until`` (see ``pump``)."""
        pump([self], until)

    # -- hooks for the transports --------------------------------------------------------------

    def _open(self) -> None:
        raise NotImplementedError

    def _release(self) -> None:
        pass

    def _attempts(self) -> list[ReadAttempt]:
        """One short read; never waits for the chip (the loop does the waiting)."""
        raise NotImplementedError

    def _recover(self) -> None:
        """Bring the chip back in step after a stretched, misaligned or abandoned read."""

    def _on_error(self, exc: Exception) -> None:
        pass

    # -- internals -----------------------------------------------------------------------------

    def _ensure_open(self) -> None:
        if not self._opened:
            self._open()
            self._opened = True

    def _wake_after(self, attempts: Sequence[ReadAttempt], now: float) -> float:
        got = [a for a in attempts if a.outcome == "ok"]
        if got:
            # Sleep until just before the next conversion instead of polling the whole period.
            return max(now, got[-1].t + self.period - 2 * self.poll_s)
        return now + self.poll_s

    def _emit(self, events: Iterable[ReaderEvent]) -> None:
        for ev in events:
            try:
                self.on_event(ev)
            except Exception:  # noqa: BLE001 - a bad callback must not kill the reader
                log.exception("%s: event callback failed", self.pan)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                wake = self.step()
            except LoadCellError:
                return
            delay = wake - self.clock.now()
            if delay > 0:
                self._stop.wait(delay)

    def _supervise(self) -> None:
        """Abandon reads that overrun their deadline and report silence while a read hangs."""
        tick = min(0.05, self.deadline_s / 2)
        while not self._stop.wait(tick):
            now = self.clock.now()
            events: list[ReaderEvent] = []
            with self._lock:
                inflight = self._inflight
                if inflight and now - inflight[1] > self.deadline_s and self._abandoned != inflight[0]:
                    self._abandoned = inflight[0]
                    self._integrity.stats.deadline_exceeded += 1
                    log.warning("%s: read exceeded its %.0f ms deadline; abandoned",
                                self.pan, self.deadline_s * 1000)
                if inflight:
                    events = self._integrity.tick(now)
            self._emit(events)

    def _run_paced(self) -> None:
        """A reader on a virtual clock, started like real hardware: virtual time follows the
        wall clock."""
        w0, v0 = time.monotonic(), self.clock.now()
        while not self._stop.wait(0.005):
            try:
                pump([self], v0 + time.monotonic() - w0)
            except LoadCellError:
                return


def pump(readers: Sequence[LoadCellReader], until: float) -> None:
    """Run readers that share one virtual clock, interleaved by their wake times, up to
    ``until``: a deterministic single-threaded stand-in for their threads."""
    if not readers:
        return
    clock = readers[0].clock
    if any(r.clock is not clock for r in readers):
        raise LoadCellError("pumped readers must share one clock")
    advance_to = getattr(clock, "advance_to", None)
    if advance_to is None:
        raise LoadCellError("pump needs a virtual clock")
    for r in readers:
        if r._next_wake is None:
            r._next_wake = clock.now()
    while True:
        r = min(readers, key=lambda x: x._next_wake or 0.0)
        wake = r._next_wake or 0.0
        if wake > until:
            break
        advance_to(wake)
        r._next_wake = r.step()
    advance_to(until)
    for r in readers:
        with r._lock:
            events = r._integrity.tick(clock.now())
        r._emit(events)


__all__ = ["LoadCellReader", "MonotonicClock", "ReaderClock", "pump"]
