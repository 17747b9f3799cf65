"""Pure signal processing for the load cells: counts in; grams, stability and steps out.

No I/O, no clock, no threads: every function takes the sample times it needs, so the same code
runs on the box, in the simulation and on synthetic streams in tests.

The chain for one pan (``ScaleChannel``): calibration (counts to grams) -> spike rejection
(a jump waits one sample to prove it is no spike) -> stability (the motion band over a window, as commercial indicators
decide it, reset at once by a real step) -> the settled value (the mean while stable, refined
for up to ``average_s``) -> step events (placed / removed, with grams) -> zero tracking (only
when stable near zero). ``compare`` judges two pans with a tie band.
"""

from __future__ import annotations

import statistics
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from .loadcell import LoadCellError

NOMINAL_COUNTS_PER_GRAM = 2147.5  # 1 kg, 1 mV/V cell at 3.3 V, HX711 gain 128


class CalibrationError(LoadCellError, ValueError):
    """Calibration points that cannot define a scale, or a stored calibration that is broken."""


# --------------------------------------------------------------------------------------------
# Calibration
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Calibration:
    """grams = (counts - offset) / counts_per_gram. ``offset`` is the zero (tare) in counts;
    ``points`` are the (grams, counts) pairs the scale was fitted to, kept for the record."""

    offset: float = 0.0
    counts_per_gram: float = NOMINAL_COUNTS_PER_GRAM
    points: tuple[tuple[float, float], ...] = ()

    def __post_init__(self) -> None:
        if not self.counts_per_gram or self.counts_per_gram != self.counts_per_gram:
            raise CalibrationError("counts_per_gram must be a non-zero number")

    def grams(self, counts: float) -> float:
        return (counts - self.offset) / self.counts_per_gram

    def counts(self, grams: float) -> float:
        return self.offset + grams * self.counts_per_gram

    def with_zero(self, zero_counts: float) -> "Calibration":
        """The same scale with a new zero (tare)."""
        return Calibration(float(zero_counts), self.counts_per_gram, self.points)

    @classmethod
    def from_points(cls, points: Iterable[tuple[float, float]]) -> "Calibration":
        """Least-squares line through (grams, counts) points: the empty pan (0 g) and one or
        more known masses. Two points give the classic zero + span calibration."""
        pts = tuple((float(g), float(c)) for g, c in points)
        masses = {g for g, _ in pts}
        if len(masses) < 2:
            raise CalibrationError("need two different masses (e.g. empty pan and a weight)")
        n = len(pts)
        mg = sum(g for g, _ in pts) / n
        mc = sum(c for _, c in pts) / n
        sgg = sum((g - mg) ** 2 for g, _ in pts)
        sgc = sum((g - mg) * (c - mc) for g, c in pts)
        k = sgc / sgg
        if abs(k) < 1.0:
            raise CalibrationError("the known mass hardly changed the reading: check wiring")
        return cls(offset=mc - k * mg, counts_per_gram=k, points=pts)

    @classmethod
    def from_known_mass(cls, zero_counts: float, loaded_counts: float,
                        mass_g: float) -> "Calibration":
        """Zero and span from the empty pan and one known mass."""
        if mass_g <= 0:
            raise CalibrationError("the known mass must be positive")
        return cls.from_points([(0.0, zero_counts), (mass_g, loaded_counts)])

    def residuals_g(self) -> list[float]:
        """How far each calibration point lies from the fitted line, in grams."""
        return [self.grams(c) - g for g, c in self.points]

    def to_json(self) -> dict[str, Any]:
        return {"version": 1, "offset": self.offset, "counts_per_gram": self.counts_per_gram,
                "points": [[g, c] for g, c in self.points]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Calibration":
        try:
            if data.get("version", 1) != 1:
                raise CalibrationError(f"unknown calibration version {data.get('version')!r}")
            return cls(offset=float(data["offset"]),
                       counts_per_gram=float(data["counts_per_gram"]),
                       points=tuple((float(g), float(c)) for g, c in data.get("points", ())))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, CalibrationError):
                raise
            raise CalibrationError(f"broken calibration: {exc}") from exc


# --------------------------------------------------------------------------------------------
# Filters
# --------------------------------------------------------------------------------------------


class MedianFilter:
    """Running median of the last ``n`` values: removes spikes up to (n-1)/2 samples long at
    a delay of (n-1)/2 samples, and passes steps unchanged."""

    def __init__(self, n: int = 3) -> None:
        if n < 1 or n % 2 == 0:
            raise ValueError("n must be odd and positive")
        self.n = n
        self._buf: deque[float] = deque(maxlen=n)

    def push(self, x: float) -> float:
        self._buf.append(x)
        return statistics.median(self._buf)

    def shift(self, delta: float) -> None:
        self._buf = deque((v + delta for v in self._buf), maxlen=self.n)

    def reset(self) -> None:
        self._buf.clear()


class SpikeFilter:
    """Removes single-sample spikes without delaying a settled signal.

    A value within ``jump_g`` of the last accepted one passes at once. A bigger jump is held
    back one sample (the last accepted value is repeated) until the next sample shows what it
    was: close to the held value -> a real step, close to the old level -> a spike (dropped),
    far from both -> motion. So quiet signals have no delay, a step is delayed one sample and a
    spike never comes out; a running median of three does the same but delays everything.
    """

    def __init__(self, jump_g: float) -> None:
        self.jump_g = jump_g
        self._prev: float | None = None
        self._held: float | None = None
        self.spikes = 0

    def push(self, x: float) -> float:
        prev, held, jump = self._prev, self._held, self.jump_g
        if prev is None:
            self._prev = x
            return x
        if held is None:
            if abs(x - prev) <= jump:
                self._prev = x
                return x
            self._held = x
            return prev
        self._held = None
        if abs(x - held) > jump and abs(x - prev) <= jump:
            self.spikes += 1
        self._prev = x
        return x

    @property
    def holding(self) -> bool:
        """A jump is waiting for the next sample to show whether it was a spike."""
        return self._held is not None

    def shift(self, delta: float) -> None:
        if self._prev is not None:
            self._prev += delta
        if self._held is not None:
            self._held += delta

    def reset(self) -> None:
        self._prev = self._held = None


class HampelFilter:
    """Replaces a value that lies more than ``n_sigma`` robust deviations (1.4826 MAD, at least
    ``min_dev``) from the median of the previous ``window`` values by that median."""

    def __init__(self, window: int = 7, n_sigma: float = 4.0, min_dev: float = 0.0) -> None:
        self.window, self.n_sigma, self.min_dev = window, n_sigma, min_dev
        self._buf: deque[float] = deque(maxlen=window)
        self.outliers = 0

    def push(self, x: float) -> float:
        buf = self._buf
        out = x
        if len(buf) >= 3:
            med = statistics.median(buf)
            mad = statistics.median(abs(v - med) for v in buf)
            if abs(x - med) > max(self.n_sigma * 1.4826 * mad, self.min_dev):
                out = med
                self.outliers += 1
        buf.append(x)
        return out

    def reset(self) -> None:
        self._buf.clear()


# --------------------------------------------------------------------------------------------
# Stability
# --------------------------------------------------------------------------------------------


class StabilityDetector:
    """Stable when the last ``window`` values (each the mean of ``smooth`` samples) lie within
    ``band_g`` of each other: the motion band of a weighing indicator. Once stable, it stays
    stable until a value strays more than twice the band from the window's mean (hysteresis:
    noise at the band's edge does not flicker). A jump bigger than ``step_g`` empties the window at once, so
    old samples never vouch for a new load."""

    def __init__(self, window: int, band_g: float, step_g: float, smooth: int = 1) -> None:
        self.window, self.band_g, self.step_g, self.smooth = window, band_g, step_g, smooth
        self._ma: deque[float] = deque(maxlen=smooth)
        self._win: deque[float] = deque(maxlen=window)
        self._anchor = 0.0
        self.stable = False
        self.resets = 0

    def push(self, g: float, may_settle: bool = True) -> bool:
        """Add a value; ``may_settle=False`` keeps an unstable detector unstable (the value is
        in doubt, e.g. a possible spike is pending)."""
        if self._ma and abs(g - sum(self._ma) / len(self._ma)) > self.step_g:
            self.reset()
            self.resets += 1
        self._ma.append(g)
        if len(self._ma) < self.smooth:
            return self.stable
        v = sum(self._ma) / self.smooth
        if self.stable and abs(v - self._anchor) > 2 * self.band_g:
            self.stable = False
        win = self._win
        win.append(v)
        if not self.stable:
            self.stable = (may_settle and len(win) == self.window
                           and max(win) - min(win) <= self.band_g)
        if self.stable:
            self._anchor = sum(win) / len(win)
        return self.stable

    def shift(self, delta: float) -> None:
        self._ma = deque((v + delta for v in self._ma), maxlen=self.smooth)
        self._win = deque((v + delta for v in self._win), maxlen=self.window)
        self._anchor += delta

    def reset(self) -> None:
        self._ma.clear()
        self._win.clear()
        self.stable = False


# --------------------------------------------------------------------------------------------
# One pan
# --------------------------------------------------------------------------------------------


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


def compare(left_g: float, right_g: float, tie_band_g: float = 0.05) -> str:
    """Left against right: "lighter", "heavier" or "balanced" (within ``tie_band_g``)."""
    diff = left_g - right_g
    if abs(diff) <= tie_band_g:
        return "balanced"
    return "lighter" if diff < 0 else "heavier"


def settle(samples: Sequence[tuple[float, float]], channel: ScaleChannel) -> list[WeighEvent]:
    """Feed (t, counts) samples to ``channel``; all events in order (for tests and tools)."""
    events: list[WeighEvent] = []
    for t, c in samples:
        events.extend(channel.feed(t, c))
    return events


__all__ = [
    "Calibration", "CalibrationError", "ChannelSettings", "HampelFilter", "MedianFilter",
    "SpikeFilter",
    "ScaleChannel", "StabilityDetector", "WeighEvent", "compare", "settle",
    "NOMINAL_COUNTS_PER_GRAM",
]
