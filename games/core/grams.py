"""The one rule for "the same weight": two decimal grams compared against a tie band.

Grams are decimals to the table (a scale shows 13.15 g, a band is 0.05 g), but binary floats
make 13.15 - 13.10 a hair more than 0.05. ``compare_grams`` decides on the difference rounded to
``PLACES`` decimals (a microgram: far below any kitchen scale, far above float error for masses
a pan can hold), so a difference of exactly the band is within it, whoever asks: the engines
(games import this core) and the device's judge (given this rule by device/, as drivers know no
game).
"""

from __future__ import annotations

import math

PLACES = 6  # grams are compared to a microgram


def compare_grams(a_g: float, b_g: float, band_g: float) -> int:
    """``a_g`` against ``b_g``: 0 when they differ by at most ``band_g`` (as decimals), else 1
    when ``a_g`` is heavier and -1 when lighter. ValueError for a band that is no number >= 0
    or grams that are no finite numbers."""
    if not (math.isfinite(band_g) and band_g >= 0):
        raise ValueError(f"a tie band is 0 or more grams, not {band_g!r}")
    if not (math.isfinite(a_g) and math.isfinite(b_g)):
        raise ValueError(f"grams must be finite numbers, not {a_g!r} and {b_g!r}")
    diff = round(a_g - b_g, PLACES)
    if abs(diff) <= round(band_g, PLACES):
        return 0
    return 1 if diff > 0 else -1


def same_grams(a_g: float, b_g: float, band_g: float) -> bool:
    """Within the band of each other (``compare_grams`` gives 0)."""
    return compare_grams(a_g, b_g, band_g) == 0


__all__ = ["PLACES", "compare_grams", "same_grams"]
