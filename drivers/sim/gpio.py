"""A fake ``RPi.GPIO`` wired to simulated chips, so the real ``hx711`` package code drives them."""

from __future__ import annotations

import contextlib
import importlib
import random
import sys
import types
from collections import deque
from typing import Any, Iterator

from .chip import SimHX711
from .clock import VirtualClock, VirtualTime


class FakeGpio:
    """The board as ``RPi.GPIO`` sees it, wired to simulated chips, on one virtual clock.

    Every GPIO call costs ``call_cost_s`` of virtual time (RPi.GPIO on a Pi 4: about 1-2 us;
    use ``profile("rpi-lgpio-zero2w")`` for 60-125 us per call, the shim on a Zero 2 W).
    ``preempt`` makes the OS pause the calling thread now and then; ``stretch_next`` holds the
    clock high for a given time on the next rising edges (a preemption at the worst moment).
    """

    BCM = 11
    BOARD = 10
    OUT = 0
    IN = 1
    HIGH = 1
    LOW = 0
    PUD_OFF = 20
    PUD_DOWN = 21
    PUD_UP = 22

    def __init__(self, clock: VirtualClock, *, call_cost_s: float = 1.5e-6, seed: int = 0) -> None:
        self.clock = clock
        self.call_cost_s = call_cost_s
        self._call_cost_range: tuple[float, float] | None = None
        self._rng = random.Random(seed)
        self._dout: dict[int, SimHX711] = {}
        self._sck: dict[int, SimHX711] = {}
        self._mode: int | None = None
        self._setup: dict[int, int] = {}
        self._preempt = (0.0, 0.0, 0.0)
        self._stretches: deque[float] = deque()
        self.calls = 0
        self.preemptions = 0

    def attach(self, chip: SimHX711, *, dout: int, sck: int) -> None:
        self._dout[dout] = chip
        self._sck[sck] = chip

    def profile(self, name: str) -> None:
        """Call timing of a known stack: "rpi-gpio-pi4" or "rpi-lgpio-zero2w"."""
        if name == "rpi-gpio-pi4":
            self._call_cost_range = None
            self.call_cost_s = 1.5e-6
        elif name == "rpi-lgpio-zero2w":
            self._call_cost_range = (60e-6, 125e-6)
        else:
            raise ValueError(f"unknown profile {name!r}")

    def preempt(self, prob: float, min_s: float = 0.001, max_s: float = 0.02) -> None:
        """On each call, with probability ``prob``, the thread loses the CPU for a while."""
        self._preempt = (prob, min_s, max_s)

    def stretch_next(self, seconds: float, count: int = 1) -> None:
        """The next ``count`` rising edges on a clock pin stay high ``seconds`` longer."""
        self._stretches.extend([seconds] * count)

    def _cost(self) -> None:
        self.calls += 1
        if self._call_cost_range:
            self.clock.advance(self._rng.uniform(*self._call_cost_range))
        else:
            self.clock.advance(self.call_cost_s)
        prob, lo, hi = self._preempt
        if prob and self._rng.random() < prob:
            self.preemptions += 1
            self.clock.advance(self._rng.uniform(lo, hi))

    # -- the RPi.GPIO API the hx711 package uses -----------------------------------------------

    def setmode(self, mode: int) -> None:
        self._mode = mode

    def getmode(self) -> int | None:
        return self._mode

    def setwarnings(self, flag: bool) -> None:
        pass

    def setup(self, pin: int, direction: int, pull_up_down: int = PUD_OFF,
              initial: int | None = None) -> None:
        self._setup[pin] = direction
        if direction == self.OUT and initial is not None:
            self.output(pin, initial)

    def output(self, pin: int, value: int | bool) -> None:
        self._cost()
        chip = self._sck.get(pin)
        if chip is None:
            return
        if not value and self._stretches and chip._sck:
            self.clock.advance(self._stretches.popleft())
        chip.set_sck(bool(value))

    def input(self, pin: int) -> int:
        self._cost()
        chip = self._dout.get(pin)
        return 1 if chip is None else chip.dout()

    def cleanup(self, *pins: object) -> None:
        self._setup.clear()

    def module(self) -> types.ModuleType:
        """A module object named ``RPi.GPIO`` whose functions are this board's."""
        mod = types.ModuleType("RPi.GPIO")
        for name in ("BCM", "BOARD", "OUT", "IN", "HIGH", "LOW", "PUD_OFF", "PUD_DOWN", "PUD_UP"):
            setattr(mod, name, getattr(self, name))
        for name in ("setmode", "getmode", "setwarnings", "setup", "output", "input", "cleanup"):
            setattr(mod, name, getattr(self, name))
        mod.board = self  # type: ignore[attr-defined]
        return mod


@contextlib.contextmanager
def fake_gpio(board: FakeGpio) -> Iterator[types.ModuleType]:
    """Install ``board`` as ``RPi.GPIO`` and run the ``hx711`` package on its virtual clock.

    Inside the block ``import hx711`` works off-Pi and the package's own code drives the
    simulated chips. Everything is put back on exit. Yields the ``hx711`` module.
    """
    saved = {k: sys.modules.get(k) for k in ("RPi", "RPi.GPIO")}
    gpio_mod = board.module()
    rpi = types.ModuleType("RPi")
    rpi.GPIO = gpio_mod  # type: ignore[attr-defined]
    sys.modules["RPi"] = rpi
    sys.modules["RPi.GPIO"] = gpio_mod
    found = sys.modules.get("hx711")
    imported_here = found is None
    try:
        # imported only now: the fake RPi.GPIO must be in place first
        hx: Any = found if found is not None else importlib.import_module("hx711")
        saved_gpio, saved_time = hx.GPIO, hx.time
        hx.GPIO = gpio_mod
        hx.time = VirtualTime(board.clock)
        try:
            yield hx
        finally:
            hx.GPIO, hx.time = saved_gpio, saved_time
            if imported_here:
                sys.modules.pop("hx711", None)  # as before: not imported
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


__all__ = ["FakeGpio", "fake_gpio"]
