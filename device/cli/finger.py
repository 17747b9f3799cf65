"""A finger on the simulator's buttons: each typed key becomes a press and a release of a mock pin,
in the order the keys were typed.

A tap holds the button for ``TAP_S`` and leaves it up for ``GAP_S`` before the next one (both
longer than the debounce lock-out, so the detector sees every tap): about 11 taps a second, as
fast as a quick child presses a real button. Keys typed faster than that wait their turn behind
the ones before, in typed order (a burst of NEXT then OK on the letter wheel must not reach the
box as OK first). ``schedule`` is ``threading.Timer`` in the terminal and a recording fake in tests.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

TAP_S = 0.05   # a finger on the button for a tap
GAP_S = 0.04   # up again before the next press


def timer(delay: float, action: Callable[[], None]) -> None:
    threading.Timer(max(0.0, delay), action).start()


class Finger:
    """Presses the pins that ``pin(name)`` returns, one key after another."""

    def __init__(self, pin: Callable[[str], Any], *, debounce_s: float = 0.03,
                 clock: Callable[[], float] = time.monotonic,
                 schedule: Callable[[float, Callable[[], None]], None] = timer) -> None:
        self._pin, self._clock, self._schedule = pin, clock, schedule
        self.tap_s = max(TAP_S, debounce_s + 0.02)
        self.gap_s = max(GAP_S, debounce_s + 0.01)
        self.free_at = float("-inf")  # when the finger is ready for the next key
        self._lock = threading.Lock()

    def press(self, name: str, seconds: float | None = None) -> float:
        """Press ``name`` for ``seconds`` (a tap when None) as soon as the finger is free;
        returns the delay before the button goes down (0 when it keeps up)."""
        pin = self._pin(name)
        down_s = self.tap_s if seconds is None else seconds
        with self._lock:
            now = self._clock()
            start = max(now, self.free_at)
            self.free_at = start + down_s + self.gap_s
        delay = start - now
        self._schedule(delay, pin.drive_low)
        self._schedule(delay + down_s, pin.drive_high)
        return delay


__all__ = ["Finger", "GAP_S", "TAP_S"]
