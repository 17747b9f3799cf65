"""The simulated twin of an HX711 load cell: virtual clock, physical pan, bit-level chip, fakes.

Everything here runs on a ``VirtualClock`` so tests and benchmarks go faster than real time and
are deterministic for a seed. The chip is simulated at the level of its two wires (PD_SCK in,
DOUT out), so the real ``hx711`` package code can drive it through ``FakeGpio`` (a stand-in for
``RPi.GPIO``) and our SPI reader through ``FakeSpiDev`` (a stand-in for ``spidev.SpiDev``).

Physics, from the HX711 datasheet and a 1 kg bar cell (1 mV/V) at 3.3 V excitation, gain 128:
about 2147 counts per gram; input-referred noise 50 nV rms at 10 SPS (0.015 g) and 90 nV at
80 SPS (0.027 g); the output is a sinc^4-like average over the last four conversion periods, so
a step settles after four conversions (400 ms at 10 SPS, 50 ms at 80 SPS, datasheet "output
settling time"). PD_SCK high for 60 us or longer powers the chip down; the falling edge resets it
(gain 128, channel A, filter empty).
"""

from __future__ import annotations

import contextlib
import math
import random
import sys
import threading
import time as _real_time
import types
from collections import deque
from dataclasses import dataclass
from typing import Callable, Iterator

FULL_SCALE = 1 << 23
RAIL_HIGH = 0x7FFFFF
RAIL_LOW = 0x800000
POWER_DOWN_S = 60e-6
COUNTS_PER_GRAM = 2147.5  # 1 mV/V cell, 3.3 V excitation, gain 128: 3.3 uV/g over 12.9 mV/2^23
NOISE_G = {10: 0.015, 80: 0.027}  # datasheet input-referred noise at gain 128 in grams
GAIN_NOISE = {128: 1.0, 64: 1.6, 32: 2.6}
SUBSTEPS = 8  # force samples per conversion period feeding the sinc^4 kernel
PULSES_FOR = {(128, "A"): 25, (32, "B"): 26, (64, "A"): 27}
SETTING_FOR = {25: (128, "A"), 26: (32, "B"), 27: (64, "A")}


class VirtualClock:
    """Simulated seconds. ``sleep`` advances time instead of waiting; time never goes back."""

    virtual = True

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)
        self._lock = threading.Lock()

    def now(self) -> float:
        return self._now

    def sleep(self, seconds: float) -> None:
        self.advance(seconds)

    def advance(self, seconds: float) -> None:
        if seconds > 0:
            with self._lock:
                self._now += seconds

    def advance_to(self, t: float) -> None:
        with self._lock:
            if t > self._now:
                self._now = t

    # Names of the ``time`` module, so the clock itself can stand in for it where needed.
    monotonic = perf_counter = time = now


# --------------------------------------------------------------------------------------------
# The physical world under one load cell
# --------------------------------------------------------------------------------------------


@dataclass
class PanPhysics:
    """Mechanical parameters of one pan; ranges are drawn per set-down from the pan's RNG.

    The wobble is the pan's structural mode (a mass on a spring): its frequency falls with the
    load (90 Hz empty: a bar cell deflecting 0.5 mm at 1 kg, 20 kN/m, under a 60 g pan; 30 Hz
    with 500 g on it), its damping and the overshoot of a gentle set-down are drawn from the
    ranges below. These are assumptions, not measurements; see benchmarks/README.md.
    """

    pan_mass_g: float = 60.0
    f_empty_hz: float = 90.0
    damping: tuple[float, float] = (0.05, 0.12)
    overshoot: tuple[float, float] = (0.005, 0.03)  # fraction of the mass set down
    overshoot_abs_g: tuple[float, float] = (0.02, 0.2)
    ramp_s: tuple[float, float] = (0.04, 0.12)  # a hand lowering the item onto the pan
    mech_noise_g: float = 0.004  # table vibration, air: low-pass noise (AR(1)) in grams rms
    mech_tau_s: float = 0.3
    creep_fraction: float = 2e-4  # of the load, reached with creep_tau_s (0.02 % is typical)
    creep_tau_s: float = 120.0
    zero_drift_g_per_s: float = 0.0


@dataclass
class _Step:
    mass_g: float  # negative for a removal
    t0: float
    ramp_s: float
    amp_g: float
    omega: float
    decay_s: float

    def force(self, t: float) -> float:
        dt = t - self.t0
        if dt <= 0:
            return 0.0
        if dt >= self.ramp_s:
            s = 1.0
        else:
            u = dt / self.ramp_s
            s = u * u * (3.0 - 2.0 * u)
        w = dt - self.ramp_s
        if w <= 0 or self.amp_g == 0.0:
            return self.mass_g * s
        return self.mass_g + self.amp_g * math.exp(-w / self.decay_s) * math.sin(self.omega * w)

    def done(self, t: float) -> bool:
        return t > self.t0 + self.ramp_s + 12 * self.decay_s


@dataclass
class _Press:
    force_g: float
    t0: float
    rise_s: float
    hold_s: float
    fall_s: float
    tremor_g: float
    tremor_hz: float
    phase: float
    drift: tuple[tuple[float, float, float], ...]  # (grams, Hz, phase): broadband 0.3-4 Hz

    def force(self, t: float) -> float:
        dt = t - self.t0
        end = self.rise_s + self.hold_s + self.fall_s
        if dt <= 0 or dt >= end:
            return 0.0
        if dt < self.rise_s:
            env = dt / self.rise_s
        elif dt > self.rise_s + self.hold_s:
            env = (end - dt) / self.fall_s
        else:
            env = 1.0
        wiggle = self.tremor_g * math.sin(2 * math.pi * self.tremor_hz * dt + self.phase)
        for amp, hz, ph in self.drift:
            wiggle += amp * math.sin(2 * math.pi * hz * dt + ph)
        return env * (self.force_g + wiggle)

    @property
    def end(self) -> float:
        return self.t0 + self.rise_s + self.hold_s + self.fall_s


class Pan:
    """The physical world under one load cell: masses set down and lifted, a pressing hand,
    mechanical noise, creep and zero drift, as a force in grams over (virtual) time.

    ``force`` must be asked at non-decreasing times (the noise and creep have memory).
    """

    def __init__(self, clock: VirtualClock, physics: PanPhysics | None = None,
                 seed: int = 0) -> None:
        self.clock = clock
        self.physics = physics or PanPhysics()
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._base_g = 0.0  # settled static load from steps whose transients are over
        self._steps: list[_Step] = []
        self._presses: list[_Press] = []
        self._last_t: float | None = None
        self._mech = 0.0
        self._creep = 0.0
        self._load_g = 0.0  # what is on the pan once every ramp is done
        self._quiet_at = clock.now()

    # -- what a test or the table does ---------------------------------------------------------

    def place(self, grams: float, *, at: float | None = None, ramp_s: float | None = None,
              overshoot: float | None = None, drop: bool = False) -> float:
        """Set ``grams`` down (gently, or ``drop`` it); returns the set-down time."""
        return self._add_step(grams, at, ramp_s, overshoot, drop)

    def remove(self, grams: float, *, at: float | None = None,
               ramp_s: float | None = None) -> float:
        """Lift ``grams`` off the pan; returns the time the lift starts."""
        return self._add_step(-grams, at, ramp_s, None, False)

    def press(self, grams: float, duration_s: float, *, at: float | None = None) -> float:
        """A hand pressing on the pan with about ``grams`` for ``duration_s`` (tremor, drift)."""
        rng = self._rng
        with self._lock:
            t0 = self._start_time(at)
            rise = min(0.25, duration_s / 3)
            # Physiological tremor (8-12 Hz, about 1-3 % of the force) and the slow, broadband
            # wandering of a held force (about 2 %, mostly below 4 Hz).
            drift_g = max(0.5, 0.02 * grams)
            drift = tuple((drift_g * rng.uniform(0.3, 0.7), rng.uniform(0.3, 4.0),
                           rng.uniform(0, 2 * math.pi)) for _ in range(4))
            press = _Press(force_g=grams, t0=t0, rise_s=rise, hold_s=max(0.0, duration_s - 2 * rise),
                           fall_s=rise, tremor_g=max(0.3, 0.02 * grams) * rng.uniform(0.5, 1.5),
                           tremor_hz=rng.uniform(8.0, 12.0), phase=rng.uniform(0, 2 * math.pi),
                           drift=drift)
            self._presses.append(press)
            self._quiet_at = max(self._quiet_at, press.end)
            return t0

    @property
    def load_g(self) -> float:
        """The mass on the pan once every movement has ended (the truth for a settled value)."""
        return self._load_g

    @property
    def quiet_at(self) -> float:
        """When the last ramp, press or (to 1 mg) wobble is over."""
        return self._quiet_at

    def busy_until(self, t: float) -> bool:
        """True while a hand is on the pan at ``t``."""
        return any(p.t0 <= t < p.end for p in self._presses)

    # -- what the chip asks --------------------------------------------------------------------

    def force(self, t: float) -> tuple[float, float]:
        """(clean, measured) force in grams at ``t``: clean has no mechanical noise, no creep."""
        p = self.physics
        with self._lock:
            dt = 0.0 if self._last_t is None else max(0.0, t - self._last_t)
            self._last_t = t if self._last_t is None else max(self._last_t, t)
            clean = self._base_g
            static = self._base_g
            keep = []
            for s in self._steps:
                clean += s.force(t)
                static += s.mass_g if t > s.t0 else 0.0
                if s.done(t):
                    self._base_g += s.mass_g
                else:
                    keep.append(s)
            if len(keep) != len(self._steps):
                self._steps = keep
            if self._presses:
                for pr in self._presses:
                    clean += pr.force(t)
                if t > self._presses[0].end:
                    self._presses = [pr for pr in self._presses if t <= pr.end]
            if dt > 0:
                if p.mech_noise_g > 0:
                    rho = math.exp(-dt / p.mech_tau_s)
                    self._mech = rho * self._mech + math.sqrt(1 - rho * rho) * self._rng.gauss(
                        0.0, p.mech_noise_g)
                if p.creep_fraction > 0:
                    self._creep += (p.creep_fraction * static - self._creep) * (
                        1 - math.exp(-dt / p.creep_tau_s))
            measured = clean + self._mech + self._creep + p.zero_drift_g_per_s * t
            return clean, measured

    # -- internals -----------------------------------------------------------------------------

    def _start_time(self, at: float | None) -> float:
        t = self.clock.now() if at is None else at
        if self._last_t is not None and t < self._last_t:
            t = self._last_t  # the chip has already measured up to here
        return t

    def _add_step(self, grams: float, at: float | None, ramp_s: float | None,
                  overshoot: float | None, drop: bool) -> float:
        p = self.physics
        rng = self._rng
        with self._lock:
            t0 = self._start_time(at)
            m = abs(grams)
            if ramp_s is None:
                ramp_s = 0.008 if drop else rng.uniform(*p.ramp_s)
            if overshoot is None:
                overshoot = rng.uniform(0.1, 0.3) if drop else rng.uniform(*p.overshoot)
            total = max(p.pan_mass_g, p.pan_mass_g + self._load_g + grams)
            freq = p.f_empty_hz / math.sqrt(total / p.pan_mass_g)
            zeta = rng.uniform(*p.damping)
            amp = overshoot * m + rng.uniform(*p.overshoot_abs_g)
            if grams < 0:
                amp *= -0.5  # lifting rebounds the pan less than setting down
            decay = 1.0 / (zeta * 2 * math.pi * freq)
            step = _Step(mass_g=grams, t0=t0, ramp_s=ramp_s, amp_g=amp,
                         omega=2 * math.pi * freq, decay_s=decay)
            self._steps.append(step)
            self._load_g += grams
            wobble_end = t0 + ramp_s + decay * math.log(max(abs(amp), 1e-3) / 1e-3)
            self._quiet_at = max(self._quiet_at, wobble_end)
            return t0


# --------------------------------------------------------------------------------------------
# The chip
# --------------------------------------------------------------------------------------------


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


def to_code(counts: int) -> int:
    """Signed counts to the 24-bit two's complement code, clamped to the chip's rails."""
    counts = max(-FULL_SCALE, min(FULL_SCALE - 1, counts))
    return counts & 0xFFFFFF


def from_code(code: int) -> int:
    """24-bit two's complement code to signed counts."""
    return code - (1 << 24) if code & 0x800000 else code


class SimHX711:
    """A bit-level HX711 on a virtual clock, measuring a ``Pan``.

    Drive it through ``set_sck``/``dout`` (what the fakes do) or, for speed in benchmarks, take
    whole conversions with ``next_conversion``. Times come from ``clock``; all state changes are
    computed lazily up to the clock's now.
    """

    def __init__(self, pan: Pan, clock: VirtualClock | None = None, *, rate: int = 10,
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
        self._grid: deque[tuple[float, float]] = deque(maxlen=4 * SUBSTEPS)
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
        now = self.clock.now()
        if level == self._sck:
            return
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

    def next_conversion(self) -> Conversion | None:
        """Advance the clock to the next conversion and take it whole (no wires): for
        benchmarks that need the physics and the numbers but not the bit timing."""
        if self.faults.disconnected:
            return None
        tk = self._epoch_t + self._next_k * self.period
        self.clock.advance_to(tk)
        self._update()
        conv, self._data = self._data, None
        return conv


# --------------------------------------------------------------------------------------------
# One simulated load cell: pan + chip
# --------------------------------------------------------------------------------------------


@dataclass
class SimCell:
    """A pan and the chip measuring it, on a shared clock."""

    pan: Pan
    chip: SimHX711

    @property
    def clock(self) -> VirtualClock:
        return self.chip.clock


def make_cell(clock: VirtualClock, *, rate: int = 10, seed: int = 0,
              physics: PanPhysics | None = None, **chip_kw) -> SimCell:
    """A seeded simulated load cell (random offset, sensitivity within 10 %, rate error 1 %)."""
    pan = Pan(clock, physics, seed=seed * 2 + 1)
    return SimCell(pan=pan, chip=SimHX711(pan, clock, rate=rate, seed=seed, **chip_kw))


# --------------------------------------------------------------------------------------------
# Fake RPi.GPIO
# --------------------------------------------------------------------------------------------


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


class VirtualTime:
    """Stands in for the ``time`` module inside the ``hx711`` package: ``perf_counter`` and
    ``sleep`` read and advance the board's virtual clock, so its 60 us check sees virtual time."""

    def __init__(self, clock: VirtualClock) -> None:
        self.clock = clock

    def perf_counter(self) -> float:
        return self.clock.now()

    monotonic = time = perf_counter

    def sleep(self, seconds: float) -> None:
        self.clock.advance(seconds)

    def __getattr__(self, name: str):
        return getattr(_real_time, name)


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
    hx = sys.modules.get("hx711")
    imported_here = hx is None
    try:
        if hx is None:
            import hx711 as hx  # noqa: PLC0415  (needs the fake in place first)
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


# --------------------------------------------------------------------------------------------
# Fake spidev.SpiDev
# --------------------------------------------------------------------------------------------


class FakeSpiDev:
    """``spidev.SpiDev`` with PD_SCK on MOSI and DOUT on MISO of a simulated chip.

    Bits go out MSB first; each MOSI bit drives PD_SCK for one bit time (1/max_speed_hz); MISO
    is sampled in the middle of the bit, as in SPI mode 0. ``xfer`` and ``xfer2`` both send
    bytes back to back (``xfer`` leaves ``inter_byte_gap_s`` between bytes, MOSI holding its
    last bit); ``readbytes`` sends zeros, which samples DOUT without clocking the chip. Each
    transfer costs ``syscall_s`` before the first bit (the ioctl).
    """

    def __init__(self, chip: SimHX711, *, syscall_s: float = 30e-6,
                 inter_byte_gap_s: float = 2e-6) -> None:
        self.chip = chip
        self.clock = chip.clock
        self.max_speed_hz = 500_000
        self.mode = 0
        self.bits_per_word = 8
        self.lsbfirst = False
        self.cshigh = False
        self.no_cs = False
        self.syscall_s = syscall_s
        self.inter_byte_gap_s = inter_byte_gap_s
        self.opened: tuple[int, int] | None = None
        self.transfers = 0

    def open(self, bus: int, device: int) -> None:
        self.opened = (bus, device)

    def close(self) -> None:
        self.opened = None
        self.chip.set_sck(False)

    def _transfer(self, data: list[int], speed_hz: int, gap_s: float) -> list[int]:
        if self.opened is None:
            raise OSError(9, "Bad file descriptor")
        self.transfers += 1
        half = 0.5 / (speed_hz or self.max_speed_hz)
        self.clock.advance(self.syscall_s)
        out = []
        for i, byte in enumerate(data):
            if i and gap_s:
                self.clock.advance(gap_s)
            rx = 0
            for bit in range(7, -1, -1):
                self.chip.set_sck(bool((byte >> bit) & 1))
                self.clock.advance(half)
                rx = (rx << 1) | self.chip.dout()
                self.clock.advance(half)
            out.append(rx)
        self.chip.set_sck(False)  # MOSI idles low after a transfer
        return out

    def xfer(self, data: list[int], speed_hz: int = 0, delay_usec: int = 0,
             bits_per_word: int = 0) -> list[int]:
        return self._transfer(list(data), speed_hz, self.inter_byte_gap_s + delay_usec * 1e-6)

    def xfer2(self, data: list[int], speed_hz: int = 0, delay_usec: int = 0,
              bits_per_word: int = 0) -> list[int]:
        return self._transfer(list(data), speed_hz, 0.0)

    def readbytes(self, n: int) -> list[int]:
        return self._transfer([0] * n, 0, 0.0)

    def writebytes(self, data: list[int]) -> None:
        self._transfer(list(data), 0, 0.0)


# --------------------------------------------------------------------------------------------
# A microcontroller streaming counts over serial
# --------------------------------------------------------------------------------------------


class SimMicrocontroller:
    """A microcontroller that bit-bangs the chip (no preemption) and writes one line per
    conversion, ``D <seq> <hex6>``, in the format the serial reader documents."""

    def __init__(self, chip: SimHX711, write: Callable[[bytes], object], *,
                 pulses: int = 25) -> None:
        self.chip = chip
        self.write = write
        self.pulses = pulses
        self.seq = 0

    def run_until(self, t: float) -> None:
        clock = self.chip.clock
        while clock.now() < t:
            if self.chip.dout() == 0:
                code = 0
                for _ in range(24):
                    self.chip.set_sck(True)
                    clock.advance(1e-6)
                    code = (code << 1) | self.chip.dout()
                    self.chip.set_sck(False)
                    clock.advance(1e-6)
                for _ in range(self.pulses - 24):
                    self.chip.set_sck(True)
                    clock.advance(1e-6)
                    self.chip.set_sck(False)
                    clock.advance(1e-6)
                self.write(f"D {self.seq} {code:06X}\n".encode())
                self.seq = (self.seq + 1) % 65536
            else:
                clock.advance(min(0.0005, max(0.0, t - clock.now())) or 1e-6)


__all__ = [
    "ChipFaults", "Conversion", "FakeGpio", "FakeSpiDev", "Pan", "PanPhysics", "SimCell",
    "SimHX711", "SimMicrocontroller", "VirtualClock", "VirtualTime", "fake_gpio", "from_code",
    "make_cell", "to_code", "COUNTS_PER_GRAM", "NOISE_G",
]
