"""A stack standing on a pan: settled steps classified against learned unit weights.

Knows no game. ``Units`` are the weights of the kinds of piece one set has (learned by weighing a
few of each); ``StackWatcher`` follows a pan's ``stable``/``moving`` news and turns a settled
change that has *held* for ``confirm_s`` into one ``StackStep``:

- ``rise``: about one piece's weight more (with its kind when the kinds differ enough);
- ``fall``: the settled weight fell by more than the noise (``pieces``: how many, estimated);
- ``odd``: a settled rise that is no single piece (two at once, a hand resting very still);
- ``back``: the level of before the last rise or fall came back within ``return_s`` (a piece
  only lifted and held away longer than ``confirm_s``; a piece that slid off right after it was
  set down): whoever acted on that step takes it back.

What is neither: a hand pressing or resting on the stack, and a wobble, never settle (tremor and
oscillation keep the motion band open) or settle back within the noise; a piece lifted and put
back before the lower level has held ``confirm_s`` cancels itself (``moving`` clears a pending
level); held away longer, it is a ``fall`` and then a ``back``. An ``odd`` level does not move
the reference, so a still hand taken off again changes nothing. A fall of more than one piece
cannot be a lift: it is reported as soon as it settles, or sooner: while the pan still moves,
``falling`` is given each reading, and two in a row below the reference by more than the
heaviest piece (with a margin) are a fall at once (no lift takes more than one piece, a hand only
adds weight); its settled level then moves the reference without a second step, or, back where
it was, is ``back``. Small settled drifts within the noise (creep) move the reference along.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping, Sequence
from ..exc import StackError

NOISE_G = 0.3      # settled changes this small are no event (the channel's step_min_g)
CONFIRM_S = 0.2    # a new settled level must hold this long (a lift-and-put-back is faster)
RETURN_S = 1.5     # a fall whose level comes back within this long was a lift: ``back``
MIN_SD_G = 0.03    # floor of a kind's spread (a few identical pieces weigh alike)
MIN_TOL_G = 0.15   # floor of a kind's tolerance
EARLY_READINGS = 2  # readings in a row below the base by more than any one piece: a fall now
EARLY_MARGIN = 0.1  # ... by this much more than the heaviest piece's window (and 1 g)


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

    @property
    def heaviest_window(self) -> float:
        """The most one piece of any kind may weigh and still be recognised."""
        return max(m + self.tolerance(k) for k, m in self.mean.items())

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
    return_s: float = RETURN_S
    base: float | None = None           # the settled weight last accepted
    pending: tuple[float, float] | None = field(default=None)  # (t, total) not yet held
    last: tuple[float, float, float] | None = None  # (when, level before, change) of the last
    #                                                 rise or fall, until it may no longer come back
    fell: float | None = None  # when a fall was reported while the pan moved (its level to come)
    _low: int = 0              # readings in a row below the base by more than any one piece
    _low_t: float | None = None

    def reset(self, total: float | None = None) -> None:
        """Forget the reference (a new stack, a resumed game): the next level is taken as is."""
        self.base, self.pending, self.last = total, None, None
        self.fell, self._low, self._low_t = None, 0, None

    def early_fall_g(self) -> float | None:
        """How far below the reference a reading must be, while the pan moves, to be more than
        any one piece (None without unit weights)."""
        if self.units is None:
            return None
        return max(1.0, EARLY_MARGIN * self.units.heaviest_window) + self.units.heaviest_window

    def falling(self, t: float, grams: float) -> StackStep | None:
        """A reading at ``t`` while the pan moves; a ``fall`` step now when it is the second in
        a row below the reference by more than ``early_fall_g`` (several pieces are falling)."""
        limit = self.early_fall_g()
        if limit is None or self.base is None or self.fell is not None or t == self._low_t:
            return None
        self._low_t = t
        self._low = self._low + 1 if self.base - grams > limit else 0
        if self._low < EARLY_READINGS:
            return None
        before, delta = self.base, grams - self.base
        self.base, self.pending, self.fell = grams, None, t
        self.last = (t, before, delta)
        assert self.units is not None
        return StackStep("fall", delta, grams, t, t, pieces=self.units.pieces(-delta))

    def stable(self, t: float, total: float) -> bool:
        """The pan settled at ``total``; True when a change now waits for ``confirm``."""
        self._low = 0
        if self.fell is not None:
            self.fell = None
            if not self._returns(total):  # the level of a fall already reported: no new step
                self.base, self.pending = total, None
                if self.last is not None:
                    self.last = (self.last[0], self.last[1], total - self.last[1])
                return False
        if self.base is None or abs(total - self.base) <= self.noise_g:
            self.base, self.pending = total, None  # the first level, or creep: follow it
            return False
        self.pending = (t, total)
        return True

    def moving(self, t: float) -> None:
        """The pan left its settled level: a pending level did not hold."""
        self.pending = None
        self._low = 0

    def forget_last(self) -> None:
        """The last step stands (the table moved on): its level coming back is no ``back``."""
        self.last = None

    def _returns(self, total: float) -> bool:
        return self.last is not None and abs(total - self.last[1]) <= self.noise_g

    def due(self) -> float | None:
        """When the pending level may be confirmed, or None: at once for a fall of more than
        one piece (no lift does that) or a return to the level before the last fall, else
        once it has held ``confirm_s``."""
        if self.pending is None or self.base is None:
            return None
        t, total = self.pending
        delta = total - self.base
        units = self.units
        if delta < 0 and units is not None and not units.single(-delta) \
                and -delta > units.lightest:
            return t
        if self._returns(total) and self.last is not None and self.last[2] < 0:
            return t  # a lifted piece put back: no need to wait
        return t + self.confirm_s

    def confirm(self, t: float | None = None) -> StackStep | None:
        """The pending level as a step if it still holds (and, given ``t``, has held long
        enough). A rise or fall moves the reference to it; an odd level does not (a hand
        resting very still, taken off again, changes nothing)."""
        due = self.due()
        if self.pending is None or self.base is None or due is None:
            return None
        settled_t, total = self.pending
        if t is not None and t < due:
            return None
        now = due if t is None else t
        delta = total - self.base
        before, last = self.base, self.last
        self.pending = None
        units = self.units
        if last is not None and now - last[0] <= self.return_s and self._returns(total):
            self.base, self.last = total, None
            return StackStep("back", delta, total, settled_t, now)
        if delta < 0:
            self.base, self.last = total, (now, before, delta)
            pieces = units.pieces(-delta) if units is not None else 1
            return StackStep("fall", delta, total, settled_t, now, pieces=pieces)
        if units is None or units.single(delta):
            self.base, self.last = total, (now, before, delta)
            piece = units.kind_of(delta) if units is not None else None
            return StackStep("rise", delta, total, settled_t, now, piece=piece)
        return StackStep("odd", delta, total, settled_t, now, pieces=units.pieces(delta))


__all__ = ["CONFIRM_S", "EARLY_MARGIN", "EARLY_READINGS", "NOISE_G", "RETURN_S", "StackError", "StackStep", "StackWatcher", "Units"]
