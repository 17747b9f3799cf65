"""What benchmarks/drift.py and its Trudel mixes (drift_trudel.py) share: the pans, the band,
one trial's record, the verdict by the engines' rule and the figures' statistics."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from spielleiter.drivers.weighing import result_of
from spielleiter.games.core import compare_grams

PANS = ("left", "right")
BAND_G = 0.05


@dataclass
class Trial:
    kind: str  # "weigh", "compare", "heavy"
    t0: float
    loads: dict[str, float]
    got: dict[str, dict[str, float | str | None]] = field(default_factory=dict)


def upper_bound(wrong: int, n: int) -> float:
    """The exact one-sided 95 % upper bound of the wrong share (Clopper-Pearson), in %."""
    if n == 0:
        return 100.0
    if wrong >= n:
        return 100.0

    def tail(p: float) -> float:  # P(X <= wrong) for X ~ Binomial(n, p), in log space
        lp, lq = math.log(p), math.log1p(-p)
        return sum(math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                            + k * lp + (n - k) * lq) for k in range(wrong + 1))
    lo, hi = wrong / n, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if mid > 0 and tail(mid) > 0.05 else (lo, mid)
    return 100.0 * hi


def p95(values: list[float]) -> float:
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, math.ceil(0.95 * len(v)) - 1)]


def verdict_of(a: float, b: float) -> str:
    return result_of(compare_grams(a, b, BAND_G))
