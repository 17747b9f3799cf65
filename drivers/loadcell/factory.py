"""``make_reader``: a reader of the kind the config names, or one on a simulated chip."""

from __future__ import annotations

from typing import Any, Callable

from .events import LoadCellError, ReaderEvent
from .gpio import GpioReader
from .reader import LoadCellReader
from .serial import SerialReader
from .spi import SpiReader


def make_reader(kind: str, pan: str, *, on_event: Callable[[ReaderEvent], Any],
                **settings: Any) -> LoadCellReader:
    """A reader of ``kind`` ("gpio", "spi", "serial" or "sim") for ``pan``.

    Settings are the reader's keyword arguments (pins, bus, port, rate, ...). "sim" builds a
    simulated cell (``cell=`` to pass one; ``seed``, ``rate``, ``clock``) read over
    ``transport="spi"`` (default) or ``"gpio"`` (needs ``gpio=FakeGpio`` installed with
    ``sim.fake_gpio``); the reader's ``cell`` attribute holds pan and chip.
    """
    if kind == "gpio":
        return GpioReader(pan, on_event, **settings)
    if kind == "spi":
        return SpiReader(pan, on_event, **settings)
    if kind == "serial":
        return SerialReader(pan, on_event, **settings)
    if kind == "sim":
        return _make_sim(pan, on_event, **settings)
    raise LoadCellError(f"unknown load cell reader {kind!r}")


def _make_sim(pan: str, on_event: Callable[[ReaderEvent], Any], *, cell: Any = None,
              clock: Any = None, rate: int = 10, seed: int = 0, transport: str = "spi",
              gpio: Any = None, dout_pin: int = 5, sck_pin: int = 6,
              **kw: Any) -> LoadCellReader:
    from .. import sim  # noqa: PLC0415 - the twin is not needed on the box

    if cell is None:
        cell = sim.make_cell(clock or sim.VirtualClock(), rate=rate, seed=seed)
    clock = cell.clock
    reader: LoadCellReader
    if transport == "spi":
        reader = SpiReader(pan, on_event, rate=rate, clock=clock,
                           spi_factory=lambda: sim.FakeSpiDev(cell.chip), **kw)
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


__all__ = ["make_reader"]
