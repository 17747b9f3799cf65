"""One referee per game: what a press or a weight means in this game's current phase."""

from __future__ import annotations

from .base import Referee, SetupOption, Table
from .bunte_runde import BunteRundeReferee
from .tatort_tonne import TatortTonneReferee

REFEREES: dict[str, type] = {
    "tatort-tonne": TatortTonneReferee,
    "bunte-runde": BunteRundeReferee,
}

__all__ = ["REFEREES", "Referee", "SetupOption", "Table"]
