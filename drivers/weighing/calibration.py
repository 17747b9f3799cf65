"""Calibration of one pan (counts to grams), and the one procedure that finds it.

``Calibrator`` is the procedure the Scale screen, ``spielleiter calibrate`` and the simulated
scale all follow: the empty pan held still, then a known mass held still, each for ``hold_s``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from ..loadcell import LoadCellError
from ..loadcell.chip import COUNTS_PER_GRAM

if TYPE_CHECKING:
    from .channel import ScaleChannel

CALIBRATION_MASS_G = 200.0  # the reference mass offered first
CALIBRATION_HOLD_S = 5.0  # how long the empty and the loaded pan must be still to be captured
MIN_SPAN_COUNTS = 1000.0  # a reference mass moves an HX711 on a load cell far more


class CalibrationError(LoadCellError, ValueError):
    """Calibration points that cannot define a scale, or a stored calibration that is broken."""


@dataclass(frozen=True)
class Calibration:
    """grams = (counts - offset) / counts_per_gram. ``offset`` is the zero (tare) in counts;
    ``points`` are the (grams, counts) pairs the scale was fitted to, kept for the record."""

    offset: float = 0.0
    counts_per_gram: float = COUNTS_PER_GRAM
    points: tuple[tuple[float, float], ...] = ()

    def __post_init__(self) -> None:
        if not (math.isfinite(self.counts_per_gram) and self.counts_per_gram):
            raise CalibrationError("counts_per_gram must be a non-zero number")
        if not math.isfinite(self.offset):
            raise CalibrationError("offset must be a number")

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

    def to_json(self) -> dict[str, Any]:
        return {"version": 1, "offset": self.offset, "counts_per_gram": self.counts_per_gram,
                "points": [[g, c] for g, c in self.points]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Calibration":
        if not isinstance(data, Mapping):
            raise CalibrationError(f"broken calibration: not a table ({type(data).__name__})")
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


@dataclass
class Calibrator:
    """Zero and span of one pan, step by step: "empty" (the empty pan held still for ``hold_s``),
    then "mass" (``mass_g`` on it, held still for ``hold_s``), then "done" with ``result``.

    Feed it the pan's channel whenever it has a new sample (``capture``); it takes the channel's
    settled counts once they have been averaged for ``hold_s`` and, for the mass, once the
    reading has clearly left the zero (a mass not yet set down is never taken for the span).
    """

    pan: str
    mass_g: float = CALIBRATION_MASS_G
    hold_s: float = CALIBRATION_HOLD_S
    zero_counts: float | None = None
    result: Calibration | None = None

    @property
    def step(self) -> str:
        if self.zero_counts is None:
            return "empty"
        return "mass" if self.result is None else "done"

    def capture(self, channel: "ScaleChannel") -> bool:
        """Take the pan's settled counts for the current step; False while the pan moves, has
        not been still for ``hold_s``, or the reference mass is not on it yet. Raises
        ``CalibrationError`` when the two captures define no scale."""
        counts, since = channel.settled_counts, channel.settled_since
        if counts is None or since is None or channel.t is None or self.result is not None:
            return False
        if channel.t - since < self.hold_s - 1e-6:
            return False
        if self.zero_counts is None:
            self.zero_counts = counts
            return True
        if abs(counts - self.zero_counts) < MIN_SPAN_COUNTS:
            return False
        self.result = Calibration.from_known_mass(self.zero_counts, counts, self.mass_g)
        return True


__all__ = ["CALIBRATION_HOLD_S", "CALIBRATION_MASS_G", "MIN_SPAN_COUNTS", "Calibration",
           "CalibrationError", "Calibrator"]
