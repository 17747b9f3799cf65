"""Virtual time: the simulation runs faster than real time and deterministically for a seed."""

from __future__ import annotations

import threading
import time as _real_time
from typing import Any


class VirtualClock:
    """Simulated seconds. ``sleep`` advances time instead of waiting; time never goes back."""

    virtual = True

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)
        self._lock = threading.Lock()

    def now(self) -> float:
        return self._now

    def sleep(self, seconds: float) -> None:
        self.advance(seconds)

    def advance(self, seconds: float) -> None:
        if seconds > 0:
            with self._lock:
                self._now += seconds

    def advance_to(self, t: float) -> None:
        with self._lock:
            if t > self._now:
                self._now = t

    # Names of the ``time`` module, so the clock itself can stand in for it where needed.
    monotonic = perf_counter = time = now


class VirtualTime:
    """Stands in for the ``time`` module inside the ``hx711`` package: ``perf_counter`` and
    ``sleep`` read and advance the board's virtual clock, so its 60 us check sees virtual time."""

    def __init__(self, clock: VirtualClock) -> None:
        self.clock = clock

    def perf_counter(self) -> float:
        return self.clock.now()

    monotonic = time = perf_counter

    def sleep(self, seconds: float) -> None:
        self.clock.advance(seconds)

    def __getattr__(self, name: str) -> Any:
        return getattr(_real_time, name)


__all__ = ["VirtualClock", "VirtualTime"]
