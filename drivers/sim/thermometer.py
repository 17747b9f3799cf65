"""The simulated twin of the box's thermometer: a TMP102 (or DS18B20) taped to a load cell's bar.

It reads the bar's warming (``Cell.sensor_k``: a first-order lag of ``lag_s``, 60 s for a
small sensor board under tape on aluminium, an assumption) on top of the room's temperature, off
by a fixed error within the datasheets' +-0.5 K, in the sensors' 1/16 K steps. Only the change matters to
the span's compensation, so the fixed error costs nothing; the lag and the steps are what is
left. ``fail`` makes it read like a loose wire (the driver's ``ThermometerError``).
"""

from __future__ import annotations

import random

from ..thermometer import RESOLUTION_K, ThermometerError
from .pan import SimPan

ROOM_C = 21.0


class SimThermometer:
    """Same interface as ``drivers.thermometer.SysfsThermometer``: ``read_c()``."""

    def __init__(self, pan: SimPan, *, room_c: float = ROOM_C, lag_s: float = 60.0,
                 seed: int = 0) -> None:
        self.pan, self.room_c, self.lag_s = pan, room_c, lag_s
        self.error_k = random.Random(seed * 13 + 7).uniform(-0.5, 0.5)
        self.failed = False

    def true_c(self) -> float:
        """The bar's own temperature now (what a perfect sensor without lag would say)."""
        cell, t = self.pan.cell, self.pan.clock.now()
        return self.room_c + (0.0 if cell is None else cell.temperature_k(self.pan.on_for_s(t)))

    def read_c(self) -> float:
        if self.failed:
            raise ThermometerError("no answer from the thermometer (is its wire loose?)")
        cell, t = self.pan.cell, self.pan.clock.now()
        rise = 0.0 if cell is None else cell.sensor_k(self.pan.on_for_s(t), self.lag_s)
        return round((self.room_c + rise + self.error_k) / RESOLUTION_K) * RESOLUTION_K


__all__ = ["ROOM_C", "SimThermometer"]
