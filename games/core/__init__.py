"""The shared core of every rule engine: the state protocol, events and errors (``state``) and
what a game declares besides its rules (``info``), and the one rule for "the same weight"
(``grams``). Engines import only this package."""

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
    GameError,
    IllegalAction,
    SetupError,
    State,
    check_players,
    field_of,
    fill,
    ranking,
    require,
)

__all__ = ["Action", "Chance", "Event", "GameError", "GameInfo", "IllegalAction", "Measurement",
           "Need", "Option", "SetupError", "State", "check_options", "check_players", "compare_grams",
           "complete", "field_of", "fill", "need", "ranking", "require", "same_grams"]
