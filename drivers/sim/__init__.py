"""The simulated twin of the load cells, on virtual time: deterministic for a seed and faster
than real time, for tests, benchmarks and ``spielleiter sim``.

One job per module: ``clock`` (virtual time), ``pan`` (the physics under one cell: ``SimPan``),
``chip`` (a bit-level HX711 on its two wires, ``make_cell``), ``gpio`` (a fake ``RPi.GPIO`` the
real ``hx711`` package drives), ``spi`` (a fake ``spidev.SpiDev``), ``mcu`` (a microcontroller
streaming codes over serial), ``scale`` (named pans with readers, channels and the judge) and
``weigh`` (``weigh_sim`` behind ``spielleiter weigh --sim``).
"""

from .chip import NOISE_G, ChipFaults, Conversion, SimCell, SimHX711, make_cell
from .clock import VirtualClock, VirtualTime
from .gpio import FakeGpio, fake_gpio
from .mcu import SimMicrocontroller
from .pan import PanPhysics, SimPan
from .scale import SimScale
from .spi import FakeSpiDev
from .weigh import weigh_sim

__all__ = [
    "ChipFaults", "Conversion", "FakeGpio", "FakeSpiDev", "NOISE_G", "PanPhysics", "SimCell",
    "SimHX711", "SimMicrocontroller", "SimPan", "SimScale", "VirtualClock", "VirtualTime",
    "fake_gpio", "make_cell", "weigh_sim",
]
