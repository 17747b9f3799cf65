"""A game's own menu, before it is played: a new game, the same players again, the rules.

The home menu leads here; so does OK on a finished game's last screen, with the cursor on "Play
again" (the same players in the same seats with the same choices, one OK from the start). The
rules are a few pages the game's mode folder writes (``ModeInfo.rules``), read with OK and BACK.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from ...games import GAMES
from ..i18n import _
from ..journal import JournalError
from ..replay import ReplayError
from ..screens import View
from . import setup as setup_flow
from .base import ModeInfo

log = logging.getLogger(__name__)


@dataclass
class StartMenu:
    """``again``: the last players of this game may play again (offered second)."""

    mode: ModeInfo
    again: bool = False
    cursor: int = 0
    page: int | None = None  # the rules page being read

    def choices(self) -> list[str]:
        return ["new"] + (["again"] if self.again else []) + (["rules"] if self.mode.rules else [])

    def labels(self) -> list[str]:
        text = {"new": _("New game"), "again": _("Play again"), "rules": _("Rules")}
        return [text[choice] for choice in self.choices()]

    def point_at(self, choice: str) -> None:
        if choice in self.choices():
            self.cursor = self.choices().index(choice)

    def on_key(self, key: str) -> str | None:
        """"home", "new" or "again" for the App; None while moving or reading."""
        if self.page is not None:
            return self._read(key)
        choices = self.choices()
        if key == "back":
            return "home"
        if key == "next":
            self.cursor = (self.cursor + 1) % len(choices)
        elif key == "ok":
            choice = choices[self.cursor % len(choices)]
            if choice == "rules":
                self.page = 0
                return None
            return choice
        return None

    def _read(self, key: str) -> None:
        assert self.page is not None and self.mode.rules is not None
        count = len(self.mode.rules())
        if key in ("ok", "next") and self.page + 1 < count:
            self.page += 1
        elif key in ("ok", "next"):  # read: back on the menu, ready to play
            self.page, self.cursor = None, 0
        elif key == "back":
            self.page = self.page - 1 if self.page > 0 else None
        return None

    def view(self) -> View:
        if self.page is not None and self.mode.rules is not None:
            pages = self.mode.rules()
            page = pages[min(self.page, len(pages) - 1)]
            last = self.page + 1 >= len(pages)
            footer = _("OK done  BACK back") if last else _("OK next  BACK back")
            return View(page.title, page.lines, page.big, footer=footer)
        return View(_(self.mode.title), tuple(self.labels()), cursor=self.cursor,
                    footer=_("NEXT move  OK choose"))


# -- the App's way into a game: its menu, the set-up, the start ----------------------------------
def open_menu(app: Any, mode: ModeInfo, choice: str = "new") -> None:
    """Show ``mode``'s own menu, the cursor on ``choice`` ("again" after a finished game)."""
    info = GAMES[mode.game]
    again = setup_flow.can_play_again(app.journal, mode, info.min_players, info.max_players)
    app.start = StartMenu(mode, again)
    app.start.point_at(choice)
    app.mode = "start"


def begin_setup(app: Any, mode: ModeInfo, again: bool = False) -> None:
    """A game's set-up screens; ``again``: the last game's players and choices, at the summary."""
    info = GAMES[mode.game]
    app.setup = setup_flow.begin(mode, app.player_names, app.stations, info.min_players,
                                 info.max_players, app.journal, app.station_name, again=again)
    app.start, app.mode = None, "setup"
    app.inputs.set_holds(app.setup.holds())


def start_key(app: Any, key: str) -> None:
    """A host key on the game's menu or its rules pages."""
    what = app.start.on_key(key)
    if what == "home":
        app.mode, app.start = "home", None
    elif what in ("new", "again"):
        begin_setup(app, app.start.mode, again=what == "again")


def setup_key(app: Any, press: Any) -> None:
    """A key on the set-up screens: a refusal says why; BACK at the first returns to the game's
    menu; OK on the summary starts the game."""
    setup = app.setup
    if press.station is not None and not (setup.picker is not None and setup.picker.wheel):
        app.refuse_station()  # only the letter wheel takes a near station's keys
        return
    what = setup.on_key(press.key, press.hold)
    message = setup.message
    if message:
        app.beep("error")
        app.flash(message)
    if what == "home":
        open_menu(app, setup.mode)
        app.setup = None
    elif what == "start":
        _start(app, setup)
    if app.mode == "setup" and app.setup is not None:
        app.inputs.set_holds(app.setup.holds())
    else:  # the game's menu again, or the game started: the mode's own holds
        app.set_holds()


def _start(app: Any, setup: setup_flow.SetupFlow) -> None:
    try:
        app.start_game(setup.header(app.new_seed()))
    except ReplayError as exc:
        app.flash(str(exc))
        return
    except JournalError as exc:
        log.error("%s", exc)
        app.flash(_("Cannot save!"), _("Game not started."))
        return
    setup_flow.remember(app.journal, setup.mode.name, setup.seats, setup.values)
