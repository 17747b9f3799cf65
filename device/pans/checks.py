"""Whether a calibration can be a load cell's: a saved row that parses but is absurd (a negative
scale, 1e-300 or 1e300 counts per gram, a zero outside the chip's range) is refused at load, as a
damaged row is, and a capture that would give one is refused too."""

from __future__ import annotations

import logging

from ...drivers.weighing import Calibration, CalibrationError
from ..journal.file import Notice
from ..journal.store import Journal

log = logging.getLogger(__name__)

# A gram moves an HX711 on a load cell by at least a count (``from_points`` refuses less) and by
# far less than its whole 24-bit range; its zero lies within that range. Outside: no calibration.
MIN_COUNTS_PER_GRAM = 1.0
MAX_COUNTS_PER_GRAM = float(2 ** 23) / 10  # 10 g would span the whole range
MAX_OFFSET_COUNTS = float(2 ** 24)


def implausible(calibration: Calibration) -> CalibrationError | None:
    """Why ``calibration`` cannot be a load cell's (None: it can): a falling reading, a scale
    too fine or too coarse for an HX711, a zero outside its range."""
    k = calibration.counts_per_gram
    if k < 0:
        return CalibrationError("The reading falls under a load: A+ and A- swapped?")
    if not MIN_COUNTS_PER_GRAM <= k <= MAX_COUNTS_PER_GRAM:
        return CalibrationError("Not a load cell's signal ({counts:.3g}/g): check the wires.",
                                counts=k)
    if abs(calibration.offset) > MAX_OFFSET_COUNTS:
        return CalibrationError("A zero of {counts:.3g} counts is beyond the HX711's range.",
                                counts=calibration.offset)
    return None


def saved_calibration(journal: Journal | None, name: str) -> Calibration | None:
    """The pan ``name``'s saved calibration; None (uncalibrated, with a ``calibration`` notice,
    as for a damaged row) when it is broken or absurd, or there is no journal."""
    saved = journal.calibration(name) if journal is not None else None
    if journal is None or saved is None:
        return None
    problem: Exception | None
    try:
        calibration = Calibration.from_json(saved)
        problem = implausible(calibration)
    except (CalibrationError, AttributeError, KeyError, TypeError, ValueError) as exc:
        problem = exc
    if problem is None:
        return calibration
    reason = str(problem) or type(problem).__name__
    text = f"Calibration of the {name} pan unusable ({reason}): uncalibrated"
    if all(n.text != text for n in journal.notices):
        journal.notices.append(Notice("calibration", text, reason, pan=name))
    log.error("%s", text)
    return None


__all__ = ["MAX_COUNTS_PER_GRAM", "MAX_OFFSET_COUNTS", "MIN_COUNTS_PER_GRAM", "implausible",
           "saved_calibration"]
