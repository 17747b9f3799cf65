"""The home menu's "Past games": every ended game, replayed step by step (``ui.past``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...i18n import N_
from ..base import ModeInfo

if TYPE_CHECKING:
    from ...ui.screen import Shell
    from .listing import PastGamesMode


def open_past(app: "Shell") -> "PastGamesMode":
    from .listing import PastGamesMode  # the screens import the registry: import them late

    return PastGamesMode(app)


MODE = ModeInfo("past", N_("Past games"), open=open_past, order=70)

__all__ = ["MODE", "open_past"]
