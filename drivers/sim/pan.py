"""The physical world under one load cell: masses set down and lifted, a pressing hand,
mechanical noise, creep and zero drift, as a force in grams over (virtual) time; with a
``CellProfile`` also the cell's warm-up, temperature drift, bent output and overload stop.

The assumptions (not measurements) are listed in ``PanPhysics``, ``cell_physics`` and
benchmarks/README.md.
"""

from __future__ import annotations

import math
import random
import threading
from dataclasses import dataclass

from .cell_physics import Cell, CellProfile
from .clock import VirtualClock

MAX_G = 1e6  # a tonne: far beyond any cell, still a number the physics can take


def _check(name: str, value: float, limit: float) -> None:
    """Bad input is refused with a clear message before it reaches the physics."""
    if not (isinstance(value, (int, float)) and math.isfinite(value) and abs(value) <= limit):
        raise ValueError(f"{name} must be a number within +-{limit:g}, not {value!r}")


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
    cell: CellProfile | None = None  # None: an ideal cell (no warm-up, drift, bow or stop)

    @classmethod
    def realistic(cls, **overrides: object) -> "PanPhysics":
        """A pan on a cell as published figures describe it: the ``CellProfile``
        defaults, and creep of 0.03 % of the load over 30 min (OIML R60's creep test; most of
        it in the first minutes: a 10 min time constant reaches 95 % of it by 30 min)."""
        base: dict[str, object] = dict(creep_fraction=3e-4 / (1.0 - math.exp(-3.0)),
                                       creep_tau_s=600.0, cell=CellProfile())
        return cls(**{**base, **overrides})  # type: ignore[arg-type]


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


class SimPan:
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
        self._power_on = clock.now()
        profile = self.physics.cell
        self.cell: Cell | None = None if profile is None else profile.draw(
            random.Random(seed * 7 + 3), self.physics.pan_mass_g)

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
        _check("grams", grams, MAX_G)
        _check("duration_s", duration_s, 3600.0)
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
            if self.cell is not None:
                measured = self.cell.output_g(measured, t - self._power_on)
            return clean, measured

    def power_on_at(self, t: float) -> None:
        """Say the box was switched on at ``t`` (default: when the pan was made), e.g. to
        begin a test or a benchmark with a box that has been warming for a while."""
        self._power_on = t

    def on_for_s(self, t: float) -> float:
        """Seconds since power-on at ``t``."""
        return t - self._power_on

    def zero_drift_g(self, t: float) -> float:
        """The truth about the cell's zero at ``t``: how far it has moved since power-on."""
        drift = self.physics.zero_drift_g_per_s * t
        if self.cell is not None:
            drift += self.cell.zero_drift_g(t - self._power_on)
        return drift

    # -- internals -----------------------------------------------------------------------------

    def _start_time(self, at: float | None) -> float:
        t = self.clock.now() if at is None else at
        if self._last_t is not None and t < self._last_t:
            t = self._last_t  # the chip has already measured up to here
        return t

    def _add_step(self, grams: float, at: float | None, ramp_s: float | None,
                  overshoot: float | None, drop: bool) -> float:
        _check("grams", grams, MAX_G)
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


__all__ = ["PanPhysics", "SimPan"]
