"""The zero of one pan: automatic zero-tracking, the fresh zero, and the warm-up notice.

Pure: every call brings the sample time; nothing here keeps a clock.

``ZeroTracker`` follows the zero's slow drift (warm-up, the box warming) the way OIML R76
(4.5.9, automatic zero-tracking) allows a trusted scale to: only while the pan is still and
shows zero, never faster than 0.5 e per second, and never beyond 4 % of the capacity from the
calibrated zero. A level counts as "zero" only when it *settles* (after motion) within
``band_g`` of zero, or within what the zero can have drifted since the pan was last seen empty
(``drift_g_per_s`` times that age): so a pan emptied after an hour loaded takes its drifted zero
at once (the fresh zero), while a level that settled loaded is never tracked away however long
it stays. The first level after power-on is zero within ``max_capture_g`` (the saved zero is
from another day and temperature: OIML's initial zero-setting). ``WarmUp`` watches the tracked zero after power-on and says when it has become steady.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from ..loadcell.chip import CAPACITY_G


@dataclass(frozen=True)
class ZeroSettings:
    """Limits of zero-tracking. ``band_g``: a level settling this close to zero is the empty
    pan (2 e at e = 0.05 g, the tie band; smaller items are below the channel's step_min_g and
    never reported anyway). ``rate_g_per_s``: 0.5 e/s, OIML R76's limit. ``drift_g_per_s``: the
    fastest the zero moves (warm-up of a 1 kg bar cell: about 0.4 g over a 3 min time constant,
    2 mg/s at worst), so the most a zero can have moved while the pan was loaded. ``range_g``:
    4 % of capacity (OIML R76's zero-setting range); ``max_capture_g``: the largest drifted zero
    taken as empty however long the pan was loaded."""

    band_g: float = 0.1
    rate_g_per_s: float = 0.025
    drift_g_per_s: float = 0.002
    max_capture_g: float = 2.0
    range_g: float = 0.04 * CAPACITY_G


class ZeroTracker:
    """Decides, per settled sample, how much of it is the zero's drift (to be removed)."""

    def __init__(self, settings: ZeroSettings | None = None) -> None:
        self.settings = settings or ZeroSettings()
        self.offset_g = 0.0  # the zero's movement taken out since the calibration's zero
        self.zero_t: float | None = None  # when the pan was last empty and still
        self.empty = False  # the current settled level is the empty pan
        self._last_t: float | None = None

    def allowance_g(self, t: float) -> float:
        """How far from zero a level settling at ``t`` may be and still be the empty pan."""
        s = self.settings
        if self.zero_t is None:
            return s.max_capture_g  # after power-on: the zero saved long ago has moved
        return min(s.max_capture_g, s.band_g + s.drift_g_per_s * max(0.0, t - self.zero_t))

    def observe(self, t: float, settled_g: float | None, new_level: bool) -> float:
        """The pan at ``t``: its settled value (None while it moves), ``new_level`` on the
        first stable sample after motion. Returns the correction to subtract (grams)."""
        s = self.settings
        if settled_g is None:
            self.empty, self._last_t = False, None
            return 0.0
        correction = 0.0
        if new_level:
            self.empty = abs(settled_g) <= self.allowance_g(t)
            if self.empty:
                correction = settled_g  # the fresh zero: the empty pan is zero
        elif self.empty and abs(settled_g) <= s.band_g + s.rate_g_per_s:
            dt = 0.0 if self._last_t is None else max(0.0, t - self._last_t)
            step = s.rate_g_per_s * dt
            correction = max(-step, min(step, settled_g))
        elif self.empty:
            self.empty = False  # the level moved off zero without motion: no longer tracked
        if self.empty:
            room = s.range_g - abs(self.offset_g)
            if abs(self.offset_g + correction) > s.range_g:
                correction = max(-room, min(room, correction)) if room > 0 else 0.0
            self.offset_g += correction
            self.zero_t = t
        self._last_t = t
        return correction

    def zeroed(self, t: float) -> None:
        """The zero was just set by hand (tare, calibration): it is fresh."""
        self.offset_g, self.zero_t, self.empty, self._last_t = 0.0, t, True, t

    def zero_age_s(self, t: float) -> float | None:
        """How old the zero is at ``t``: since the pan was last empty and still (None: never)."""
        return None if self.zero_t is None else max(0.0, t - self.zero_t)


@dataclass(frozen=True)
class WarmUpSettings:
    """The zero is steady once it moved less than ``steady_g`` (the tie band) over the last
    ``window_s`` of empty, still pan; at the latest after ``max_s`` (published: about 10 min
    for HX711 boards and bar cells; 15 to allow a closed box) when the pan was never empty."""

    window_s: float = 120.0
    steady_g: float = 0.05
    max_s: float = 900.0


class WarmUp:
    """After power-on: True (``warming``) until the tracked zero has become steady."""

    def __init__(self, settings: WarmUpSettings | None = None) -> None:
        self.settings = settings or WarmUpSettings()
        self.start_t: float | None = None
        self.warming = True
        self._seen: deque[tuple[float, float]] = deque()

    def observe(self, t: float, zero_offset_g: float, empty: bool) -> bool:
        """One sample: the tracker's offset and whether the pan is empty and still now.
        Returns ``warming``."""
        s = self.settings
        if self.start_t is None:
            self.start_t = t
        if not self.warming:
            return False
        if t - self.start_t >= s.max_s:
            self.warming = False
            return False
        if not empty:
            self._seen.clear()  # only an unbroken stretch of empty pan shows the drift
            return True
        seen = self._seen
        seen.append((t, zero_offset_g))
        while len(seen) > 2 and seen[1][0] <= t - s.window_s:
            seen.popleft()
        if seen[-1][0] - seen[0][0] >= s.window_s - 1e-6:
            values = [z for _, z in seen]
            if max(values) - min(values) < s.steady_g:
                self.warming = False
        return self.warming


__all__ = ["WarmUp", "WarmUpSettings", "ZeroSettings", "ZeroTracker"]
