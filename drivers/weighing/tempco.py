"""The span's temperature coefficient of one cell, learned from its own calibrations.

Zero tracking follows a drifting zero, but a warming cell's *span* moves too (bar-cell sheets:
0.02-0.05 % of the load per 10 K), and only a known mass can see that. So every calibration made
with a thermometer records the temperature it was made at, and two calibrations of the same cell
at temperatures ``MIN_SPREAD_K`` or more apart give the coefficient: counts per gram against
temperature is a straight line, and its slope over its level at the newest calibration is the
fraction per kelvin. From
then on the channel divides each reading by ``1 + span_per_k * (T - T_cal)``: calibrate once
cold and once warm, and the box weighs warm as it does cold. Pure: no clock, no sensor.
"""

from __future__ import annotations

import math
from typing import Iterable

MIN_SPREAD_K = 5.0  # calibrations this far apart in temperature can see the span move
MAX_SPAN_PER_K = 2e-4  # 4x the worst bar-cell sheet: a bigger slope is another cell, not warmth
KEEP = 6  # calibrations remembered per pan (the oldest falls out)
SPAN_AT_G = 300.0  # the span compared: counts per gram from empty to this load


def learn(spans: Iterable[tuple[float, float]]) -> tuple[float, tuple[tuple[float, float], ...]]:
    """``(span_per_k, kept)`` from (temperature in degrees C, span in counts per gram) pairs, oldest
    first. ``span_per_k`` is 0.0 while the kept temperatures span less than ``MIN_SPREAD_K``.
    A slope beyond ``MAX_SPAN_PER_K`` means the pan changed (a new cell, another HX711): the
    history restarts from the newest calibration alone."""
    kept = tuple((float(t), float(k)) for t, k in spans
                 if math.isfinite(t) and math.isfinite(k) and k)[-KEEP:]
    temps = [t for t, _ in kept]
    if len(kept) < 2 or max(temps) - min(temps) < MIN_SPREAD_K:
        return 0.0, kept
    mt = sum(temps) / len(kept)
    mk = sum(k for _, k in kept) / len(kept)
    slope = (sum((t - mt) * (k - mk) for t, k in kept)
             / sum((t - mt) ** 2 for t in temps))
    per_k = slope / (mk + slope * (temps[-1] - mt))  # relative to the newest calibration's span
    if abs(per_k) > MAX_SPAN_PER_K:
        return 0.0, kept[-1:]
    return per_k, kept


def learns_at(span_per_k: float, spans: Iterable[tuple[float, float]],
              temp_c: float | None) -> bool:
    """Whether a calibration at ``temp_c`` would teach the pan its span's coefficient: none is
    learned yet, and ``temp_c`` lies ``MIN_SPREAD_K`` or more beyond the kept temperatures."""
    temps = [t for t, _ in spans]
    if span_per_k or temp_c is None or not temps:
        return False
    return max(*temps, temp_c) - min(*temps, temp_c) >= MIN_SPREAD_K


def factor(span_per_k: float, cal_temp_c: float | None, temp_c: float | None) -> float:
    """What a reading is multiplied by at ``temp_c`` to weigh as at the calibration's
    temperature; 1.0 when either temperature is unknown or nothing was learned."""
    if not span_per_k or cal_temp_c is None or temp_c is None:
        return 1.0
    return 1.0 / (1.0 + span_per_k * (temp_c - cal_temp_c))


__all__ = ["KEEP", "MAX_SPAN_PER_K", "MIN_SPREAD_K", "SPAN_AT_G", "factor", "learn", "learns_at"]
