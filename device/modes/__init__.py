"""Everything the home menu offers, in menu order: the games' referees and the tools.

Adding a game: an engine module in ``games/``, a mode folder here, and one line in ``MODES``.
"""

from __future__ import annotations

from . import (bunte_runde, currency_torraku, learning, scale, settings, tante_trudels_troedel,
               tatort_tonne)
from .base import Demo, ModeInfo

MODES: tuple[ModeInfo, ...] = (
    tatort_tonne.MODE,
    bunte_runde.MODE,
    tante_trudels_troedel.MODE,
    currency_torraku.MODE,
    learning.MODE,
    scale.MODE,
    settings.MODE,
)
REGISTRY: dict[str, ModeInfo] = {mode.name: mode for mode in MODES}
GAME_MODES: dict[str, ModeInfo] = {mode.game: mode for mode in MODES if mode.game}


def demos() -> dict[str, Demo]:
    """Every mode's demos by name (``spielleiter demo NAME``)."""
    return {name: demo for mode in MODES for name, demo in mode.demos.items()}


__all__ = ["GAME_MODES", "MODES", "REGISTRY", "Demo", "ModeInfo", "demos"]
