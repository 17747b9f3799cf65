"""What a real 1 kg bar cell adds between the force on its pan and its bridge output: warm-up
drift of the zero, temperature drift as the closed box warms, a bent (nonlinear) output and the
mechanical overload stop. (Creep under a load lives in ``SimPan``: it has the load's history.)

``CellProfile`` holds the ranges, ``CellProfile.draw`` one seeded cell (``Cell``) out of them.
The figures and where they come from (each is a typical published value
for HX711 boards and 1 kg bar cells, not a measurement of this box's cells):

- warm-up: "about 10 minutes before the zero settles" (HX711 board and bar-cell application
  notes): an exponential approach with a 3 min time constant (95 % after 9 min). Its size,
  0.1-0.4 g either way, is an assumption: no published figure was found.
- temperature: the HX711 and the Pi warm a closed box by 10-20 K, modelled as a first
  order rise with a 20 min time constant; the zero moves "about 0.05 % of capacity per 10 K"
  (the zero temperature coefficient of 1 kg bar-cell datasheets: 0.5 g per 10 K), drawn as
  50-100 % of that, either sign. The span moves too: bar-cell datasheets give the "temperature
  effect on span" (also "on output" or "on sensitivity") as 0.02-0.05 % of the load per 10 K
  (e.g. the TAL220 and YZC-131 sheets sold with HX711 boards: 0.05 % RO/10 K; better
  compensated cells 0.02 %), so 0.1-0.25 g at 500 g for 10 K; drawn from that range per cell,
  either sign, each cell on its own (its compensation resistor is trimmed alone). Zero tracking
  cannot see it: only a known mass, or the same pan weighing both things of a comparison, can.
- nonlinearity: bar-cell datasheets give 0.05 % of capacity (0.5 g) as the largest departure
  from the straight line between no load and capacity; modelled as a parabola (the bow of a
  bending beam), drawn as 50-100 % of that, either sign. So a line through 0 and 200 g is off by
  about a tenth of a gram at 400 g, and a fit through three masses is not.
- the stop: hardware/README.md sets an M3 screw 0.3 mm under the loaded end, so "the stop takes
  over at roughly 600-800 g"; beyond it the screw carries most of the force (the cell sees
  ``stop_ratio``, 2 %, of what is added: a steel screw in plywood is far stiffer than the beam).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..loadcell.chip import CAPACITY_G



@dataclass(frozen=True)
class Cell:
    """One drawn cell: every figure fixed. ``output_g`` is what the bridge reports, in grams of
    an ideal cell, for ``load_g`` on the pan ``t_on`` seconds after power-on."""

    pan_mass_g: float = 60.0
    capacity_g: float = CAPACITY_G
    nonlinearity_g: float = 0.0  # the bow's height at mid-capacity, signed
    stop_g: float | None = None  # load on the pan where the overload stop takes over
    stop_ratio: float = 0.02
    warmup_g: float = 0.0  # the zero's total shift during warm-up, signed
    warmup_tau_s: float = 180.0
    zero_g_per_k: float = 0.0  # signed
    span_per_k: float = 0.0  # fraction of the load per kelvin
    box_rise_k: float = 0.0
    box_tau_s: float = 1200.0

    def temperature_k(self, t_on: float) -> float:
        """How much warmer than at power-on the cell is."""
        if self.box_rise_k == 0.0 or t_on <= 0:
            return 0.0
        return self.box_rise_k * (1.0 - math.exp(-t_on / self.box_tau_s))

    def sensor_k(self, t_on: float, lag_s: float) -> float:
        """``temperature_k`` as a thermometer on the cell's bar reads it: a first-order lag of
        ``lag_s`` behind the bar (the exact response of such a lag to the box's rise)."""
        if self.box_rise_k == 0.0 or t_on <= 0:
            return 0.0
        tb = self.box_tau_s
        if lag_s <= 0:
            return self.temperature_k(t_on)
        if abs(tb - lag_s) < 1e-9:
            return self.box_rise_k * (1.0 - (1.0 + t_on / tb) * math.exp(-t_on / tb))
        late = (tb * math.exp(-t_on / tb) - lag_s * math.exp(-t_on / lag_s)) / (tb - lag_s)
        return self.box_rise_k * (1.0 - late)

    def zero_drift_g(self, t_on: float) -> float:
        """How far the zero has moved since power-on (warm-up plus temperature)."""
        warm = 0.0
        if self.warmup_g and t_on > 0:
            warm = self.warmup_g * (1.0 - math.exp(-t_on / self.warmup_tau_s))
        return warm + self.zero_g_per_k * self.temperature_k(t_on)

    def on_cell_g(self, load_g: float) -> float:
        """The force the beam carries: all of it below the stop, ``stop_ratio`` of the rest."""
        if self.stop_g is None or load_g <= self.stop_g:
            return load_g
        return self.stop_g + (load_g - self.stop_g) * self.stop_ratio

    def _bent(self, force_g: float) -> float:
        u = force_g / self.capacity_g
        return force_g + 4.0 * self.nonlinearity_g * u * (1.0 - u)

    def output_g(self, load_g: float, t_on: float) -> float:
        """The bridge's output in grams for ``load_g`` on the pan (the pan's own mass excluded)."""
        f = self.on_cell_g(load_g)
        if self.nonlinearity_g:
            f = self._bent(self.pan_mass_g + f) - self._bent(self.pan_mass_g)
        if self.span_per_k:
            f *= 1.0 + self.span_per_k * self.temperature_k(t_on)
        return f + self.zero_drift_g(t_on)


@dataclass(frozen=True)
class CellProfile:
    """Ranges a ``Cell`` is drawn from; the defaults are the published figures above."""

    capacity_g: float = CAPACITY_G
    nonlinearity_fs: float = 0.0005  # of capacity
    stop_g: tuple[float, float] | None = (600.0, 800.0)
    stop_ratio: float = 0.02
    warmup_g: tuple[float, float] = (0.1, 0.4)
    warmup_tau_s: float = 180.0
    zero_fs_per_10k: float = 0.0005  # of capacity per 10 K
    span_per_10k: tuple[float, float] = (0.0002, 0.0005)  # of the load per 10 K, signed
    box_rise_k: tuple[float, float] = (10.0, 20.0)
    box_tau_s: float = 1200.0

    def draw(self, rng: random.Random, pan_mass_g: float = 60.0) -> Cell:
        def signed(lo: float, hi: float) -> float:
            return rng.choice((-1.0, 1.0)) * rng.uniform(lo, hi)
        c = self.capacity_g
        return Cell(
            pan_mass_g=pan_mass_g, capacity_g=c,
            nonlinearity_g=signed(0.5, 1.0) * self.nonlinearity_fs * c,
            stop_g=None if self.stop_g is None else rng.uniform(*self.stop_g),
            stop_ratio=self.stop_ratio,
            warmup_g=signed(*self.warmup_g), warmup_tau_s=self.warmup_tau_s,
            zero_g_per_k=signed(0.5, 1.0) * self.zero_fs_per_10k * c / 10.0,
            span_per_k=signed(*self.span_per_10k) / 10.0,
            box_rise_k=rng.uniform(*self.box_rise_k), box_tau_s=self.box_tau_s)


__all__ = ["CAPACITY_G", "Cell", "CellProfile"]
