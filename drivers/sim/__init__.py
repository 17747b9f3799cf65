"""The simulated twin of the load cells, on virtual time: deterministic for a seed and faster
than real time, for tests, benchmarks and ``spielleiter sim``.

One job per module: ``clock`` (virtual time), ``pan`` (the physics under one cell: ``SimPan``),
``chip`` (a bit-level HX711 on its two wires, ``make_cell``), ``gpio`` (a fake ``RPi.GPIO`` the
real ``hx711`` package drives), ``spi`` (a fake ``spidev.SpiDev``), ``thermometer`` (the sensor on a cell's bar),
``mcu`` (a microcontroller
streaming codes over serial) and ``scale`` (named pans with their readers on one clock: cells and
readers only; the device's ``Scales`` weighs what they deliver, see device/pans/simulated.py).
"""

from .chip import NOISE_G, ChipFaults, Conversion, SimCell, SimHX711, make_cell
from .clock import VirtualClock, VirtualTime
from .gpio import FakeGpio, fake_gpio
from .mcu import SimMicrocontroller
from .pan import PanPhysics, SimPan
from .reader import sim_reader
from .scale import SimScale
from .spi import FakeSpiDev
from .thermometer import SimThermometer

__all__ = [
    "ChipFaults", "Conversion", "FakeGpio", "FakeSpiDev", "NOISE_G", "PanPhysics", "SimCell",
    "SimHX711", "SimMicrocontroller", "SimPan", "SimScale", "SimThermometer", "VirtualClock", "VirtualTime",
    "fake_gpio", "make_cell", "sim_reader",
]
