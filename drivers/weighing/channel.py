"""One pan's chain (``ScaleChannel``): counts in; grams, stability, settled value, events out.

calibration (counts to grams) -> spike rejection (a jump waits one sample to prove it is no
spike) -> stability (the motion band over a window, as commercial indicators decide it, reset
at once by a real step; at 10 SPS the proof a level needs is read from the path that led to it,
``settle``) -> the settled value (the mean while stable, refined for up to
``average_s``) -> step events (placed / removed, with grams) -> zero tracking (``zero``: only
on an empty, still pan, limited in rate) and the warm-up notice -> the range (``range``: at the
overload stop the pan is never stable and has no settled value; far below zero it has no weight
either, but a still pan stays still there, so a tare or a calibration's empty step can set the
zero right again: a zero taken with something on the pan, then emptied, must never lock it).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from .calibration import Calibration
from .range import RangeGuard, RangeSettings
from .settle import SettleRule
from .stability import SpikeFilter, StabilityDetector
from .zero import WarmUp, WarmUpSettings, ZeroSettings, ZeroTracker


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
    zero: ZeroSettings = ZeroSettings()
    range: RangeSettings = RangeSettings()
    warmup: WarmUpSettings = WarmUpSettings()
    settle: SettleRule = SettleRule()  # how much proof a level needs, by its path (off here)
    raw_band_g: float | None = None  # with smooth > 1: the samples' own range, too (a wobble)

    @classmethod
    def for_rate(cls, rate: int, **overrides: Any) -> "ChannelSettings":
        # 10 SPS reads the path to a level (settle.py): 2 samples after a clean step, 1 s
        # after a hand's, the window otherwise; at 80 SPS the window of eight 4-sample means is
        # already within 1.3x of the chip's settling and a hand's tremor shows (benchmarks/).
        base: dict[int, dict[str, Any]] = {
            10: dict(spike_g=0.25, smooth=1, window=4, band_g=0.05,
                     settle=SettleRule(fast=2, fast_band_g=0.07)),
            80: dict(spike_g=0.4, smooth=4, window=8, band_g=0.05, raw_band_g=0.3)}
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
        self.temperature_c: float | None = None  # the cell's, from a thermometer (else None)
        self._factor = 1.0  # the span's temperature compensation (Calibration.factor)
        self._calibrated = calibration is not None  # an uncalibrated pan has no range yet
        self._spike = SpikeFilter(s.spike_g)
        self._detector = StabilityDetector(s.window, s.band_g, s.step_g, s.smooth, s.settle,
                                           s.raw_band_g)
        self._recent: deque[float] = deque(maxlen=s.window + s.smooth - 1)
        self._settled = _Settled()
        self._since = 0.0  # when the current settled average began
        self._avg_cap = max(s.window, round(s.average_s * s.rate))
        self._zero = ZeroTracker(s.zero)  # its offset_g: grams removed since the last tare
        self._range = RangeGuard(s.range)
        self._warm = WarmUp(s.warmup)
        self._drift = 0  # consecutive samples whose recent mean left the settled average
        self._doubt = False  # stable until a jump arrived that may be a spike (see ``feed``)
        self.grams: float | None = None
        self.stable = False
        self.last_settled_g: float | None = None
        self.t: float | None = None

    @property
    def calibration(self) -> Calibration:
        """The calibration including what zero tracking has done (persist this one)."""
        return self._cal.with_zero(self._cal.counts(self._zero_adj))

    @property
    def _zero_adj(self) -> float:
        return self._zero.offset_g

    @property
    def range_state(self) -> str:
        """"ok", "overload" (at the stop or beyond the range) or "underload" (far below zero)."""
        return self._range.state

    @property
    def overload(self) -> bool:
        """Too heavy for the pan: the reading is a plateau or beyond the range, never a weight."""
        return self._range.state == "overload"

    @property
    def underload(self) -> bool:
        """Far below zero (a pan lifted, a zero taken with something on it): no weight either."""
        return self._range.state == "underload"

    @property
    def warming(self) -> bool:
        """After power-on, until the zero has become steady (the table may still play)."""
        return self._warm.warming

    @property
    def empty(self) -> bool:
        """Still and at zero: the zero tracker takes this level for the empty pan."""
        return self.stable and self._zero.empty

    def zero_age_s(self, t: float | None = None) -> float | None:
        """How old the zero is (at ``t``, default the latest sample): seconds since the pan was
        last empty and still, or tared; None when it never was since power-on."""
        t = self.t if t is None else t
        return None if t is None else self._zero.zero_age_s(t)

    def zero_fresh(self, max_age_s: float, t: float | None = None) -> bool:
        """The zero was taken at most ``max_age_s`` ago (for a comparison that matters)."""
        age = self.zero_age_s(t)
        return age is not None and age <= max_age_s

    @property
    def settled_g(self) -> float | None:
        """The settled value while stable and within the range, else None: a weight."""
        return self._settled.mean() if self.stable and not self.underload else None

    @property
    def still_g(self) -> float | None:
        """The settled level while stable, even far below zero (what a tare zeroes), else None."""
        return self._settled.mean() if self.stable else None

    @property
    def settled_since(self) -> float | None:
        """While stable: the sample time at which the settled value began to average (the
        stable transition, or a restart after a small change inside the motion band)."""
        return self._since if self.stable else None

    @property
    def settled_counts(self) -> float | None:
        """The still level in raw counts (for calibration: its empty step may start far below
        the old zero), else None."""
        g = self.still_g
        return None if g is None else self._cal.counts(g / self._factor + self._zero_adj)

    def set_temperature(self, temp_c: float | None) -> None:
        """The cell's temperature now (None: unknown): readings from the next sample on are
        compensated for the span's drift since the calibration (``Calibration.factor``). A
        cell warms by hundredths of a kelvin between two readings, so the samples already
        averaged keep their factor: the change is far inside every band."""
        self.temperature_c = temp_c
        self._factor = self._cal.factor(temp_c)

    def feed(self, t: float, counts: float) -> list[WeighEvent]:
        """One accepted sample; returns the events it caused."""
        s = self.settings
        self.t = t
        accepted = self._spike.accept((self._cal.grams(counts) - self._zero_adj) * self._factor)
        if self._spike.dropped:
            self._detector.gap()
        shown = self._spike.value
        g = accepted[-1] if accepted else (shown if shown is not None else 0.0)
        self.grams = g
        was, proved = self.stable or self._doubt, self._detector.stable
        self._doubt = False
        if not accepted and was and proved:
            # A jump waits one sample to show whether it was a spike: no weight is certain
            # now (the hand may have pressed), but nothing is known to have moved either: no
            # event, and a spike leaves the settled value as it was.
            self._doubt, self.stable = True, False
            return []
        now_stable = was
        for v in accepted:  # a jump waiting to prove it is no spike is no news yet
            now_stable = self._detector.push(v)
            self._recent.append(v)
            if self._calibrated:
                self._range.push(t, v)
        if not accepted and self._calibrated:
            self._range.push(t, g)
        if self._calibrated and self._range.doubtful and not self.underload:
            now_stable = False  # a plateau at the stop is never a weight, not even briefly
        events: list[WeighEvent] = []
        if now_stable:
            recent = list(self._recent)[-s.window:]
            drifting = was and abs(sum(recent) / len(recent) - self._settled.mean()) > s.restart_g
            if accepted:
                self._drift = self._drift + 1 if drifting else 0
            was_settled = was
            if self._drift >= max(2, s.window // 2):  # a change inside the motion band that
                was_settled, self._drift = False, 0   # persists: average afresh
            if not was_settled:
                self._since = t
                self._settled = _Settled()
                # newly stable: from the detector's proof and what followed it (never from the
                # window's older values: the step's last partial sample); a change inside the
                # motion band that persists (``was``): from the window afresh
                for v in (self._detector.level if not was else None) or recent:
                    self._settled.add(v, self._avg_cap)
            else:
                for v in accepted:
                    self._settled.add(v, self._avg_cap)
        self.stable = now_stable
        if self.underload:
            # far below zero no level is a weight: nothing placed, removed or stable is told
            # (the snapshot says "underload"); the level is still followed for a tare
            self._zero.observe(t, None, new_level=False)
            if now_stable:  # what a tare shifts; placed/removed count from here once back
                self.last_settled_g = self._settled.mean()
            self._warm.observe(t, self._zero.offset_g, False)
            return events
        if was and not now_stable:
            ref = self.last_settled_g if self.last_settled_g is not None else g
            events.append(WeighEvent("moving", self.pan, t, g - ref, g))
        elif now_stable:
            correction = self._zero.observe(t, self._settled.mean(), new_level=not was)
            if correction:
                self._shift(-correction)
            settled = self._settled.mean()
            if not was:
                events.append(WeighEvent("stable", self.pan, t, settled, settled))
                if self.last_settled_g is not None:
                    delta = settled - self.last_settled_g
                    if abs(delta) >= s.step_min_g:
                        kind = "placed" if delta > 0 else "removed"
                        events.append(WeighEvent(kind, self.pan, t, abs(delta), settled))
            self.last_settled_g = settled
        if not now_stable:
            self._zero.observe(t, None, new_level=False)
        self._warm.observe(t, self._zero.offset_g, now_stable and self._zero.empty)
        return events

    def tare(self) -> bool:
        """Make the current still level zero (far below zero too); False (nothing done)
        unless stable."""
        g = self.still_g
        if g is None:
            return False
        self._cal = self._cal.with_zero(self._cal.counts(g / self._factor + self._zero_adj))
        self._zero.zeroed(self.t if self.t is not None else 0.0)
        self._shift(-g)
        return True

    def set_calibration(self, calibration: Calibration) -> None:
        """Use a new calibration (e.g. after ``spielleiter calibrate``); filters restart."""
        self._cal = calibration
        self._factor = calibration.factor(self.temperature_c)
        self._calibrated = True
        self._zero = ZeroTracker(self.settings.zero)
        if self.t is not None:
            self._zero.zeroed(self.t)  # a calibration starts from the empty pan
        self.reset()
        self.last_settled_g = None

    def reset(self) -> None:
        """Forget the signal history (after a reconnect the chip starts afresh)."""
        self._spike.reset()
        self._detector.reset()
        self._recent.clear()
        self._settled = _Settled()
        self._range.reset()
        self._zero.observe(self.t or 0.0, None, new_level=False)
        self.stable = self._doubt = False

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
