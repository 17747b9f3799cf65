"""The real load-cell readers on simulated chips: how the twin sits behind the same SPI and
GPIO code the box runs, chosen by whoever composes the parts (tests, the sim, the CLI tools)."""

from __future__ import annotations

from typing import Any, Callable

from ..loadcell import GpioReader, LoadCellError, LoadCellReader, ReaderEvent, SpiReader
from .chip import make_cell
from .clock import VirtualClock
from .spi import FakeSpiDev


def sim_reader(pan: str, on_event: Callable[[ReaderEvent], Any], *, cell: Any = None,
              clock: Any = None, rate: int = 10, seed: int = 0, transport: str = "spi",
              gpio: Any = None, dout_pin: int = 5, sck_pin: int = 6,
              **kw: Any) -> LoadCellReader:
    """A real reader (SPI, or GPIO through the ``hx711`` package) on a simulated HX711:
    ``cell=`` to pass one, else one is made (``seed``, ``rate``, ``clock``); read over
    ``transport="spi"`` (default) or ``"gpio"`` (needs ``gpio=FakeGpio`` installed with
    ``fake_gpio``). The reader's ``cell`` attribute holds pan and chip."""
    if cell is None:
        cell = make_cell(clock or VirtualClock(), rate=rate, seed=seed)
    clock = cell.clock
    reader: LoadCellReader
    if transport == "spi":
        reader = SpiReader(pan, on_event, rate=rate, clock=clock,
                           spi_factory=lambda: FakeSpiDev(cell.chip), **kw)
    elif transport == "gpio":
        if gpio is None:
            raise LoadCellError("a simulated gpio reader needs gpio=FakeGpio (installed)")
        gpio.attach(cell.chip, dout=dout_pin, sck=sck_pin)
        reader = GpioReader(pan, on_event, rate=rate, clock=clock, dout_pin=dout_pin,
                            sck_pin=sck_pin, **kw)
    else:
        raise LoadCellError(f"unknown simulated transport {transport!r}")
    reader.cell = cell  # type: ignore[union-attr]
    return reader


__all__ = ["sim_reader"]
