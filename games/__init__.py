"""Pure rule engines, one module per game, on the shared core in ``core``."""

from __future__ import annotations

from . import bunte_runde, tatort_tonne
from .core import Event, GameError, GameInfo, IllegalAction, SetupError, State

GAMES: dict[str, GameInfo] = {info.name: info for info in (tatort_tonne.INFO, bunte_runde.INFO)}

__all__ = ["GAMES", "Event", "GameError", "GameInfo", "IllegalAction", "SetupError", "State"]
