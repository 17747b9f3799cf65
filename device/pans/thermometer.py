"""Which thermometer the box's cells have: the twin on simulated pans, else the sensor the
kernel shows (``drivers.thermometer.find_sensor``), else none (the span is then not compensated;
everything else works the same).
The device and ``spielleiter calibrate`` both ask here, so a calibration records the temperature
it was made at wherever it is made."""

from __future__ import annotations

import time
from typing import Any, Callable

from ...drivers import thermometer as w1
from ...drivers.thermometer import ThermometerReader
from ...drivers.weighing import Calibration
from ...drivers.weighing.tempco import MIN_SPREAD_K
from ..i18n import _, decimal, language, signed
from .scales import Scales


def thermometer_for(scales: Scales, post: Callable[[Any], None],
                    clock: Callable[[], float] = time.monotonic) -> ThermometerReader | None:
    if not scales.pans:
        return None
    if scales.sim is not None:
        from ...drivers.sim import SimThermometer

        first = next(iter(scales.sim.cells.values()))
        return ThermometerReader(SimThermometer(first.pan), post, clock=clock)
    device = w1.find_sensor()
    if device is None:
        return None
    return ThermometerReader(w1.SysfsThermometer(device), post, clock=clock)


def warmth_note(cal: Calibration) -> str:
    """What a calibration knows about its cell's warmth, for the person who made it (in the
    current language)."""
    if cal.temp_c is None:
        return "  " + _("no thermometer: the span is not compensated as the box warms "
                        "(hardware/README.md: a thermometer on a cell)")
    # "21.0, 30.0" / "21,0; 30,0": a list of decimals never separated by the decimal mark
    temps = ("; " if language() == "de" else ", ").join(decimal(t, 1) for t, _k in cal.spans)
    spread = max(t for t, _k in cal.spans) - min(t for t, _k in cal.spans) if cal.spans else 0.0
    if cal.span_per_k or spread >= MIN_SPREAD_K:
        return "  " + _("at {temp} degrees C; its span moves {drift} % per 10 K, learned from "
                        "calibrations at {temps} degrees C").format(
            temp=decimal(cal.temp_c, 1), drift=signed(cal.span_per_k * 1e3, 3), temps=temps)
    return "  " + _("at {temp} degrees C; calibrate it again once the box is {spread} K warmer "
                    "or colder, and it learns how its span moves with warmth").format(
        temp=decimal(cal.temp_c, 1), spread=f"{MIN_SPREAD_K:g}")


__all__ = ["thermometer_for", "warmth_note"]
