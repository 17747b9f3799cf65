"""The box's pin map, as the box runs with it: the one place this package imports the device's
config and pinout, so a move of those modules changes one import here and nothing else."""

from __future__ import annotations

from pathlib import Path

from spielleiter.device.config import core as _config
from spielleiter.device.config.cells import SPI_PINS
from spielleiter.device.config.core import RESERVED, Config, ConfigError
from spielleiter.device.config.pinout import PHYSICAL, assignments
from spielleiter.device.config.wiring import GROUND, KINDS, POWER, SEAT_COLOURS

from . import BoxmakerError

__all__ = ["Config", "GROUND", "KINDS", "PHYSICAL", "POWER", "RESERVED", "SEAT_COLOURS",
           "SPI_PINS", "assignments", "load"]


def load(path: Path | None = None) -> Config:
    """The shipped config, or a site file over it; a broken one is a clear message."""
    try:
        return _config.load(path)
    except ConfigError as exc:
        raise BoxmakerError("\n".join(exc.problems)) from None
