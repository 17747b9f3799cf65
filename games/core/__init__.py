"""The shared core of every rule engine: the state protocol and events (``state``), the errors
(``exc``), what a game declares besides its rules (``info``), and the one rule for "the same
weight" (``grams``). Engines import only this package."""

from .exc import GameError, IllegalAction, SetupError, fill
from .grams import compare_grams, same_grams
from .info import (
    Chance,
    GameInfo,
    Measurement,
    Need,
    Option,
    check_options,
    complete,
    need,
)
from .state import (
    Action,
    Event,
    State,
    check_players,
    field_of,
    ranking,
    require,
)

__all__ = ["Action", "Chance", "Event", "GameError", "GameInfo", "IllegalAction", "Measurement",
           "Need", "Option", "SetupError", "State", "check_options", "check_players", "compare_grams",
           "complete", "field_of", "fill", "need", "ranking", "require", "same_grams"]
