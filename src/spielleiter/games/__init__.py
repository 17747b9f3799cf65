"""Pure rule engines, one module per game, on the shared core in ``core``."""

from __future__ import annotations

from . import tatort_tonne
from .core import Event, GameError, GameInfo, IllegalAction, SetupError, State

GAMES: dict[str, GameInfo] = {info.name: info for info in (tatort_tonne.INFO,)}

__all__ = ["GAMES", "Event", "GameError", "GameInfo", "IllegalAction", "SetupError", "State"]
