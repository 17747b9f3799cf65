"""How much proof a new level needs, read from the way the signal got there (``SettleRule``).

Pure, no clock. A commercial indicator asks every level for the same proof: N samples inside
the motion band. But the way the signal reached the level says a lot. The HX711's output is a
positive-weighted average of the force over its last four conversions (datasheet: "output
settling time" four periods; the twin models it as sinc^4), so an item set down on the pan is
seen as a short, *monotone* passage from the old level to the new one that ends sharply: once
the force is constant, one conversion later the output is, too. A hand is not like that: it
rises more slowly than a set-down, and its force wanders (a few per cent, 0.3-4 Hz) and
trembles. So, by the path since the detector last left a stable level:

- **a clean step** (monotone, no overshoot beyond the noise, its passage no more spread in time
  than a filtered set-down's, ending sharply: the sample before the last two is already within
  ``tail_frac`` of the step of the new level, and all of it within ``fast_max`` samples): the
  last ``fast`` samples (2) inside ``fast_band_g`` are proof enough: the filter has let the
  force through, and a still level after a monotone step is the step's end. That band (0.07 g)
  is two reads' noise wide (about 0.018 g each at 10 SPS) plus the set-down's last 0.05 g: the
  motion band's 0.05 g sent one clean step in six to a third sample;
- **a hand's path** (a reversal beyond ``reversal_g``, an overshoot and back, a passage spread in
  time like a pressing hand's rise, or a path too long to follow): ``long`` samples (1 s at 10
  SPS) inside ``long_band_g``: a hand held still for a second is rare, a wander's flat spot brief;
- otherwise (no history: after power-on or a reset; a change too small to read a path from; the
  empty pan, whose zero is taken afresh from the proof's average): the motion band's own window.

A hand only adds weight: for a fall (pieces knocked off a stack, a hand taking something off)
the path is read from its highest point on, so a knock before the fall is no hand's path, and
a fall may take its time (pieces falling one after another).

The spread is the time variance of the passage, in samples squared: for a step through a
four-period sinc^4 filter 1/3 (the kernel) + 1/12 (sampling) plus a ramp's own (a set-down over
at most 0.12 s adds under 0.1), so about 0.4-0.5; a hand's rise over 0.2-0.25 s adds 0.3-0.5
more. These figures are the twin's (drivers/sim/): a real set-down that is slower than the
twin's simply takes the slow path (the full window), and only the real box can confirm them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True)
class SettleRule:
    """When a level may be called stable, by the path that led to it. ``fast`` 0 turns the
    reading of the path off (every level needs the motion band's window)."""

    fast: int = 0  # samples inside the band that prove a clean step's level (0: off)
    fast_max: int = 6  # a clean step's path (to the end of those samples) is at most this long
    min_path: int = 4  # ... and at least this long (a shorter one is a bump's top, or noise)
    min_step_g: float = 0.2  # smaller changes have no path to read: the window decides
    zero_g: float = 0.5  # a level this close to zero is the empty pan: its zero is taken from
    #                      the proof's average, so it gets the window's samples, never two
    spread_max: float = 0.55  # samples^2: a filtered set-down's passage is 0.4-0.5, a hand's more
    tail_frac: float = 0.2  # the sample before the last ``fast``: this close to the level
    reversal_g: float = 0.1  # a path that turns back by more than this is a hand (or a wobble)
    long: int = 10  # samples a hand's level must stay inside ``long_band_g``
    long_band_g: float = 0.08  # the range of ``long`` samples of noise alone stays well inside
    max_path: int = 60  # a path longer than this is no longer followed: a hand's
    fast_band_g: float | None = None  # the ``fast`` samples' band (None: the motion band's)

    def proofs(self, before: float | None, path: Sequence[float] | None, window: int,
               band_g: float) -> tuple[tuple[int, float], ...]:
        """The (samples, band) tests, any of which makes the level stable, for a ``path``
        (the values since leaving the stable level ``before``; None when it is not known)."""
        plain = ((window, band_g),)
        if not self.fast:
            return plain
        hand = ((self.long, self.long_band_g),)
        if path is None:
            return plain if before is None else hand  # lost: it was too long to follow
        if before is None or len(path) < self.fast:
            return plain
        last = path[-self.fast:]
        level = sum(last) / len(last)
        step = level - before
        if abs(step) < self.min_step_g or abs(level) < self.zero_g:
            return plain
        sign = 1.0 if step > 0 else -1.0
        if step < 0:  # a hand only adds weight: a knock before a fall is over at its top
            values = list(path)
            top = max(range(len(values)), key=values.__getitem__)
            if path[top] > before:
                before, path = values[top], values[top + 1:]
                if len(path) < self.fast:
                    return plain
                step = level - before
        furthest = 0.0
        for v in path:
            gone = sign * (v - before)
            if gone < furthest - self.reversal_g:
                return hand  # it turned back: a hand's wander, a wobble
            furthest = max(furthest, gone)
        if furthest - abs(step) > self.reversal_g:
            return hand  # past the level and back
        reached = next((i for i, v in enumerate(path) if abs(v - level) <= band_g), len(path) - 1)
        if step > 0 and passage_spread(before, path[:reached + 1]) > self.spread_max:
            return hand  # a slow rise: a pressing hand (a fall may take its time)
        if not (self.min_path <= len(path) <= self.fast_max):
            return plain
        if len(path) > self.fast:
            short = sign * (level - path[-self.fast - 1])
            if short > self.tail_frac * abs(step) + band_g:
                return plain  # not yet the step's sharp end (or a bump's rounded top)
        return ((self.fast, self.fast_band_g or band_g),) + plain


def passage_spread(before: float, path: Sequence[float]) -> float:
    """The time variance (in samples squared) of the passage from ``before`` along ``path``:
    each sample's progress towards the path's end is its weight."""
    seq = [before, *path]
    sign = 1.0 if seq[-1] > before else -1.0
    weights = [max(0.0, sign * (b - a)) for a, b in zip(seq, seq[1:])]
    total = sum(weights)
    if total <= 0:
        return 0.0
    centre = sum(i * w for i, w in enumerate(weights)) / total
    return sum(w * (i - centre) ** 2 for i, w in enumerate(weights)) / total


__all__ = ["SettleRule", "passage_spread"]
