"""``[loadcells]`` of the config: a pan per ``[loadcells.<name>]`` table with its reader (SPI,
GPIO, a serial microcontroller or none), checked apart from the rest because it is its own
hardware: which pins a reader takes, which speeds the HX711 and the Pi allow."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from ...drivers.weighing import JUDGE_S, TIE_BAND_G
from ..text import shown

# The pins an SPI controller takes once enabled (SCLK is driven even though the HX711 ignores it;
# the kernel claims the chip selects of ``dtparam=spi=on`` (CE0, CE1) and ``dtoverlay=spi1-1cs``).
SPI_PINS = {0: {"MISO": 9, "MOSI": 10, "SCLK": 11, "CE0": 8, "CE1": 7},
            1: {"MISO": 19, "MOSI": 20, "SCLK": 21, "CE0": 18}}
SPI_SPEED_HZ = range(20_000, 2_000_001)  # 50 us PD_SCK pulse .. the 60 us power-cycle at 2 MHz
BAUD_RATES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)
READER_KEYS = {"spi": {"bus", "device", "speed_hz"}, "gpio": {"dout_pin", "sck_pin"},
               "serial": {"port", "baud"}, "none": set()}
PAN_NAME = re.compile(r"[a-z][a-z0-9_]{0,9}\Z")  # short: it is shown on the OLED and typed
LOADCELL_SETTINGS = ("tie_band_g", "judge_s")  # the keys of [loadcells] that are not pans


@dataclass(frozen=True)
class LoadCell:
    """One pan's reader: ``reader`` is the kind for ``drivers.loadcell.make_reader``."""

    pan: str
    reader: str
    rate: int
    settings: dict[str, Any]


def number(value: Any, low: float, high: float) -> bool:
    """A finite int or float (not a bool) within ``low``..``high``."""
    # the range first: a huge int cannot become a float (isfinite would raise OverflowError)
    return (not isinstance(value, bool) and isinstance(value, (int, float))
            and low <= value <= high and math.isfinite(value))


def check_loadcells(c: Any, section: Any, owners: list[tuple[str, int]]
                    ) -> tuple[tuple[LoadCell, ...], float, float]:
    """Check ``[loadcells]`` and every ``[loadcells.<pan>]`` with the config's checker ``c`` (its
    ``pin`` and ``problems``); add the pins they take to ``owners``. Returns the pans with a reader, the tie band and ``judge_s``."""
    if not isinstance(section, dict):
        c.problems.append("loadcells: expected a table")
        return (), TIE_BAND_G, JUDGE_S
    band = section.get("tie_band_g", TIE_BAND_G)
    if not number(band, 0, 5):
        c.problems.append(f"loadcells.tie_band_g: {shown(band)} (use 0 to 5 grams)")
        band = TIE_BAND_G
    judge_s = section.get("judge_s", JUDGE_S)
    if not number(judge_s, 0, 10):
        c.problems.append(f"loadcells.judge_s: {shown(judge_s)} (use 0 to 10 seconds of joint "
                          f"stability before a verdict; default {JUDGE_S:g})")
        judge_s = JUDGE_S
    cells = []
    for pan, cell in section.items():
        if pan in LOADCELL_SETTINGS:
            continue
        where = f"loadcells.{pan}"
        if not isinstance(cell, dict):
            c.problems.append(f"{where}: expected a table [{where}] (a pan), or one of "
                              f"{', '.join(LOADCELL_SETTINGS)}")
            continue
        if not PAN_NAME.match(pan):
            c.problems.append(f"{where}: a pan's name is 1-10 lowercase letters, digits or _, "
                              "starting with a letter (e.g. left)")
            continue
        kind = cell.get("reader", "none")
        if not isinstance(kind, str) or kind not in READER_KEYS:
            c.problems.append(f"{where}.reader: {shown(kind)} (use spi, gpio, serial or none)")
            continue
        for key in cell:
            if key not in READER_KEYS[kind] | {"reader", "rate"}:
                c.problems.append(f"{where}.{key}: unknown key for reader {shown(kind)} (use "
                                  f"{', '.join(sorted(READER_KEYS[kind] | {'rate'}))})")
        rate = cell.get("rate", 10)
        if rate not in (10, 80) or isinstance(rate, bool):
            c.problems.append(f"{where}.rate: {shown(rate)} (10 or 80, as the HX711 RATE pin is wired)")
        settings = {k: v for k, v in cell.items() if k not in ("reader", "rate")}
        if kind == "spi":
            bus = settings.setdefault("bus", 0)
            device = settings.setdefault("device", 0)
            if not isinstance(device, int) or isinstance(device, bool) or device not in (0, 1, 2):
                c.problems.append(f"{where}.device: {shown(device)} (0: /dev/spidevB.0; the HX711 has "
                                  "no chip select)")
            speed = settings.get("speed_hz", 500_000)
            if isinstance(speed, bool) or not isinstance(speed, int) or speed not in SPI_SPEED_HZ:
                c.problems.append(f"{where}.speed_hz: {shown(speed)} (use 20000-2000000; default "
                                  "500000)")
            if not isinstance(bus, int) or isinstance(bus, bool) or bus not in SPI_PINS:
                c.problems.append(f"{where}.bus: {shown(bus)} (0 or 1: SPI0 or SPI1)")
            else:
                owners += [(f"{where} (SPI{bus} {name})", pin)
                           for name, pin in SPI_PINS[bus].items()]
        elif kind == "gpio":
            for key in ("dout_pin", "sck_pin"):
                pin = c.pin(f"{where}.{key}", settings.get(key))
                if pin is not None:
                    owners.append((f"{where}.{key}", pin))
        elif kind == "serial":
            port = settings.get("port")
            if not isinstance(port, str) or not port.strip() or any(ch.isspace() for ch in port):
                c.problems.append(f"{where}.port: {shown(port)} (the microcontroller's serial "
                                  "port: a path such as \"/dev/ttyACM0\", or a label such as "
                                  "\"cdc_acm\" or \"2e8a:000a\": docs/install.md)")
            baud = settings.pop("baud", 115200)
            if baud not in BAUD_RATES or isinstance(baud, bool):
                c.problems.append(f"{where}.baud: {shown(baud)} (use one of "
                                  f"{', '.join(map(str, BAUD_RATES))})")
            settings["baudrate"] = baud  # the reader's keyword
        if kind != "none":
            cells.append(LoadCell(pan, kind, rate, settings))
    return tuple(cells), float(band), float(judge_s)
