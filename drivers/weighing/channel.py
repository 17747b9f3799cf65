"""One pan's chain (``ScaleChannel``): counts in; grams, stability, settled value, events out.

calibration (counts to grams) -> spike rejection (a jump waits one sample to prove it is no
spike) -> stability (the motion band over a window, as commercial indicators decide it, reset
at once by a real step) -> the settled value (the mean while stable, refined for up to
``average_s``) -> step events (placed / removed, with grams) -> zero tracking (only when stable
near zero).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from .calibration import Calibration
from .stability import SpikeFilter, StabilityDetector


@dataclass(frozen=True)
class ChannelSettings:
    """Tuning of one pan's chain; ``for_rate`` gives the defaults the benchmark validated."""

    rate: int = 10
    spike_g: float = 0.25  # a jump bigger than this waits one sample to prove it is no spike
    smooth: int = 1  # samples averaged before the motion band check
    window: int = 4  # samples that must lie within the band
    band_g: float = 0.05  # motion band
    step_g: float = 0.5  # a jump bigger than this restarts the stability window at once
    average_s: float = 5.0  # the settled value averages at most this long while stable
    restart_g: float = 0.04  # the last window this far from the average for half a window: a
    #                          small change inside the motion band, so the average restarts
    step_min_g: float = 0.3  # smaller settled changes are not reported as placed/removed
    zero_track_g: float = 0.05  # zero tracking only while stable within this of zero
    zero_track_interval_s: float = 1.0

    @classmethod
    def for_rate(cls, rate: int, **overrides: Any) -> "ChannelSettings":
        base = {10: dict(spike_g=0.25, smooth=1, window=4, band_g=0.05),
                80: dict(spike_g=0.4, smooth=4, window=8, band_g=0.05)}
        if rate not in base:
            raise ValueError("rate must be 10 or 80")
        return cls(rate=rate, **{**base[rate], **overrides})


@dataclass(frozen=True)
class WeighEvent:
    """What a pan reports. ``kind``: "moving" (stability lost; ``grams`` is the change so far),
    "stable" (``grams`` is the settled total), "placed"/"removed" (``grams`` is the mass of the
    step, positive). ``total_g`` is the settled (or current) total on the pan."""

    kind: str
    pan: str
    t: float
    grams: float
    total_g: float


@dataclass
class _Settled:
    values: deque[float] = field(default_factory=deque)
    total: float = 0.0

    def add(self, g: float, cap: int) -> None:
        self.values.append(g)
        self.total += g
        while len(self.values) > cap:
            self.total -= self.values.popleft()

    def mean(self) -> float:
        return self.total / len(self.values)

    def shift(self, delta: float) -> None:
        self.values = deque(v + delta for v in self.values)
        self.total += delta * len(self.values)


class ScaleChannel:
    """Raw counts of one pan in; grams, the stable flag, the settled value and events out."""

    def __init__(self, pan: str, calibration: Calibration | None = None, *,
                 settings: ChannelSettings | None = None, rate: int = 10) -> None:
        self.pan = pan
        self.settings = settings or ChannelSettings.for_rate(rate)
        s = self.settings
        self._cal = calibration or Calibration()
        self._spike = SpikeFilter(s.spike_g)
        self._detector = StabilityDetector(s.window, s.band_g, s.step_g, s.smooth)
        self._recent: deque[float] = deque(maxlen=s.window + s.smooth - 1)
        self._settled = _Settled()
        self._since = 0.0  # when the current settled average began
        self._avg_cap = max(s.window, round(s.average_s * s.rate))
        self._zero_adj = 0.0  # grams removed by zero tracking since the last tare
        self._drift = 0  # consecutive samples whose recent mean left the settled average
        self._last_zt: float | None = None
        self.grams: float | None = None
        self.stable = False
        self.last_settled_g: float | None = None
        self.t: float | None = None

    @property
    def calibration(self) -> Calibration:
        """The calibration including what zero tracking has done (persist this one)."""
        return self._cal.with_zero(self._cal.counts(self._zero_adj))

    @property
    def settled_g(self) -> float | None:
        """The settled value while stable, else None."""
        return self._settled.mean() if self.stable else None

    @property
    def settled_since(self) -> float | None:
        """While stable: the sample time at which the settled value began to average (the
        stable transition, or a restart after a small change inside the motion band)."""
        return self._since if self.stable else None

    @property
    def settled_counts(self) -> float | None:
        """The settled value in raw counts (for calibration), else None."""
        g = self.settled_g
        return None if g is None else self._cal.counts(g + self._zero_adj)

    def feed(self, t: float, counts: float) -> list[WeighEvent]:
        """One accepted sample; returns the events it caused."""
        s = self.settings
        self.t = t
        g = self._spike.push(self._cal.grams(counts) - self._zero_adj)
        self.grams = g
        self._recent.append(g)
        was = self.stable
        now_stable = self._detector.push(g, may_settle=not self._spike.holding)
        events: list[WeighEvent] = []
        if now_stable:
            recent = list(self._recent)[-s.window:]
            drifting = was and abs(sum(recent) / len(recent) - self._settled.mean()) > s.restart_g
            self._drift = self._drift + 1 if drifting else 0
            was_settled = was
            if self._drift >= max(2, s.window // 2):  # a change inside the motion band that
                was_settled, self._drift = False, 0   # persists: average afresh
            if not was_settled:
                self._since = t
                self._settled = _Settled()
                for v in recent:
                    self._settled.add(v, self._avg_cap)
            else:
                self._settled.add(g, self._avg_cap)
        self.stable = now_stable
        if was and not now_stable:
            ref = self.last_settled_g if self.last_settled_g is not None else g
            events.append(WeighEvent("moving", self.pan, t, g - ref, g))
        elif now_stable:
            settled = self._settled.mean()
            if not was:
                events.append(WeighEvent("stable", self.pan, t, settled, settled))
                if self.last_settled_g is not None:
                    delta = settled - self.last_settled_g
                    if abs(delta) >= s.step_min_g:
                        kind = "placed" if delta > 0 else "removed"
                        events.append(WeighEvent(kind, self.pan, t, abs(delta), settled))
            self.last_settled_g = settled
            self._track_zero(t, settled)
        return events

    def tare(self) -> bool:
        """Make the current settled value zero; False (nothing done) unless stable."""
        g = self.settled_g
        if g is None:
            return False
        self._cal = self._cal.with_zero(self._cal.counts(g + self._zero_adj))
        self._zero_adj = 0.0
        self._shift(-g)
        return True

    def set_calibration(self, calibration: Calibration) -> None:
        """Use a new calibration (e.g. after ``spielleiter calibrate``); filters restart."""
        self._cal = calibration
        self._zero_adj = 0.0
        self.reset()
        self.last_settled_g = None

    def reset(self) -> None:
        """Forget the signal history (after a reconnect the chip starts afresh)."""
        self._spike.reset()
        self._detector.reset()
        self._recent.clear()
        self._settled = _Settled()
        self.stable = False

    def _track_zero(self, t: float, settled: float) -> None:
        s = self.settings
        if s.zero_track_g <= 0 or abs(settled) > s.zero_track_g or settled == 0.0:
            return
        if self._last_zt is not None and t - self._last_zt < s.zero_track_interval_s:
            return
        self._last_zt = t
        self._zero_adj += settled
        self._shift(-settled)

    def _shift(self, delta: float) -> None:
        self._spike.shift(delta)
        self._detector.shift(delta)
        self._recent = deque((v + delta for v in self._recent), maxlen=self._recent.maxlen)
        self._settled.shift(delta)
        if self.grams is not None:
            self.grams += delta
        if self.last_settled_g is not None:
            self.last_settled_g += delta


__all__ = ["ChannelSettings", "ScaleChannel", "WeighEvent"]
