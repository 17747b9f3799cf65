"""The device's pans: readers from the config, channels fed on the loop thread, calibration kept.

Readers (real or simulated) only enqueue samples; ``Scales.on_sample`` runs on the loop thread,
feeds the pan's ``ScaleChannel`` and tells listeners about placed/removed/stable events. Each pan's
calibration lives in the journal, so a box calibrated once stays calibrated across power cuts.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable

from ..drivers.loadcell import LoadCellError, LoadCellSample, LoadCellStatus, make_reader
from ..drivers.weighing import Calibration, CalibrationError, ScaleChannel, WeighEvent, compare
from .config import Config
from .journal import Journal

log = logging.getLogger(__name__)

CALIBRATION_MASSES_G = (50, 100, 200, 500, 1000)


@dataclass(frozen=True)
class PanReading:
    """What a screen needs of one pan."""

    pan: str
    grams: float | None
    stable: bool
    connected: bool
    calibrated: bool

    def text(self) -> str:
        if not self.connected:
            return "no signal"
        if self.grams is None:
            return "..."
        grams = round(self.grams, 2) + 0.0  # never "-0.00"
        return f"{grams:8.2f} g{' *' if self.stable else '  '}"


@dataclass
class Pan:
    name: str
    channel: ScaleChannel
    reader: Any = None
    connected: bool = False
    calibrated: bool = False
    status: str = "starting"


@dataclass
class Scales:
    """Both pans (or one, or none when the config has no load cells)."""

    journal: Journal
    tie_band_g: float = 0.05
    pans: dict[str, Pan] = field(default_factory=dict)
    listeners: list[Callable[[WeighEvent], None]] = field(default_factory=list)
    sim: Any = None
    _shown: dict[str, str] = field(default_factory=dict)

    @classmethod
    def build(cls, config: Config, journal: Journal, post: Callable[[Any], None], *,
              simulated: bool = False, seed: int = 0) -> "Scales":
        """Readers for every configured pan; ``simulated`` puts them on simulated HX711s."""
        scales = cls(journal, config.tie_band_g)
        cells = config.loadcells
        if simulated and cells:
            from ..drivers.scale_sim import SimScale

            rate = cells[0].rate
            scales.sim = SimScale([c.pan for c in cells], seed=seed, rate=rate, on_event=post)
        for cell in cells:
            saved = journal.calibration(cell.pan)
            calibration = None
            if saved is not None:
                try:
                    calibration = Calibration.from_json(saved)
                except (CalibrationError, KeyError, TypeError, ValueError) as exc:
                    log.error("calibration of the %s pan is unusable: %s", cell.pan, exc)
            if calibration is None and scales.sim is not None:
                calibration = scales.sim.true_calibration(cell.pan)  # a factory-calibrated sim
            pan = Pan(cell.pan, ScaleChannel(cell.pan, calibration, rate=cell.rate),
                      calibrated=calibration is not None)
            if scales.sim is not None:
                pan.reader = scales.sim.readers[cell.pan]
            else:
                try:
                    pan.reader = make_reader(cell.reader, cell.pan, on_event=post,
                                             rate=cell.rate, **cell.settings)
                except (LoadCellError, ValueError, TypeError) as exc:
                    pan.status = f"reader: {exc}"
                    log.error("%s pan: %s", cell.pan, exc)
            scales.pans[cell.pan] = pan
        return scales

    def start(self) -> None:
        if self.sim is not None:
            self.sim.start()
            return
        for pan in self.pans.values():
            if pan.reader is not None:
                try:
                    pan.reader.start()
                except Exception as exc:  # a missing chip or bus must not stop the box
                    pan.status = f"cannot start: {exc}"
                    log.error("%s pan: %s", pan.name, exc)

    def close(self) -> None:
        if self.sim is not None:
            self.sim.close()
        else:
            for pan in self.pans.values():
                if pan.reader is not None:
                    pan.reader.close()

    # -- on the loop thread ----------------------------------------------------------------------
    def on_sample(self, sample: LoadCellSample) -> bool:
        """Feed one sample; True when what a screen shows of this pan changed."""
        pan = self.pans.get(sample.pan)
        if pan is None:
            return False
        pan.connected = True
        events = pan.channel.feed(sample.t, sample.counts)
        for event in events:
            for listener in list(self.listeners):
                listener(event)
        shown = self.reading(pan.name).text()
        changed = bool(events) or shown != self._shown.get(pan.name)
        self._shown[pan.name] = shown
        return changed

    def on_status(self, status: LoadCellStatus) -> bool:
        pan = self.pans.get(status.pan)
        if pan is None:
            return False
        pan.status = status.state if not status.detail else f"{status.state}: {status.detail}"
        was = pan.connected
        pan.connected = status.state == "connected"
        if status.state == "disconnected":
            pan.channel.reset()
            log.warning("%s pan disconnected: %s", pan.name, status.detail)
        return was != pan.connected

    # -- queries and commands --------------------------------------------------------------------
    def reading(self, name: str) -> PanReading:
        pan = self.pans[name]
        channel = pan.channel
        grams = channel.settled_g if channel.stable else channel.grams
        return PanReading(name, grams, channel.stable, pan.connected, pan.calibrated)

    def verdict(self) -> str | None:
        """"left-lighter", "left-heavier" or "balanced" once both pans are stable, else None."""
        if set(self.pans) != {"left", "right"}:
            return None
        left, right = self.reading("left"), self.reading("right")
        if not (left.stable and right.stable and left.connected and right.connected):
            return None
        result = compare(left.grams or 0.0, right.grams or 0.0, self.tie_band_g)
        return "balanced" if result == "balanced" else f"left-{result}"

    def tare(self) -> list[str]:
        """Zero every stable pan; the names of those that could not be zeroed (moving)."""
        refused = [name for name, pan in self.pans.items() if not pan.channel.tare()]
        for name, pan in self.pans.items():
            if name not in refused and pan.calibrated:  # an uncalibrated zero is not kept
                self.journal.save_calibration(name, pan.channel.calibration.to_json())
        return refused

    def set_calibration(self, name: str, calibration: Calibration) -> None:
        """Adopt and persist a new calibration for a pan (journal first)."""
        self.journal.save_calibration(name, calibration.to_json())
        pan = self.pans[name]
        pan.channel.set_calibration(calibration)
        pan.calibrated = True


@dataclass
class Calibrator:
    """Zero and span of one pan, step by step: empty pan, then a known mass, both held still."""

    pan: str
    mass_g: float = 200.0
    zero_counts: float | None = None
    result: Calibration | None = None

    @property
    def step(self) -> str:
        if self.zero_counts is None:
            return "empty"
        return "mass" if self.result is None else "done"

    MIN_SPAN_COUNTS = 1000.0  # a reference mass moves an HX711 on a load cell far more

    def capture(self, channel: ScaleChannel) -> bool:
        """Take the pan's settled counts for the current step; False while the pan moves, or
        while the reference mass is not on it yet (the reading has not left zero)."""
        counts = channel.settled_counts
        if counts is None:
            return False
        if self.zero_counts is None:
            self.zero_counts = counts
            return True
        if abs(counts - self.zero_counts) < self.MIN_SPAN_COUNTS:
            return False
        self.result = Calibration.from_known_mass(self.zero_counts, counts, self.mass_g)
        return True
