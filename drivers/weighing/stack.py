"""A stack standing on a pan: settled steps classified against learned unit weights.

Knows no game. ``Units`` are the weights of the kinds of piece one set has (learned by weighing a
few of each); ``StackWatcher`` follows a pan's ``stable``/``moving`` news and turns a settled
change that has *held* for ``confirm_s`` into one ``StackStep``:

- ``rise``: about one piece's weight more (with its kind when the kinds differ enough);
- ``fall``: the settled weight fell by more than the noise (``pieces``: how many, estimated);
- ``odd``: a settled rise that is no single piece (two at once, a hand resting very still).

What is neither: a hand pressing or resting on the stack, and a wobble, never settle (tremor and
oscillation keep the motion band open) or settle back within the noise; a piece lifted and put
back before the lower level has held ``confirm_s`` cancels itself (``moving`` clears a pending
level). Small settled drifts within the noise (creep) move the reference along.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping, Sequence

NOISE_G = 0.3      # settled changes this small are no event (the channel's step_min_g)
CONFIRM_S = 0.2    # a new settled level must hold this long (a lift-and-put-back is faster)
MIN_SD_G = 0.03    # floor of a kind's spread (a few identical pieces weigh alike)
MIN_TOL_G = 0.15   # floor of a kind's tolerance


class StackError(ValueError):
    """Unusable unit weights (no samples, a non-positive weight)."""


@dataclass(frozen=True)
class Units:
    """Learned piece weights: kind -> (mean grams, spread). ``tolerance`` is how far a single
    piece of that kind may weigh from the mean and still be recognised."""

    mean: Mapping[str, float]
    sd: Mapping[str, float]

    @classmethod
    def from_samples(cls, samples: Mapping[str, Sequence[float]]) -> "Units":
        """Means and spreads from a few weighings per kind; StackError if unusable."""
        mean: dict[str, float] = {}
        sd: dict[str, float] = {}
        for kind, values in samples.items():
            values = [float(v) for v in values]
            if not values or any(not math.isfinite(v) or v <= 0 for v in values):
                raise StackError(f"{kind}: no usable weighings")
            m = sum(values) / len(values)
            var = sum((v - m) ** 2 for v in values) / max(1, len(values) - 1)
            mean[kind], sd[kind] = m, max(MIN_SD_G, math.sqrt(var))
        if not mean:
            raise StackError("no kinds weighed")
        return cls(mean, sd)

    def tolerance(self, kind: str) -> float:
        return max(MIN_TOL_G, 4 * self.sd[kind], 0.06 * self.mean[kind])

    @property
    def distinct(self) -> bool:
        """Every two kinds' tolerance windows are apart: ``classify`` can name the kind."""
        kinds = list(self.mean)
        return all(abs(self.mean[a] - self.mean[b]) > self.tolerance(a) + self.tolerance(b)
                   for i, a in enumerate(kinds) for b in kinds[i + 1:])

    @property
    def lightest(self) -> float:
        return min(self.mean.values())

    @property
    def average(self) -> float:
        return sum(self.mean.values()) / len(self.mean)

    def single(self, grams: float) -> bool:
        """Could ``grams`` be one piece of some kind (between the lightest and the heaviest)?"""
        low = min(m - self.tolerance(k) for k, m in self.mean.items())
        high = max(m + self.tolerance(k) for k, m in self.mean.items())
        return low <= grams <= high

    def kind_of(self, grams: float) -> str | None:
        """The kind ``grams`` is, when the kinds are distinct and exactly one fits; else None."""
        if not self.distinct:
            return None
        fits = [k for k, m in self.mean.items() if abs(grams - m) <= self.tolerance(k)]
        return fits[0] if len(fits) == 1 else None

    def pieces(self, grams: float) -> int:
        """About how many pieces ``grams`` are (at least 1)."""
        return max(1, round(grams / self.average))


@dataclass(frozen=True)
class StackStep:
    """A settled change that held: ``kind`` rise/fall/odd, ``grams`` the signed change, ``total``
    the new settled weight, ``settled_t`` when it settled, ``t`` when it was confirmed."""

    kind: str
    grams: float
    total: float
    settled_t: float
    t: float
    piece: str | None = None
    pieces: int = 1


@dataclass
class StackWatcher:
    """Follows one pan's settled levels; ``stable``/``moving`` in, ``confirm`` out a step."""

    units: Units | None = None
    noise_g: float = NOISE_G
    confirm_s: float = CONFIRM_S
    base: float | None = None           # the settled weight last accepted
    pending: tuple[float, float] | None = field(default=None)  # (t, total) not yet held

    def reset(self, total: float | None = None) -> None:
        """Forget the reference (a new stack, a resumed game): the next level is taken as is."""
        self.base, self.pending = total, None

    def stable(self, t: float, total: float) -> bool:
        """The pan settled at ``total``; True when a change now waits for ``confirm``."""
        if self.base is None or abs(total - self.base) <= self.noise_g:
            self.base, self.pending = total, None  # the first level, or creep: follow it
            return False
        self.pending = (t, total)
        return True

    def moving(self, t: float) -> None:
        """The pan left its settled level: a pending level did not hold."""
        self.pending = None

    def due(self) -> float | None:
        """When the pending level will have held ``confirm_s``, or None."""
        return None if self.pending is None else self.pending[0] + self.confirm_s

    def confirm(self, t: float | None = None) -> StackStep | None:
        """The pending level as a step if it still holds (and, given ``t``, has held long
        enough); the reference moves to it."""
        if self.pending is None or self.base is None:
            return None
        settled_t, total = self.pending
        if t is not None and t < settled_t + self.confirm_s:
            return None
        now = settled_t + self.confirm_s if t is None else t
        delta = total - self.base
        self.base, self.pending = total, None
        units = self.units
        if delta < 0:
            pieces = units.pieces(-delta) if units is not None else 1
            return StackStep("fall", delta, total, settled_t, now, pieces=pieces)
        if units is None or units.single(delta):
            piece = units.kind_of(delta) if units is not None else None
            return StackStep("rise", delta, total, settled_t, now, piece=piece)
        return StackStep("odd", delta, total, settled_t, now,
                         pieces=units.pieces(delta))


__all__ = ["CONFIRM_S", "NOISE_G", "StackError", "StackStep", "StackWatcher", "Units"]
