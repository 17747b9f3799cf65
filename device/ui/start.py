"""A game's own menu, before it is played (a new game, the same players again, the rules), and
its set-up screens.

The home menu leads here; so does OK on a finished game's last screen, with the cursor on "Play
again" (the same players in the same seats with the same choices, one OK from the start). The
rules are a few pages the game's mode folder writes (``ModeInfo.rules``), read with OK and BACK.
"""

from __future__ import annotations

import logging

from ...games import GAMES
from ..i18n import _
from ..glossary import choose_footer
from ..inputs import Press
from ..journal.store import JournalError
from ..modes import GAME_MODES
from ..modes import setup as setup_flow
from ..modes.base import ModeInfo
from ..replay import ReplayError
from ..screen.render import View, wrap
from .screen import Question, Screen, Shell

log = logging.getLogger(__name__)


class StartScreen(Screen):
    """The game's menu: New game, Play again (when the last players can sit down again), Rules."""

    name = "start"
    cursor: int

    def __init__(self, shell: Shell, mode: ModeInfo, choice: str = "new") -> None:
        super().__init__(shell)
        assert mode.game is not None
        info = GAMES[mode.game]
        self.mode = mode
        self.again = setup_flow.can_play_again(shell.journal, mode, info.min_players,
                                               info.max_players)
        self.cursor = 0
        self.page: int | None = None  # the rules page being read
        if choice in self.choices():
            self.cursor = self.choices().index(choice)

    def choices(self) -> list[str]:
        return ["new"] + (["again"] if self.again else []) + (["rules"] if self.mode.rules else [])

    def labels(self) -> list[str]:
        text = {"new": _("New game"), "again": _("Play again"), "rules": _("Rules")}
        return [text[choice] for choice in self.choices()]

    def on_host(self, key: str, hold: bool) -> None:
        if self.page is not None:
            self._read(key)
            return
        choices = self.choices()
        if key == "back":
            self.shell.pop()
        elif key == "next":
            self.cursor = (self.cursor + 1) % len(choices)
        elif key == "ok":
            choice = choices[self.cursor % len(choices)]
            if choice == "rules":
                self.page = 0
            else:
                self.shell.replace(SetupScreen(self.shell, self.mode, again=choice == "again"))

    def _read(self, key: str) -> None:
        assert self.page is not None and self.mode.rules is not None
        count = len(self.mode.rules())
        if key in ("ok", "next") and self.page + 1 < count:
            self.page += 1
        elif key in ("ok", "next"):  # read: back on the menu, ready to play
            self.page, self.cursor = None, 0
        elif key == "back":
            self.page = self.page - 1 if self.page > 0 else None

    def view(self) -> View:
        if self.page is not None and self.mode.rules is not None:
            pages = self.mode.rules()
            page = pages[min(self.page, len(pages) - 1)]
            last = self.page + 1 >= len(pages)
            footer = _("OK done  BACK back") if last else _("OK next  BACK back")
            return View(page.title, page.lines, page.big, footer=footer)
        return View(_(self.mode.title), tuple(self.labels()), cursor=self.cursor,
                    footer=choose_footer())


def confirm_replace_view(waiting: str) -> View:
    """The question before a new game ends the paused one (``waiting``: its title)."""
    return View(_("Start a new game?"),
                tuple(wrap(_("{game} is waiting. It would end for good.")
                           .format(game=waiting))),
                footer=_("OK end  BACK no"))


class SetupScreen(Screen):
    """Who plays, then the game's choices, then a summary whose OK starts the game; BACK at the
    first screen returns to the game's menu. Only the letter wheel takes a station's keys."""

    name = "setup"

    def __init__(self, shell: Shell, mode: ModeInfo, again: bool = False) -> None:
        super().__init__(shell)
        assert mode.game is not None
        info = GAMES[mode.game]
        self.flow = setup_flow.begin(mode, shell.player_names, shell.stations,
                                     info.min_players, info.max_players, shell.journal,
                                     shell.station_name, again=again)

    def holds(self) -> frozenset[str]:
        return self.flow.holds()

    def on_press(self, press: Press) -> None:
        flow = self.flow
        if press.station is not None and not (flow.picker is not None and flow.picker.wheel):
            self.shell.refuse_station()
            return
        what = flow.on_key(press.key, press.hold)
        message = flow.message
        if message:
            self.shell.beep("error")
            self.shell.flash(message)
        if what == "home":
            self.shell.replace(StartScreen(self.shell, flow.mode))
        elif what == "start":
            self._start()
        else:  # the wheel's long keys change with its screen
            self.shell.set_holds()

    def _start(self) -> None:
        """Start the game; a paused game would end with it, so that asks once first (as "End
        this game" does)."""
        session = self.shell.session
        if self.shell.paused and session is not None and not session.state.is_over:
            waiting = GAME_MODES.get(session.header.game)
            title = _(waiting.title) if waiting is not None else session.header.game
            self.shell.push(Question(self.shell, confirm_replace_view(title), self._start_now,
                                     "confirm_end"))
            return
        self._start_now()

    def _start_now(self) -> None:
        flow = self.flow
        try:
            self.shell.start_game(flow.header(self.shell.new_seed()))
        except ReplayError as exc:
            self.shell.flash(str(exc))
            return
        except JournalError as exc:
            log.error("%s", exc)
            self.shell.flash(_("Cannot save!"), _("Game not started."))

    def view(self) -> View:
        return self.flow.view()

    @property
    def cursor(self) -> int | None:  # type: ignore[override]
        return self.flow.view().cursor


__all__ = ["SetupScreen", "StartScreen"]
