"""The App's own screens and their keys: the home menu, the game menu, the standings, ending a
game."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ..i18n import _
from ..screens import PAGE_LINES, View, wrap
from . import base
from .base import ModeInfo
from . import MODES

GAME_MENU = ("continue", "standings", "undo", "pause", "end")


def game_menu_labels() -> tuple[str, ...]:
    return (_("Continue"), _("Standings"), _("Undo last action"), _("Pause: home menu"),
            _("End this game"))


def home_view(modes: Sequence[ModeInfo], cursor: int, from_memory: bool = False,
              paused: bool = False) -> View:
    """The home menu, led by "Continue the game" while a game waits (``paused``);
    ``from_memory`` when the journal cannot be written: the box referees on, but a power cut
    would lose the game, and the title says so."""
    title = _("Not saving!") if from_memory else "Spielleiter"
    lines = ((_("Continue the game"),) if paused else ()) + tuple(_(m.title) for m in modes)
    return View(title, lines, cursor=cursor, footer=_("NEXT move  OK choose"))


def game_menu_view(cursor: int) -> View:
    return View(_("Game menu"), game_menu_labels(), cursor=cursor,
                footer=_("NEXT move  OK choose"))


def confirm_end_view() -> View:
    return View(_("End this game?"), tuple(wrap(_("It cannot be continued afterwards."))),
                footer=_("OK end  BACK no"))


def standings_view(state: Any, at: int = 0,
                   score: Callable[[str, Any], str] | None = None) -> View:
    """The game menu's standings; ``score`` is the referee's way of showing a score."""
    kwargs = {"score": score} if score is not None else {}
    return base.standings_view(state.standings(), at, _("NEXT more  OK back"), _("OK back"),
                               **kwargs)


def home_key(app: Any, key: str) -> None:
    """The home menu: NEXT moves, OK opens an entry ("Continue the game" first while one waits)."""
    first = 1 if app.paused else 0
    if key == "next":
        app.cursor = (app.cursor + 1) % (len(MODES) + first)
    elif key == "ok" and first and app.cursor == 0:
        app.continue_game()
    elif key == "ok":
        app.open(MODES[app.cursor - first])


def menu_key(app: Any, key: str) -> None:
    """The game menu: continue, the standings, undo, end the game."""
    if key == "next":
        app.cursor = (app.cursor + 1) % len(GAME_MENU)
    choice = GAME_MENU[app.cursor] if key == "ok" else None
    if key == "back" or choice == "continue":
        app.mode = "game"
    elif choice == "standings":
        app.mode, app.standings_at = "standings", 0
    elif choice == "undo":
        app.mode = "game"
        app.undo()
    elif choice == "pause":
        app.pause_game()
    elif choice == "end":
        app.mode, app.cursor = "confirm_end", 0


def standings_key(app: Any, key: str) -> None:
    """NEXT scrolls a long list; any other key goes back to the game menu."""
    rows = len(app.session.state.standings()) if app.session is not None else 0
    if key == "next" and rows > PAGE_LINES:  # a long list scrolls
        app.standings_at += 1
        return
    app.mode = "menu"


def confirm_end_key(app: Any, key: str) -> None:
    """OK ends the game (kept in the journal), BACK returns to the game menu."""
    if key == "ok" and app.session is not None:
        if not app.session.state.is_over:
            app.session.abandon()
        app.close_game()
        app.flash(_("Game ended"))
    elif key == "back":
        app.mode = "menu"


VIEWS: dict[str, Callable[[Any], View]] = {
    "home": lambda app: home_view(MODES, app.cursor, app.journal.degraded is not None,
                                  app.paused),
    "menu": lambda app: game_menu_view(app.cursor),
    "standings": lambda app: standings_view(app.session.state, app.standings_at,
                                            app.referee.score_text),
    "confirm_end": lambda app: confirm_end_view()}
KEYS: dict[str, Callable[[Any, str], None]] = {
    "menu": menu_key, "standings": standings_key, "confirm_end": confirm_end_key}
