"""Judging two loads: which pan is heavier, given only once both have been stable together.

``Judge`` decides when two loads may be compared: both pans' settled values must have been
averaging together for ``judge_s`` (a settled value that restarts after a small change inside
the motion band starts that time afresh). What "the same" means is not decided here: the judge
is given the comparison (``Compare``; the device passes ``games.core.grams.compare_grams``, the
rule the engines use, so the Scale screen and a game never disagree on a tie). Pure: it takes the
sample times it is given and keeps no clock of its own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from .channel import ScaleChannel

TIE_BAND_G = 0.05  # closer than this counts as balanced
# Measured with benchmarks/weighing.py (8000 comparisons at 0.1 g per rate): from 0.5 s of joint
# stability on, >= 99.9 % of verdicts are right at both 10 and 80 SPS with margin (10 SPS: 1 wrong,
# 95 % bound 0.06 %; 80 SPS: none); waiting longer does not help (benchmarks/README.md).
JUDGE_S = 0.5


# (a_g, b_g, band_g) -> -1 (a lighter), 0 (within the band), 1 (a heavier)
Compare = Callable[[float, float, float], int]
RESULTS = ("lighter", "balanced", "heavier")  # by the comparison's -1, 0, 1


def result_of(sign: int) -> str:
    """A comparison's -1/0/1 as the judgement's word."""
    return RESULTS[sign + 1]


@dataclass(frozen=True)
class Judgement:
    """The verdict on two pans: ``result`` is the first pan against the second ("lighter",
    "heavier" or "balanced"), from the settled values ``first_g`` and ``second_g`` at ``t``;
    both had been stable together since ``since``."""

    first: str
    second: str
    result: str
    first_g: float
    second_g: float
    since: float
    t: float

    @property
    def verdict(self) -> str:
        """"balanced" or "<first>-lighter" / "<first>-heavier" (e.g. "left-lighter")."""
        return "balanced" if self.result == "balanced" else f"{self.first}-{self.result}"


class Judge:
    """Watches two pans' settled values and gives a ``Judgement`` only after both have been
    stable together for ``judge_s``; any motion on either pan takes it back."""

    def __init__(self, first: str, second: str, *, compare: Compare, judge_s: float = JUDGE_S,
                 tie_band_g: float = TIE_BAND_G) -> None:
        if first == second:
            raise ValueError("a judgement needs two different pans")
        if not (math.isfinite(judge_s) and judge_s >= 0):
            raise ValueError(f"judge_s must be 0 or more seconds, not {judge_s!r}")
        self.first, self.second = first, second
        self.judge_s, self.tie_band_g = judge_s, tie_band_g
        self.compare = compare
        self._settled: dict[str, tuple[float, float] | None] = {first: None, second: None}
        self.judgement: Judgement | None = None

    def observe(self, pan: str, t: float, settled_g: float | None,
                since: float | None) -> Judgement | None:
        """One pan's state at sample time ``t``: its settled value and since when it has been
        averaging (both None while it moves). Returns the judgement now in force, or None."""
        if pan not in self._settled:
            return self.judgement
        self._settled[pan] = None if settled_g is None or since is None else (since, settled_g)
        a, b = self._settled[self.first], self._settled[self.second]
        if a is None or b is None:
            self.judgement = None
            return None
        joint = max(a[0], b[0])
        if t - joint < self.judge_s - 1e-6:  # sample times are sums of periods: allow rounding
            self.judgement = None
            return None
        result = result_of(self.compare(a[1], b[1], self.tie_band_g))
        self.judgement = Judgement(self.first, self.second, result, a[1], b[1], joint, t)
        return self.judgement

    def observe_channel(self, channel: "ScaleChannel") -> Judgement | None:
        """``observe`` with what a pan's ``ScaleChannel`` shows after its latest sample."""
        if channel.t is None:
            return self.judgement
        return self.observe(channel.pan, channel.t, channel.settled_g, channel.settled_since)

    def forget(self, pan: str) -> None:
        """The pan's signal is gone (disconnected, recalibrated): no judgement until it settles."""
        if pan in self._settled:
            self._settled[pan] = None
            self.judgement = None


__all__ = ["Compare", "JUDGE_S", "RESULTS", "TIE_BAND_G", "Judge", "Judgement", "result_of"]
