"""``make_reader``: a reader of the kind the config names. A reader on a simulated chip is the
simulator's (``drivers.sim.sim_reader``): the real readers know no twin."""

from __future__ import annotations

from typing import Any, Callable

from .events import LoadCellError, ReaderEvent
from .gpio import GpioReader
from .reader import LoadCellReader
from .serial import SerialReader
from .spi import SpiReader


def make_reader(kind: str, pan: str, *, on_event: Callable[[ReaderEvent], Any],
                **settings: Any) -> LoadCellReader:
    """A reader of ``kind`` ("gpio", "spi" or "serial") for ``pan``; settings are the reader's
    keyword arguments (pins, bus, port, rate, ...)."""
    if kind == "gpio":
        return GpioReader(pan, on_event, **settings)
    if kind == "spi":
        return SpiReader(pan, on_event, **settings)
    if kind == "serial":
        return SerialReader(pan, on_event, **settings)
    raise LoadCellError(f"unknown load cell reader {kind!r}")


__all__ = ["make_reader"]
