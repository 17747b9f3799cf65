"""Pure rule engines, one module per game, on the shared core in ``core``.

A game is found, not listed: every module here whose ``INFO`` is a ``GameInfo`` is registered
under its name in ``GAMES`` (``refresh`` looks again, e.g. after a test adds a folder to this
package's ``__path__``). Import this package as ``spielleiter.games``: from the repository root a
bare ``import games`` would make a second copy whose errors no handler of the box catches.
"""

from __future__ import annotations

import importlib
import pkgutil

if __name__ != "spielleiter.games":  # pragma: no cover - the trap itself
    raise ImportError(f"import spielleiter.games, not {__name__!r} (install the project: "
                      "bash scripts/dev.sh test)")

from .core import (  # noqa: E402
    Chance,
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

GAMES: dict[str, GameInfo] = {}


def refresh() -> dict[str, GameInfo]:
    """Find every engine module in this package (all of ``__path__``) and register its INFO."""
    found: dict[str, GameInfo] = {}
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module.name == "core" or module.name.startswith("_"):
            continue
        info = getattr(importlib.import_module(f"{__name__}.{module.name}"), "INFO", None)
        if isinstance(info, GameInfo):
            found[info.name] = info
    GAMES.clear()
    GAMES.update(found)
    return GAMES


refresh()

__all__ = ["GAMES", "Chance", "Event", "GameError", "GameInfo", "IllegalAction", "Measurement",
           "SetupError", "State", "complete", "ranking", "refresh"]
