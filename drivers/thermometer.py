"""The box's thermometer, read through the kernel's own drivers (sysfs): no Python library.

The load cells' span drifts with their temperature (drivers/weighing/tempco.py); one sensor
taped to a cell's bar tells the channels how warm the cells are. The box's choice is a TMP102
(or an LM75) on the OLED's I2C bus, because the pinout has no GPIO left: ``dtoverlay=i2c-sensor,
tmp102`` in config.txt makes the kernel's hwmon driver read it, as
``/sys/class/hwmon/hwmon*/temp1_input`` in millidegrees, next to a ``name`` file (the Pi's own
``cpu_thermal`` is there too and is never taken: the SoC is far warmer than the cells). A box
with a GPIO to spare may use a DS18B20 instead (``dtoverlay=w1-gpio``:
``/sys/bus/w1/devices/28-*/temperature``; older kernels only ``w1_slave``, ending in
``t=21562``), whose read blocks for its 750 ms conversion: reads run on a thread of their own.
"""

from __future__ import annotations

import glob
import logging
import os
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Protocol
from .exc import ThermometerError

log = logging.getLogger(__name__)

W1_DEVICES = "/sys/bus/w1/devices"
HWMON = "/sys/class/hwmon"
I2C_SENSORS = ("tmp102", "lm75", "tmp75", "tmp175", "tmp275", "jc42", "mcp980x")  # jc42, mcp980x:
#               the MCP9808, as the jc42 or the lm75 driver names it
READ_EVERY_S = 30.0  # a box warms by at most ~0.1 K in that time (10-20 K over 20 min or more)
RESOLUTION_K = 0.0625  # the DS18B20's 12-bit steps
POWER_ON_C = 85.0  # a DS18B20's reset value: read before a conversion finished, no temperature


def find_sensor(devices: str = W1_DEVICES, hwmon: str = HWMON) -> str | None:
    """The cells' sensor's sysfs folder: an I2C sensor hwmon knows, else the first DS18B20
    (family code 28) on the 1-Wire bus; None when there is neither."""
    for folder in sorted(glob.glob(os.path.join(hwmon, "hwmon*"))):
        try:
            with open(os.path.join(folder, "name"), encoding="ascii", errors="replace") as fh:
                name = fh.read().strip()
        except OSError:
            continue
        if name in I2C_SENSORS and os.path.exists(os.path.join(folder, "temp1_input")):
            return folder
    found = sorted(glob.glob(os.path.join(devices, "28-*")))
    return found[0] if found else None


def parse_c(text: str, name: str) -> float:
    """Degrees C from a ``temp1_input`` or ``temperature`` file (millidegrees) or a
    ``w1_slave`` file."""
    if name == "w1_slave":
        lines = text.strip().splitlines()
        if len(lines) < 2 or not lines[0].strip().endswith("YES") or "t=" not in lines[1]:
            raise ThermometerError("the thermometer's answer failed its check (CRC): a loose wire?")
        text = lines[1].rsplit("t=", 1)[1]
    try:
        celsius = int(text.strip()) / 1000.0
    except ValueError:
        raise ThermometerError(
            f"the thermometer said {text.strip()[:20]!r}, not a number") from None
    if celsius == POWER_ON_C or not -40.0 <= celsius <= 125.0:
        raise ThermometerError(f"the thermometer read {celsius:g} degrees C: not a reading")
    return celsius


class SysfsThermometer:
    """The sensor ``find_sensor`` found (or ``device``); ``read_c()`` may block for one
    conversion (a DS18B20's 750 ms)."""

    def __init__(self, device: str | None = None, devices: str = W1_DEVICES,
                 hwmon: str = HWMON) -> None:
        self.device = device or find_sensor(devices, hwmon)

    def read_c(self) -> float:
        if self.device is None:
            raise ThermometerError("no thermometer found (dtoverlay=i2c-sensor,tmp102 in "
                                   "config.txt?)")
        for name in ("temp1_input", "temperature", "w1_slave"):
            path = os.path.join(self.device, name)
            if os.path.exists(path):
                try:
                    with open(path, encoding="ascii", errors="replace") as fh:
                        return parse_c(fh.read(), name)
                except OSError as exc:
                    raise ThermometerError(f"the thermometer cannot be read: {exc}") from exc
        raise ThermometerError(f"the thermometer at {self.device} has gone (a loose wire?)")


class Thermometer(Protocol):
    def read_c(self) -> float: ...


@dataclass(frozen=True)
class Temperature:
    """One reading for the loop: ``celsius`` None when it failed, ``detail`` says why."""

    t: float
    celsius: float | None
    detail: str = ""


class ThermometerReader:
    """Reads ``thermometer`` every ``every_s`` on a thread of its own (a read blocks for a
    conversion) and posts each ``Temperature``; ``read_once`` does one read on the caller's
    thread (tests, and the first reading before the thread starts)."""

    def __init__(self, thermometer: Thermometer, post: Callable[[Any], None], *,
                 every_s: float = READ_EVERY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.thermometer, self.post, self.every_s, self.clock = thermometer, post, every_s, clock
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._failing = False
        self.last: Temperature | None = None

    def read_once(self) -> Temperature:
        try:
            reading = Temperature(self.clock(), self.thermometer.read_c())
            self._failing = False
        except (ThermometerError, OSError) as exc:
            if not self._failing:
                log.warning("thermometer: %s (the span is not compensated meanwhile)", exc)
            self._failing = True
            reading = Temperature(self.clock(), None, str(exc))
        self.last = reading
        self.post(reading)
        return reading

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="thermometer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.read_once()
            self._stop.wait(self.every_s)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)  # a read in hand finishes within its conversion
            self._thread = None


__all__ = ["POWER_ON_C", "READ_EVERY_S", "RESOLUTION_K", "SysfsThermometer", "Temperature",
           "Thermometer", "ThermometerError", "ThermometerReader", "find_sensor", "parse_c"]
