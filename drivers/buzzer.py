"""The buzzer: a gpiozero ``Buzzer`` (active piezo) playing a few named patterns in the background."""

from __future__ import annotations

import logging
from collections import deque
from typing import Deque

from gpiozero import Buzzer

log = logging.getLogger(__name__)

# name: (on seconds, off seconds, repetitions)
PATTERNS: dict[str, tuple[float, float, int]] = {
    "click": (0.02, 0.0, 1),
    "tick": (0.08, 0.0, 1),
    "go": (0.5, 0.0, 1),
    "score": (0.1, 0.08, 2),
    "win": (0.15, 0.1, 3),
    "error": (0.05, 0.05, 3),
}


LEVELS = ("off", "quiet", "normal")
QUIET_ON_S = 0.015  # an active piezo has no volume: quiet means the shortest audible chirps


class Beeper:
    """Plays ``PATTERNS`` without blocking the caller (gpiozero's own background thread).

    ``level`` "quiet" keeps each pattern's rhythm with chirps of ``QUIET_ON_S`` (an active piezo
    is either on or off), "off" plays nothing; ``played`` records every request either way.
    """

    def __init__(self, pin: int | None, pin_factory: object | None = None,
                 enabled: bool = True, level: str = "normal") -> None:
        self.buzzer = Buzzer(pin, pin_factory=pin_factory) if pin is not None else None
        self.enabled = enabled
        self.level = level
        self.played: Deque[str] = deque(maxlen=32)

    def play(self, pattern: str) -> None:
        on, off, n = PATTERNS[pattern]
        self.played.append(pattern)
        if self.buzzer is None or not self.enabled or self.level == "off":
            return
        if self.level == "quiet":
            on, off = min(on, QUIET_ON_S), off or on
        try:
            self.buzzer.beep(on_time=on, off_time=off or on, n=n, background=True)
        except Exception as exc:  # a buzzer fault must never stop the referee
            log.warning("buzzer: %s", exc)

    def set_level(self, level: str) -> None:
        self.level = level if level in LEVELS else "normal"

    def close(self) -> None:
        if self.buzzer is not None:
            self.buzzer.close()
            self.buzzer = None

    def __enter__(self) -> "Beeper":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
