"""The home menu's "Statistics": the family's games and learning, one number a page
(``ui.stats``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...i18n import N_
from ..base import ModeInfo

if TYPE_CHECKING:
    from ...ui.screen import Shell
    from .pages import StatsMode


def open_stats(app: "Shell") -> "StatsMode":
    from .pages import StatsMode  # the screens import the registry: import them late

    return StatsMode(app)


MODE = ModeInfo("statistics", N_("Statistics"), open=open_stats, order=72)

__all__ = ["MODE", "open_stats"]
