"""Whether a calibration can be a load cell's: a saved row that parses but is absurd (a negative
scale, 1e-300 or 1e300 counts per gram, a zero outside the chip's range) is refused at load, as a
damaged row is, and a capture that would give one is refused too."""

from __future__ import annotations

from ..drivers.weighing import Calibration

# A gram moves an HX711 on a load cell by at least a count (``from_points`` refuses less) and by
# far less than its whole 24-bit range; its zero lies within that range. Outside: no calibration.
MIN_COUNTS_PER_GRAM = 1.0
MAX_COUNTS_PER_GRAM = float(2 ** 23) / 10  # 10 g would span the whole range
MAX_OFFSET_COUNTS = float(2 ** 24)


def implausible(calibration: Calibration) -> str | None:
    """Why ``calibration`` cannot be a load cell's (None: it can): a falling reading, a scale
    too fine or too coarse for an HX711, a zero outside its range."""
    k = calibration.counts_per_gram
    if k < 0:
        return (f"{k:g} counts per gram: the reading falls under a load "
                "(the cell's signal wires A+ and A- are swapped?)")
    if not MIN_COUNTS_PER_GRAM <= k <= MAX_COUNTS_PER_GRAM:
        return (f"{k:g} counts per gram is no load cell's (expected "
                f"{MIN_COUNTS_PER_GRAM:g} to {MAX_COUNTS_PER_GRAM:g})")
    if abs(calibration.offset) > MAX_OFFSET_COUNTS:
        return f"a zero of {calibration.offset:g} counts is outside the HX711's range"
    return None


__all__ = ["MAX_COUNTS_PER_GRAM", "MAX_OFFSET_COUNTS", "MIN_COUNTS_PER_GRAM", "implausible"]
