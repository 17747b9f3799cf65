"""The App's own screens: the home menu, the game menu, the standings, ending a game."""

from __future__ import annotations

from typing import Any, Sequence

from ..i18n import _
from ..screens import CHARS, View
from .base import ModeInfo

GAME_MENU = ("continue", "standings", "undo", "end")
STANDINGS_ROOM = 4  # lines under the title and the footer; more players scroll with NEXT


def game_menu_labels() -> tuple[str, ...]:
    return (_("Continue"), _("Standings"), _("Undo last action"), _("End this game"))


def home_view(modes: Sequence[ModeInfo], cursor: int, from_memory: bool = False) -> View:
    """The home menu; ``from_memory`` when the journal cannot be written: the box referees on,
    but a power cut would lose the game, and the title says so."""
    title = _("Not saving!") if from_memory else "Spielleiter"
    return View(title, tuple(_(m.title) for m in modes), cursor=cursor,
                footer=_("NEXT move  OK choose"))


def game_menu_view(cursor: int) -> View:
    return View(_("Game menu"), game_menu_labels(), cursor=cursor,
                footer=_("NEXT move  OK choose"))


def confirm_end_view() -> View:
    return View(_("End this game?"), (_("It is kept, and can"), _("be looked at later.")),
                footer=_("OK end  BACK keep"))


def standings_view(state: Any, at: int = 0) -> View:
    """Every player's place and score, best first (the engine ranks: ties share a place); more
    than fit scroll, ``at`` being the line at the cursor."""
    lines = []
    for rank, name, score in state.standings():
        shown = "" if score is None else f"{score:g}" if isinstance(score, float) else str(score)
        head = f"{rank}. {name}"[: CHARS - len(shown) - 1]
        lines.append(head.ljust(CHARS - len(shown)) + shown)
    if len(lines) > STANDINGS_ROOM:
        return View(_("Standings"), tuple(lines), cursor=at % len(lines),
                    footer=_("NEXT more  OK back"))
    return View(_("Standings"), tuple(lines), footer=_("OK back"))
