"""Screen sleep: the OLED dims after a few idle minutes and switches off later, sparing it from
burn-in; any press or weight change wakes it. A press that finds the screen off only wakes it (the
player could not see what it would have done)."""

from __future__ import annotations

from typing import Any, Callable

DIM_CONTRAST = 8
OFF_FACTOR = 4  # off after four times the time to dim


class ScreenSaver:
    def __init__(self, call_later: Callable[[float, Callable[[], None]], Any],
                 cancel: Callable[[Any], None], set_power: Callable[[int | None], None]) -> None:
        self._call_later, self._cancel, self._set_power = call_later, cancel, set_power
        self.contrast = 255
        self.dim_after_s: float | None = None
        self.state = "on"  # "on", "dim" or "off"
        self._timer: Any = None

    def configure(self, contrast: int, dim_after_s: float | None) -> None:
        self.contrast, self.dim_after_s = contrast, dim_after_s
        self.state = "on"
        self._set_power(contrast)
        self._arm()

    def activity(self) -> bool:
        """Someone is at the table: back to full brightness. True if the screen was off."""
        was_off = self.state == "off"
        if self.state != "on":
            self.state = "on"
            self._set_power(self.contrast)
        self._arm()
        return was_off

    def _arm(self) -> None:
        self._cancel(self._timer)
        self._timer = None
        if self.dim_after_s is not None:
            self._timer = self._call_later(self.dim_after_s, self._dim)

    def _dim(self) -> None:
        self.state = "dim"
        self._set_power(min(DIM_CONTRAST, self.contrast))
        assert self.dim_after_s is not None
        self._timer = self._call_later(self.dim_after_s * (OFF_FACTOR - 1), self._off)

    def _off(self) -> None:
        self.state = "off"
        self._timer = None
        self._set_power(None)
