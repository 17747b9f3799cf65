"""Pure rule engines, one module per game, on the shared core in ``core``."""

from __future__ import annotations

from . import bunte_runde, currency_torraku, tante_trudels_troedel, tatort_tonne
from .core import (
    Event,
    GameError,
    GameInfo,
    IllegalAction,
    Measurement,
    SetupError,
    State,
    complete,
    ranking,
)

GAMES: dict[str, GameInfo] = {
    info.name: info
    for info in (tatort_tonne.INFO, bunte_runde.INFO, tante_trudels_troedel.INFO,
                 currency_torraku.INFO)
}

__all__ = ["GAMES", "Event", "GameError", "GameInfo", "IllegalAction", "Measurement",
           "SetupError", "State", "complete", "ranking"]
