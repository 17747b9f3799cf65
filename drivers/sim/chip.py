"""A bit-level HX711 on a virtual clock, measuring a ``SimPan``, and ``make_cell`` (pan + chip).

Physics, from the HX711 datasheet and a 1 kg bar cell (1 mV/V) at 3.3 V excitation, gain 128:
about 2147 counts per gram; input-referred noise 50 nV rms at 10 SPS (0.015 g) and 90 nV at
80 SPS (0.027 g); the output is a sinc^4-like average over the last four conversion periods, so
a step settles after four conversions (400 ms at 10 SPS, 50 ms at 80 SPS, datasheet "output
settling time"). PD_SCK high for 60 us or longer powers the chip down; the falling edge resets it
(gain 128, channel A, filter empty).
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any
from dataclasses import dataclass

from ..loadcell.chip import COUNTS_PER_GRAM, FULL_SCALE, POWER_DOWN_S, SETTING_FOR, to_code
from .clock import VirtualClock
from .pan import PanPhysics, SimPan

NOISE_G = {10: 0.015, 80: 0.027}  # datasheet input-referred noise at gain 128 in grams
GAIN_NOISE = {128: 1.0, 64: 1.6, 32: 2.6}
SUBSTEPS = 8  # force samples per conversion period feeding the sinc^4 kernel


def _kernel(substeps: int = SUBSTEPS) -> list[float]:
    """Cubic B-spline weights over four conversion periods: four boxcars in a row (sinc^4)."""
    def b(u: float) -> float:
        if u < 1:
            return u ** 3 / 6
        if u < 2:
            return (-3 * u ** 3 + 12 * u ** 2 - 12 * u + 4) / 6
        if u < 3:
            return (3 * u ** 3 - 24 * u ** 2 + 60 * u - 44) / 6
        return (4 - u) ** 3 / 6
    w = [b((j + 0.5) / substeps) for j in range(4 * substeps)]
    total = sum(w)
    return [x / total for x in w]


_KERNEL = _kernel()


@dataclass(frozen=True)
class Conversion:
    """One conversion result the chip produced, for checks: the 24-bit code and the truth."""

    t: float
    code: int
    clean_g: float  # what a noise-free chip would have reported, in grams of load
    spiked: bool = False
    settling: bool = False


@dataclass
class ChipFaults:
    """Injected faults. ``disconnected`` is None, "high" (DOUT pulled up: never ready) or "low"
    (DOUT stuck low: reads all zeros); ``saturate`` is None, "high" or "low"."""

    disconnected: str | None = None
    saturate: str | None = None
    spike_prob: float = 0.0
    spike_counts: tuple[int, int] = (20_000, 2_000_000)


class SimHX711:
    """A bit-level HX711 on a virtual clock, measuring a ``SimPan``.

    Drive it through ``set_sck``/``dout`` (what the fakes do) or, for speed in benchmarks, take
    whole conversions with ``next_conversion``. Times come from ``clock``; all state changes are
    computed lazily up to the clock's now.
    """

    def __init__(self, pan: SimPan, clock: VirtualClock | None = None, *, rate: int = 10,
                 seed: int = 0, counts_per_gram: float | None = None,
                 offset_counts: int | None = None, rate_error: float | None = None,
                 history: int | None = 4096) -> None:
        if rate not in NOISE_G:
            raise ValueError("rate must be 10 or 80")
        self.pan = pan
        self.clock = clock or pan.clock
        self.rate = rate
        self._rng = random.Random(seed * 7919 + 13)
        rng = self._rng
        self.counts_per_gram = counts_per_gram if counts_per_gram is not None else (
            COUNTS_PER_GRAM * rng.uniform(0.9, 1.1))
        self.offset_counts = offset_counts if offset_counts is not None else rng.randint(
            -300_000, 300_000)
        err = rate_error if rate_error is not None else rng.uniform(-0.01, 0.01)
        self.period = 1.0 / (rate * (1.0 + err))
        self.faults = ChipFaults()
        self.history: deque[Conversion] = deque(maxlen=history)
        self.conversions = 0
        self._sck = False
        self._high_since = 0.0
        self._powered = True
        self._reset(self.clock.now() - rng.uniform(0, 4 * self.period) - 4 * self.period)

    # -- state ---------------------------------------------------------------------------------

    def _reset(self, t: float) -> None:
        """Power-on reset at ``t``: gain 128 on channel A, empty filter, no data."""
        self._powered = True
        self._epoch_t = t
        self._gain, self._channel = 128, "A"
        self._filter_t = t
        self._next_k = 1
        self._grid: deque[tuple[float, float, float]] = deque(maxlen=4 * SUBSTEPS)
        self._grid_i = 0
        self._data: Conversion | None = None  # completed, not yet read
        self._shifting: int | None = None  # the code being shifted out
        self._pulses = 0  # rising edges in the current read (1..24 data, 25..27 trailer)
        self._trailer_t = 0.0

    @property
    def gain(self) -> int:
        return self._gain

    @property
    def channel(self) -> str:
        return self._channel

    @property
    def powered(self) -> bool:
        self._update()
        return self._powered

    # -- faults --------------------------------------------------------------------------------

    def disconnect(self, mode: str = "high") -> None:
        """The chip stops answering: "high" = DOUT floats high, "low" = DOUT stuck low."""
        if mode not in ("high", "low"):
            raise ValueError("mode is 'high' or 'low'")
        self._update()
        self.faults.disconnected = mode
        self._powered = False

    def reconnect(self) -> None:
        """The chip answers again, fresh from power-on reset."""
        self.faults.disconnected = None
        self._reset(self.clock.now())

    # -- the two wires -------------------------------------------------------------------------

    def dout(self) -> int:
        """The DOUT level now: 0 while unread data waits, else the bit being shifted out."""
        self._update()
        return self._level()

    def _level(self) -> int:
        if self.faults.disconnected:
            return 1 if self.faults.disconnected == "high" else 0
        if not self._powered:
            return 1
        if self._shifting is not None:
            if 1 <= self._pulses <= 24:
                return (self._shifting >> (24 - self._pulses)) & 1
            return 1
        return 0 if self._data is not None else 1

    def set_sck(self, level: bool) -> None:
        """Drive PD_SCK. A rising edge shifts the next bit; high for >= 60 us powers down."""
        level = bool(level)
        self._update()
        if level != self._sck:
            self._edge(level, self.clock.now())

    def _edge(self, level: bool, now: float) -> None:
        self._sck = level
        if self.faults.disconnected:
            return
        if level:
            self._high_since = now
            if not self._powered:
                return
            if self._shifting is None and self._pulses == 0:
                if self._data is not None:  # first rising edge starts a read
                    self._shifting = self._data.code
                    self._data = None
                    self._pulses = 1
            elif self._shifting is not None:
                self._pulses += 1
                if self._pulses >= 25:
                    self._trailer_t = now
            elif 25 <= self._pulses:
                self._pulses += 1
                self._trailer_t = now
        else:
            if not self._powered:
                self._reset(now)  # falling edge after a power-down: wake up
            elif self._shifting is not None and self._pulses >= 25:
                self._shifting = None  # the read is over, trailer pulses may follow
        return

    def shift_byte(self, byte: int, half: float) -> int:
        """One byte on the wires, MSB first: each bit drives PD_SCK for two ``half`` bit times,
        DOUT sampled between them (SPI mode 0, what ``FakeSpiDev`` sends). The same as
        ``set_sck``, ``clock.advance(half)``, ``dout``, ``clock.advance(half)`` per bit, without
        the lazy update where it has nothing to do (no conversion due, PD_SCK not high long
        enough to power down): that update was most of a simulated box's time."""
        clock, rx = self.clock, 0
        if type(clock) is VirtualClock:
            with clock._lock:  # the byte takes its time at once, as the SPI controller does
                t0 = clock._now
                since = self._high_since if self._sck else t0
                end = t0 + 16.000001 * half
                if (self._powered and not self.faults.disconnected and end - since < POWER_DOWN_S
                        and end < self._epoch_t + self._next_k * self.period):
                    t = t0
                    for bit in range(7, -1, -1):
                        level = bool((byte >> bit) & 1)
                        if level != self._sck:
                            self._edge(level, t)
                        t += half  # the clock's own steps, so the times are the same floats
                        rx = (rx << 1) | self._level()
                        t += half
                    clock._now = t
                    return rx
        for bit in range(7, -1, -1):
            level = bool((byte >> bit) & 1)
            now = clock.now()
            if self._idle(now):
                if level != self._sck:
                    self._edge(level, now)
            else:
                self.set_sck(level)
            clock.advance(half)
            rx = (rx << 1) | (self._level() if self._idle(clock.now()) else self.dout())
            clock.advance(half)
        return rx

    def _idle(self, now: float) -> bool:
        """Whether ``_update`` at ``now`` would change nothing."""
        if self.faults.disconnected or not self._powered:
            return True
        if self._sck and now - self._high_since >= POWER_DOWN_S:
            return False
        return self._epoch_t + self._next_k * self.period > now

    # -- conversions ---------------------------------------------------------------------------

    def _update(self) -> None:
        now = self.clock.now()
        if self.faults.disconnected:
            return
        if self._powered and self._sck and now - self._high_since >= POWER_DOWN_S:
            self._convert_until(self._high_since + POWER_DOWN_S)
            self._powered = False
            self._shifting = None
            self._pulses = 0
            self._data = None
            return
        if self._powered:
            self._convert_until(now)

    def _convert_until(self, t: float) -> None:
        while True:
            tk = self._epoch_t + self._next_k * self.period
            if tk > t:
                return
            self._commit_trailer(tk)
            conv = self._convert(tk)
            self._next_k += 1
            self.conversions += 1
            self.history.append(conv)
            if self._shifting is None:
                self._data = conv  # a new result replaces an unread one; DOUT goes low
                self._pulses = 0
            # a result completing during a read is lost: the output register is busy

    def _commit_trailer(self, tk: float) -> None:
        """Trailer pulses (25..27) set gain and channel for the conversion after the read."""
        if self._shifting is None and self._pulses >= 25:
            setting = SETTING_FOR.get(min(self._pulses, 27), (128, "A"))
            if setting != (self._gain, self._channel):
                self._gain, self._channel = setting
                self._filter_t = self._trailer_t
            self._pulses = 0

    def _convert(self, tk: float) -> Conversion:
        need = self._next_k * SUBSTEPS
        step = self.period / SUBSTEPS
        while self._grid_i < need:
            ts = self._epoch_t + (self._grid_i + 0.5) * step
            self._grid.append((ts, *self.pan.force(ts)) if ts >= self._filter_t
                              else (ts, 0.0, 0.0))
            self._grid_i += 1
        grid = list(self._grid)
        kernel = _KERNEL[len(_KERNEL) - len(grid):]
        bridge_counts = self.pan.physics.pan_mass_g * self.counts_per_gram + self.offset_counts
        if self._channel == "B":
            bridge_counts = 0.0  # nothing wired to channel B
        clean_g = meas_g = weight = 0.0
        for w, (ts, c, m) in zip(kernel, grid):
            if ts >= self._filter_t:
                clean_g += w * c
                meas_g += w * m
                weight += w
        settling = weight < 0.999
        scale = self._gain / 128.0
        if self._channel == "B":
            signal = 0.0  # nothing wired to channel B
            clean_g = 0.0
        else:
            signal = meas_g * self.counts_per_gram
        noise = self._rng.gauss(0.0, NOISE_G[self.rate] * self.counts_per_gram
                                * GAIN_NOISE[self._gain])
        counts = (weight * bridge_counts + signal) * scale + noise
        spiked = False
        f = self.faults
        if f.spike_prob and self._rng.random() < f.spike_prob:
            counts += self._rng.choice((-1, 1)) * self._rng.randint(*f.spike_counts)
            spiked = True
        if f.saturate == "high":
            counts = FULL_SCALE
        elif f.saturate == "low":
            counts = -FULL_SCALE - 1
        return Conversion(t=tk, code=to_code(round(counts)), clean_g=clean_g, spiked=spiked,
                          settling=settling)

    # -- fast path -----------------------------------------------------------------------------

    @property
    def next_conversion_t(self) -> float:
        """When the next conversion completes (for stepping several chips in time order)."""
        return self._epoch_t + self._next_k * self.period

    def next_conversion(self) -> Conversion | None:
        """Advance the clock to the next conversion and take it whole (no wires): for
        benchmarks that need the physics and the numbers but not the bit timing."""
        if self.faults.disconnected:
            return None
        self.clock.advance_to(self.next_conversion_t)
        self._update()
        conv, self._data = self._data, None
        return conv


@dataclass
class SimCell:
    """A pan and the chip measuring it, on a shared clock."""

    pan: SimPan
    chip: SimHX711

    @property
    def clock(self) -> VirtualClock:
        return self.chip.clock


def make_cell(clock: VirtualClock, *, rate: int = 10, seed: int = 0,
              physics: PanPhysics | None = None, **chip_kw: Any) -> SimCell:
    """A seeded simulated load cell (random offset, sensitivity within 10 %, rate error 1 %)."""
    pan = SimPan(clock, physics, seed=seed * 2 + 1)
    return SimCell(pan=pan, chip=SimHX711(pan, clock, rate=rate, seed=seed, **chip_kw))


__all__ = ["ChipFaults", "Conversion", "NOISE_G", "SimCell", "SimHX711", "make_cell"]
