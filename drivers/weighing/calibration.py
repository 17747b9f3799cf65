"""Calibration of one pan (counts to grams), and the one procedure that finds it.

``Calibrator`` is the procedure the Scale screen, ``spielleiter calibrate`` and the simulated
scale all follow: the empty pan held still, then a known mass held still, each for ``hold_s``,
then, if the person wants it, one or two more known masses: three points fit the cell's bow.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from ..loadcell.chip import COUNTS_PER_GRAM
from . import tempco
from ..exc import CalibrationError

if TYPE_CHECKING:
    from .channel import ScaleChannel

CALIBRATION_MASS_G = 200.0  # the reference mass offered first
CALIBRATION_HOLD_S = 5.0  # how long the empty and the loaded pan must be still to be captured
MIN_SPAN_COUNTS = 1000.0  # a reference mass moves an HX711 on a load cell far more
MAX_MASSES = 3  # known masses one calibration takes (three fit the bow and check each other)
MAX_LOAD_G = 550.0  # the most a pan weighs: below the overload stop (range.RangeSettings)
MAX_MASS_G = 500.0  # the heaviest known mass: 50 g under that, so a cell not calibrated yet
#                     (its bow, its old span) never reads it beyond the range, where no
#                     reading is ever still (550 g was accepted, then "never held still")
MAX_BEND = 0.01  # a fitted bow bigger than 1 % at the heaviest mass (20x a healthy cell's
#                  0.05 %) means a wrong mass or a pan touching, not a cell


class BrokenCalibration(CalibrationError):
    """A calibration's fields, or a stored one, that cannot be a calibration: for the log (the
    screen says only that the pan is uncalibrated), so its messages are not translated."""


@dataclass(frozen=True)
class Calibration:
    """counts = offset + counts_per_gram * (grams + bend * grams^2). ``offset`` is the zero
    (tare) in counts; ``bend`` (per gram, 0 for a straight line) is the cell's bow, fitted when
    three masses or more were weighed; ``points`` are the (grams, counts) pairs the scale was
    fitted to, kept for the record. ``temp_c`` is the cell's temperature while it was made
    (None without a thermometer); ``spans`` the (temperature, counts per gram) of this and the
    pan's earlier calibrations, and ``span_per_k`` the span's temperature coefficient learned
    from them (``tempco``; 0.0 until two lie far enough apart)."""

    offset: float = 0.0
    counts_per_gram: float = COUNTS_PER_GRAM
    points: tuple[tuple[float, float], ...] = ()
    bend: float = 0.0
    temp_c: float | None = None
    span_per_k: float = 0.0
    spans: tuple[tuple[float, float], ...] = ()

    def __post_init__(self) -> None:
        if not (math.isfinite(self.counts_per_gram) and self.counts_per_gram):
            raise BrokenCalibration("counts_per_gram must be a non-zero number")
        if not math.isfinite(self.offset):
            raise BrokenCalibration("offset must be a number")
        if not (math.isfinite(self.bend) and abs(self.bend) * MAX_LOAD_G <= MAX_BEND):
            raise BrokenCalibration("bend must be a number within +-{most:g}",
                                    most=MAX_BEND / MAX_LOAD_G)
        if self.temp_c is not None and not (math.isfinite(self.temp_c)
                                            and -40.0 <= self.temp_c <= 125.0):
            raise BrokenCalibration("temp_c must be a temperature (-40 to 125 degrees C)")
        if not (math.isfinite(self.span_per_k) and abs(self.span_per_k) <= tempco.MAX_SPAN_PER_K):
            raise BrokenCalibration("span_per_k must be within +-{most:g}",
                                    most=tempco.MAX_SPAN_PER_K)

    def grams(self, counts: float) -> float:
        y = (counts - self.offset) / self.counts_per_gram
        if not self.bend:
            return y
        disc = 1.0 + 4.0 * self.bend * y
        return y if disc <= 0 else 2.0 * y / (1.0 + math.sqrt(disc))  # the root near y

    def counts(self, grams: float) -> float:
        return self.offset + (grams + self.bend * grams * grams) * self.counts_per_gram

    def with_zero(self, zero_counts: float) -> "Calibration":
        """The same scale with a new zero (tare)."""
        return dataclasses.replace(self, offset=float(zero_counts))

    def factor(self, temp_c: float | None) -> float:
        """What a reading at ``temp_c`` is multiplied by to weigh as at ``temp_c`` of this
        calibration (1.0 when nothing was learned or a temperature is unknown)."""
        return tempco.factor(self.span_per_k, self.temp_c, temp_c)

    def span(self) -> float:
        """Counts per gram across ``tempco.SPAN_AT_G`` of load (the bow included): what two
        calibrations of a cell at different temperatures compare. Steadier than the fit's slope
        at zero, which three points leave less certain than the line through them."""
        return self.counts_per_gram * (1.0 + self.bend * tempco.SPAN_AT_G)

    def learns_at(self, temp_c: float | None) -> bool:
        """Whether calibrating again at ``temp_c`` would learn the span's temperature
        coefficient (``tempco.learns_at``)."""
        return tempco.learns_at(self.span_per_k, self.spans, temp_c)

    def made_at(self, temp_c: float | None) -> "Calibration":
        """This calibration as made at ``temp_c`` (a new one, its own span its only history)."""
        if temp_c is None:
            return dataclasses.replace(self, temp_c=None, span_per_k=0.0, spans=())
        return dataclasses.replace(self, temp_c=float(temp_c), span_per_k=0.0,
                                   spans=((float(temp_c), self.span()),))

    def learned_from(self, previous: "Calibration | None") -> "Calibration":
        """This new calibration of a pan, with what ``previous`` (the pan's calibration until
        now) knew of its span at other temperatures: the coefficient learned from both, or
        ``previous``'s own while they lie too close in temperature to learn a new one."""
        if self.temp_c is None or previous is None or not previous.spans:
            return self
        spans = list(previous.spans)
        if previous.points and self.points[:len(previous.points)] == previous.points:
            spans.pop()  # one more mass of the same calibration: it replaces its own entry
        per_k, kept = tempco.learn([*spans, (self.temp_c, self.span())])
        if not per_k and len(kept) > 1:
            per_k = previous.span_per_k
        return dataclasses.replace(self, span_per_k=per_k, spans=kept)

    @classmethod
    def from_points(cls, points: Iterable[tuple[float, float]]) -> "Calibration":
        """Least squares through (grams, counts) points: the empty pan (0 g) and known masses.
        Two different masses give the classic zero + span line; three or more also fit the
        cell's bow (a parabola, as a bending beam's output is), which a line through one mass
        extrapolates badly."""
        pts = tuple((float(g), float(c)) for g, c in points)
        masses = {g for g, _ in pts}
        if len(masses) < 2:
            raise CalibrationError("Two different masses needed: the empty pan and a weight.")
        if len(masses) == 2:
            c0, k, q = _line(pts)
        else:
            c0, k, q = _parabola(pts)
        if abs(k) < 1.0:
            raise CalibrationError("The mass hardly changed the reading: check the wires.")
        bend = q / k
        heaviest = max(abs(g) for g in masses)
        if abs(bend) * heaviest > MAX_BEND:
            raise CalibrationError("Masses do not fit one curve: right mass on? Pan free?")
        return cls(offset=c0, counts_per_gram=k, points=pts, bend=bend)

    @classmethod
    def from_known_mass(cls, zero_counts: float, loaded_counts: float,
                        mass_g: float) -> "Calibration":
        """Zero and span from the empty pan and one known mass."""
        if mass_g <= 0:
            raise CalibrationError("A known mass weighs more than 0 g.")
        return cls.from_points([(0.0, zero_counts), (mass_g, loaded_counts)])

    def to_json(self) -> dict[str, Any]:
        """Version 1 for a straight line (what every earlier box reads), 2 with a bow."""
        data: dict[str, Any] = {"version": 1, "offset": self.offset,
                                "counts_per_gram": self.counts_per_gram,
                                "points": [[g, c] for g, c in self.points]}
        if self.bend:
            data.update(version=2, bend=self.bend)
        if self.temp_c is not None:  # extra keys: a box without them reads the rest as before
            data.update(temp_c=self.temp_c, span_per_k=self.span_per_k,
                        spans=[[t, k] for t, k in self.spans])
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Calibration":
        """A stored calibration: version 2, or version 1 (a straight line, before ``bend``)."""
        if not isinstance(data, Mapping):
            raise BrokenCalibration("broken calibration: not a table ({kind})",
                                    kind=type(data).__name__)
        try:
            if data.get("version", 1) not in (1, 2):
                raise BrokenCalibration("unknown calibration version {version!r}",
                                        version=data.get("version"))
            return cls(offset=float(data["offset"]),
                       counts_per_gram=float(data["counts_per_gram"]),
                       points=tuple((float(g), float(c)) for g, c in data.get("points", ())),
                       bend=float(data.get("bend", 0.0)) if data.get("version", 1) == 2 else 0.0,
                       temp_c=None if data.get("temp_c") is None else float(data["temp_c"]),
                       span_per_k=float(data.get("span_per_k", 0.0)),
                       spans=tuple((float(t), float(k)) for t, k in data.get("spans", ())))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, CalibrationError):
                raise
            raise BrokenCalibration("broken calibration: {why}", why=str(exc)) from exc


def _line(pts: tuple[tuple[float, float], ...]) -> tuple[float, float, float]:
    n = len(pts)
    mg = sum(g for g, _ in pts) / n
    mc = sum(c for _, c in pts) / n
    sgg = sum((g - mg) ** 2 for g, _ in pts)
    k = sum((g - mg) * (c - mc) for g, c in pts) / sgg
    return mc - k * mg, k, 0.0


def _parabola(pts: tuple[tuple[float, float], ...]) -> tuple[float, float, float]:
    """counts = c0 + k g + q g^2 by least squares (normal equations, grams scaled to ~1)."""
    scale = max(abs(g) for g, _ in pts)
    rows = [(1.0, g / scale, (g / scale) ** 2, c) for g, c in pts]
    a = [[sum(r[i] * r[j] for r in rows) for j in range(3)] + [sum(r[i] * r[3] for r in rows)]
         for i in range(3)]
    for col in range(3):  # Gauss-Jordan with partial pivoting on a 3x4 matrix
        pivot = max(range(col, 3), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        if abs(a[col][col]) < 1e-12:
            raise CalibrationError("Three different masses needed for a curve.")
        for r in range(3):
            if r != col:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    c0, k, q = (a[i][3] / a[i][i] for i in range(3))
    return c0, k / scale, q / scale ** 2


@dataclass
class Calibrator:
    """Zero and span of one pan, step by step: "empty" (the empty pan held still for ``hold_s``),
    then "mass" (``mass_g`` on it, held still for ``hold_s``), then "done" with ``result``.
    ``another(mass_g)`` asks for one more known mass (up to ``MAX_MASSES``): "mass" again, and
    "done" with a ``result`` fitted through every mass (three points or more fit the bow).

    Feed it the pan's channel whenever it has a new sample (``capture``); it takes the channel's
    settled counts once they have been averaged for ``hold_s`` (less how far the empty pan,
    seen between the masses, has drifted since the empty step: keep feeding it after "done"
    too) and, for a mass, once the
    reading has clearly left every level captured before (a mass not yet set down, or the last
    one still lying there, is never taken for the new one).
    """

    pan: str
    mass_g: float = CALIBRATION_MASS_G
    hold_s: float = CALIBRATION_HOLD_S
    zero_counts: float | None = None
    result: Calibration | None = None
    points: list[tuple[float, float]] = field(default_factory=list)
    _more: bool = False
    _empty_now: float | None = None  # the empty pan's counts as last seen between masses

    @property
    def step(self) -> str:
        if self.zero_counts is None:
            return "empty"
        return "mass" if self.result is None or self._more else "done"

    @property
    def masses(self) -> list[float]:
        """The known masses captured so far."""
        return [g for g, _ in self.points if g != 0.0]

    def another(self, mass_g: float) -> None:
        """After "done": weigh one more known mass; CalibrationError if it cannot help."""
        if self.step != "done":
            raise CalibrationError("Finish this step first.")
        if not (math.isfinite(mass_g) and 0 < mass_g <= MAX_MASS_G):
            raise CalibrationError("A known mass is 1 to {most:g} g.", most=MAX_MASS_G)
        if len(self.masses) >= MAX_MASSES:
            raise CalibrationError("{count} masses are enough.", count=MAX_MASSES)
        if any(abs(mass_g - g) < 1.0 for g in self.masses):
            raise CalibrationError("{mass:g} g was weighed already: choose another.", mass=mass_g)
        self.mass_g, self._more = float(mass_g), True

    def capture(self, channel: "ScaleChannel") -> bool:
        """Take the pan's settled counts for the current step; False while the pan moves, has
        not been still for ``hold_s``, or the reference mass is not on it yet. Raises
        ``CalibrationError`` when the captures define no scale."""
        counts, since = channel.settled_counts, channel.settled_since
        if counts is None or since is None or channel.t is None:
            return False
        if self.zero_counts is not None:
            empty = self._empty_now if self._empty_now is not None else self.zero_counts
            if abs(counts - empty) < MIN_SPAN_COUNTS / 2:  # the empty pan between two masses:
                self._empty_now = counts  # follow its zero, which drifts while the cell warms
                return False
            counts -= empty - self.zero_counts
        if self.step == "done" or channel.t - since < self.hold_s - 1e-6:
            return False
        if self.zero_counts is None:
            self.zero_counts = counts
            self.points = [(0.0, counts)]
            return True
        if any(abs(counts - c) < MIN_SPAN_COUNTS for _, c in self.points):
            return False
        if self.mass_g <= 0:
            raise CalibrationError("A known mass weighs more than 0 g.")
        result = Calibration.from_points([*self.points, (self.mass_g, counts)]).made_at(
            channel.temperature_c)
        self.points.append((self.mass_g, counts))
        self.result, self._more = result, False
        return True


__all__ = ["CALIBRATION_HOLD_S", "CALIBRATION_MASS_G", "MAX_LOAD_G", "MAX_MASS_G", "MAX_MASSES",
           "MIN_SPAN_COUNTS", "BrokenCalibration", "Calibration",
           "CalibrationError", "Calibrator"]
