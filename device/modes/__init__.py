"""Everything the home menu offers, in menu order: the games' referees and the tools.

A mode is found, not listed: every module or folder here whose ``MODE`` is a ``ModeInfo`` is an
entry, placed by its ``order``. Adding a game is an engine module in ``games/`` and a mode folder
here; no shared file changes (``refresh`` looks again, e.g. after a test adds a folder to this
package's ``__path__``).
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import Demo, ModeInfo

MODES: list[ModeInfo] = []
REGISTRY: dict[str, ModeInfo] = {}
GAME_MODES: dict[str, ModeInfo] = {}


def refresh() -> list[ModeInfo]:
    """Find every mode in this package (all of ``__path__``); the registries change in place."""
    found: list[ModeInfo] = []
    for module in pkgutil.iter_modules(__path__):
        if module.name.startswith("_"):
            continue
        mode = getattr(importlib.import_module(f"{__name__}.{module.name}"), "MODE", None)
        if isinstance(mode, ModeInfo):
            found.append(mode)
    found.sort(key=lambda m: (m.order, m.name))
    MODES[:] = found
    REGISTRY.clear()
    REGISTRY.update((m.name, m) for m in found)
    GAME_MODES.clear()
    GAME_MODES.update((m.game, m) for m in found if m.game)
    return MODES


def demos() -> dict[str, Demo]:
    """Every mode's demos by name (``spielleiter demo NAME``)."""
    return {name: demo for mode in MODES for name, demo in mode.demos.items()}


refresh()

__all__ = ["GAME_MODES", "MODES", "REGISTRY", "Demo", "ModeInfo", "demos", "refresh"]
