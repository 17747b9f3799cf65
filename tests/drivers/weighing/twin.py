"""A realistic simulated cell feeding one ``ScaleChannel`` directly (no reader thread)."""

from __future__ import annotations

from dataclasses import dataclass, field

from spielleiter.drivers import sim
from spielleiter.drivers.loadcell.chip import from_code
from spielleiter.drivers.weighing import Calibration, ScaleChannel, WeighEvent


@dataclass
class Rig:
    clock: sim.VirtualClock
    cell: sim.SimCell
    channel: ScaleChannel
    events: list[WeighEvent] = field(default_factory=list)

    @property
    def pan(self) -> sim.SimPan:
        return self.cell.pan

    def run(self, seconds: float, each=None) -> None:
        end = self.clock.now() + seconds
        chip = self.cell.chip
        while self.clock.now() < end:
            c = chip.next_conversion()
            self.events.extend(self.channel.feed(c.t, from_code(c.code)))
            if each is not None:
                each(self)


def true_calibration(cell: sim.SimCell) -> Calibration:
    chip = cell.chip
    return Calibration(offset=chip.offset_counts + chip.pan.physics.pan_mass_g
                       * chip.counts_per_gram, counts_per_gram=chip.counts_per_gram)


def rig(seed: int = 1, rate: int = 10, physics: sim.PanPhysics | None = None,
        calibration: Calibration | None = None, uncalibrated: bool = False,
        **settings) -> Rig:
    clock = sim.VirtualClock()
    cell = sim.make_cell(clock, rate=rate, seed=seed,
                         physics=physics or sim.PanPhysics.realistic())
    from spielleiter.drivers.weighing import ChannelSettings
    if not uncalibrated and calibration is None:
        calibration = true_calibration(cell)
    channel = ScaleChannel("left", calibration,
                           settings=ChannelSettings.for_rate(rate, **settings))
    return Rig(clock, cell, channel)
