"""Load-cell readers: HX711 counts from SPI (recommended), GPIO bit-banging through the ``hx711``
package, a serial microcontroller, or the simulated twin, each on its own thread, checked for
integrity, never blocking the caller.

One job per module: ``chip`` (the HX711's codes, rails and counts per gram), ``events`` (what a
reader reports), ``integrity`` (which reads become samples), ``reader`` (thread, deadline,
``pump``), ``spi``, ``gpio``, ``serial`` (the transports) and ``factory`` (``make_reader``).
Hardware modules (``spidev``, ``hx711``/``RPi.GPIO``, ``serial``) are imported only when a reader
opens, so this package imports on any machine.
"""

from .chip import RAIL_HIGH, RAIL_LOW, RAIL_ONES, RAIL_ZERO, RAILS, RATES, from_code, to_code
from .events import (LoadCellError, LoadCellSample, LoadCellStatus, ReadAttempt, ReaderEvent,
                     ReaderStats)
from .factory import make_reader
from .gpio import GpioReader
from .integrity import RECOVER_AFTER, Integrity
from .reader import LoadCellReader, MonotonicClock, ReaderClock, pump
from .serial import SerialReader, parse_line
from .spi import SpiReader, decode_spi

__all__ = [
    "GpioReader", "Integrity", "LoadCellError", "LoadCellReader", "LoadCellSample",
    "LoadCellStatus", "MonotonicClock", "RAILS", "RAIL_HIGH", "RAIL_LOW", "RAIL_ONES",
    "RAIL_ZERO", "RATES", "RECOVER_AFTER", "ReadAttempt", "ReaderClock", "ReaderEvent",
    "ReaderStats", "SerialReader", "SpiReader", "decode_spi", "from_code", "make_reader",
    "parse_line", "pump", "to_code",
]
