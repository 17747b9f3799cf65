"""Overload and underload of one pan as a state, never a number.

Pure: every call brings the sample time. A load cell behind an overload stop reads a plateau
(hardware/README.md: the stop takes over at roughly 600-800 g), which the ADC happily converts:
a 1.2 kg book would read as about 700 g. So every reading above ``max_g`` (below the lowest stop,
and the calibrated range of the box's cells) is "overload", and every reading far below the zero
(a pan lifted, a zero taken with something on it) is "underload"; the pan's weight is then unknown.
"""

from __future__ import annotations

from dataclasses import dataclass

STATES = ("ok", "overload", "underload")


@dataclass(frozen=True)
class RangeSettings:
    """``max_g``: 550 g, 50 g under the lowest stop hardware/ allows, so a plateau at the stop is
    always beyond it (the beam bends a little past contact: the last grams before the stop are
    not to be trusted either). ``min_g``: -20 g. A reading must stay beyond for ``confirm_s``
    (a set-down's overshoot is briefer) and comes back once ``hysteresis_g`` inside."""

    max_g: float = 550.0
    min_g: float = -20.0
    confirm_s: float = 0.2
    hysteresis_g: float = 5.0


class RangeGuard:
    """``state`` after each reading: "ok", "overload" or "underload"."""

    def __init__(self, settings: RangeSettings | None = None) -> None:
        self.settings = settings or RangeSettings()
        self.state = "ok"
        self._beyond: tuple[str, float] | None = None  # (state, since) while not yet confirmed

    def push(self, t: float, grams: float, *, saturated: bool = False) -> str:
        """One reading in grams at ``t`` (``saturated``: the chip itself is at a rail)."""
        s = self.settings
        if saturated or grams > s.max_g:
            beyond = "overload" if saturated or grams > 0 else "underload"
        elif grams < s.min_g:
            beyond = "underload"
        else:
            beyond = "ok"
        if self.state != "ok":
            back = (s.min_g + s.hysteresis_g) <= grams <= (s.max_g - s.hysteresis_g)
            if back and not saturated:
                self.state, self._beyond = "ok", None
            elif beyond != "ok":
                self.state = beyond
            return self.state
        if beyond == "ok":
            self._beyond = None
        elif self._beyond is None or self._beyond[0] != beyond:
            self._beyond = (beyond, t)
        if self._beyond is not None and (saturated or t - self._beyond[1] >= s.confirm_s - 1e-6):
            self.state, self._beyond = self._beyond[0], None
        return self.state

    @property
    def doubtful(self) -> bool:
        """Out of range, or beyond it and not yet confirmed: no reading is a weight now."""
        return self.state != "ok" or self._beyond is not None

    def reset(self) -> None:
        self.state, self._beyond = "ok", None


__all__ = ["RangeGuard", "RangeSettings", "STATES"]
