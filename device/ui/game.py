"""A game on the host panel: the referee's screen, the game menu over it (continue, standings,
undo, pause, end), the standings, and the questions before undo and end."""

from __future__ import annotations

from typing import Any, Callable

from ..i18n import _
from ..glossary import choose_footer
from ..inputs import Press, Weight
from ..modes import base
from ..modes.base import ModeInfo, Referee
from ..screen.render import PAGE_LINES, View, wrap
from .screen import Question, Screen, Shell

GAME_MENU = ("continue", "standings", "undo", "pause", "end")


def game_menu_labels() -> tuple[str, ...]:
    return (_("Continue"), _("Standings"), _("Undo last action"), _("Pause: home menu"),
            _("End this game"))


def game_menu_view(cursor: int) -> View:
    return View(_("Game menu"), game_menu_labels(), cursor=cursor,
                footer=choose_footer())


def confirm_end_view() -> View:
    return View(_("End this game?"), tuple(wrap(_("It cannot be continued afterwards."))),
                footer=_("OK end  BACK no"))


def standings_later_view() -> View:
    """Why the standings wait while the round's news is still being shown: they would give it
    away. It stays until a key: OK goes to the news, BACK keeps the menu."""
    return View(_("Standings"), tuple(wrap(_("Not yet: the scores would give away the round's news."))),
                footer=_("OK read it  BACK menu"))


def confirm_undo_view(player: str | None) -> View:
    """The question before undo from the game menu: whose action goes."""
    text = (_("Take back {player}'s last action?").format(player=player) if player
            else _("Take back the last action?"))
    return View(_("Undo?"), tuple(wrap(text)), footer=_("OK undo  BACK keep"))


def standings_view(state: Any, at: int = 0,
                   score: Callable[[str, Any], str] | None = None) -> View:
    """The game menu's standings; ``score`` is the referee's way of showing a score."""
    kwargs = {"score": score} if score is not None else {}
    return base.standings_view(state.standings(), at, _("NEXT more  OK back"), _("OK back"),
                               **kwargs)


class GameScreen(Screen):
    """The running game: presses and weights go to its referee; BACK the referee leaves opens
    the game menu; OK on a finished game's last screen opens the game's own menu at "Play
    again"."""

    name = "game"

    def __init__(self, shell: Shell, mode: ModeInfo, referee: Referee) -> None:
        super().__init__(shell)
        self.mode, self.referee = mode, referee

    def on_press(self, press: Press) -> None:
        if self.referee.on_press(press):
            return
        if press.key == "back":
            self.shell.push(GameMenuScreen(self.shell, self))
        elif press.key == "ok" and self.referee.state.is_over:
            self.shell.close_game()
            self.shell.open(self.mode, "again")

    def on_weight(self, weight: Weight) -> bool:
        return self.referee.on_weight(weight)

    def holds(self) -> frozenset[str]:
        return self.referee.holds()

    def private(self) -> bool:
        return self.referee.private()

    def view(self) -> View:
        return self.referee.view()

    def close(self) -> None:
        self.referee.close()


class GameMenuScreen(Screen):
    """Continue, the standings, undo (after a question), a pause, the end (after a question)."""

    name = "menu"
    cursor: int

    def __init__(self, shell: Shell, game: GameScreen) -> None:
        super().__init__(shell)
        self.game = game
        self.cursor = 0

    def on_host(self, key: str, hold: bool) -> None:
        if key == "next":
            self.cursor = (self.cursor + 1) % len(GAME_MENU)
            return
        choice = GAME_MENU[self.cursor] if key == "ok" else None
        if key == "back" or choice == "continue":
            self.shell.pop()
        elif choice == "standings":
            if self.game.referee.pages:  # a reveal not read to its end: the scores would tell it
                self.shell.push(Question(self.shell, standings_later_view(), self._to_the_news,
                                         "standings_later"))
                return
            self.shell.push(StandingsScreen(self.shell, self.game))
        elif choice == "undo":
            self._ask_undo()
        elif choice == "pause":
            self.shell.pause_game()
        elif choice == "end":
            self.shell.push(Question(self.shell, confirm_end_view(), self.shell.end_game,
                                     "confirm_end"))

    def _to_the_news(self) -> None:
        """OK on "Standings: not yet": the menu goes too, the reveal goes on where it was."""
        self.shell.pop()

    def _ask_undo(self) -> None:
        session = self.shell.session
        if session is None or not session.actions:
            self.shell.flash(_("Nothing to undo"))
            return
        player = session.actions[-1].get("player")

        def undo() -> None:
            self.shell.pop()  # the game menu goes: the game shows what to put back
            self.shell.undo()

        self.shell.push(Question(self.shell, confirm_undo_view(
            player if isinstance(player, str) else None), undo, "confirm_undo"))

    def view(self) -> View:
        return game_menu_view(self.cursor)


class StandingsScreen(Screen):
    """Every player's place; NEXT scrolls a long list, any other key goes back."""

    name = "standings"

    def __init__(self, shell: Shell, game: GameScreen) -> None:
        super().__init__(shell)
        self.game = game
        self.at = 0

    def on_host(self, key: str, hold: bool) -> None:
        rows = len(self.game.referee.state.standings())
        if key == "next" and rows > PAGE_LINES:
            self.at += 1
        else:
            self.shell.pop()

    def view(self) -> View:
        return standings_view(self.game.referee.state, self.at, self.game.referee.score_text)


__all__ = ["GAME_MENU", "GameMenuScreen", "GameScreen", "StandingsScreen", "confirm_end_view",
           "confirm_undo_view", "game_menu_labels",
           "standings_later_view", "game_menu_view", "standings_view"]
