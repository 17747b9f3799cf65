"""Past games on the box: every ended game, newest first, one a page (its date, the game, who
won); OK replays it step by step (``ui.rewatch``).

The list is the journal's (``past_games.PastGames``): ordered by the journal's sequence, never by
wall time, and dated only when the clock was known to be right ("Date unknown" otherwise). A game
corrected afterwards says so on its page.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING

from ...i18n import N_, _
from ..base.tool import HostTool
from ...past.games import PastGames
from ...past.recheck import Rechecker, start_if_needed
from ...past.records import GameRecord
from ...screen.render import View, first_fit, pack, wrap
from ...text import InputError
from .rewatch import ReplayScreen

if TYPE_CHECKING:
    from ...ui.screen import Shell

log = logging.getLogger(__name__)

MONTHS = (N_("Jan"), N_("Feb"), N_("Mar"), N_("Apr"), N_("May"), N_("Jun"), N_("Jul"),
          N_("Aug"), N_("Sep"), N_("Oct"), N_("Nov"), N_("Dec"))


def date_text(at: float | None) -> str:
    """A journal time as the table reads a date, in the box's local time ("2 Dec 2026, 14:05";
    German "2.12.2026, 14:05"), or "Date unknown" when the clock was not known to be right."""
    if at is None:
        return _("Date unknown")
    try:
        when = datetime.fromtimestamp(at)
    except (OverflowError, OSError, ValueError):
        return _("Date unknown")
    return _("{day} {month} {year}, {time}").format(
        day=when.day, month=_(MONTHS[when.month - 1]), year=when.year,
        time=when.strftime("%H:%M"))


def started_at(record: GameRecord) -> float | None:
    """When the game began, as the journal's time base knows it (None: unknown)."""
    when = getattr(record, "when", None)
    return when.started if when is not None else None


def result_line(record: GameRecord) -> str:
    """Who won, in one line: a name, a shared win, nobody, or that it ended early."""
    if record.status == "abandoned":
        return _("Ended early")
    if record.status != "over":
        return _("Not fully readable")
    winners = list(record.winners)
    if not winners:
        return _("Nobody won")
    if len(winners) == 1:
        return first_fit(_("{name} won").format(name=winners[0]), winners[0])
    both = " & ".join(winners)
    return first_fit(_("{names} won").format(names=both), both,
                     _("{n} share the win").format(n=len(winners)))


def game_page(record: GameRecord) -> View:
    """One game of the list: the date on top, the game, who won, a correction if any, and
    "result re-checked" when newer rules gave another result than the game's own."""
    lines = [first_fit(_(record.title), record.title), *wrap(result_line(record))]
    if getattr(record, "corrected", False):
        lines.append(_("corrected afterwards"))
    elif getattr(record, "rechecked", False):
        lines.append(_("result re-checked"))
    return View(date_text(started_at(record)), tuple(lines),
                footer=_("NEXT older  OK replay"))


def empty_view() -> View:
    return View(_("Past games"), tuple(wrap(_("No game has been finished yet."))), footer=_("BACK home"))


class PastGamesMode(HostTool):
    """The list (a tool of the home menu): NEXT the next older game (round to the newest),
    OK replays it, BACK goes home. One game is read at a time, with SQL from the kept results,
    so the list opens and pages as fast with ten thousand games as with ten; kept results of
    other rules are brought up to date on a thread of their own (``past.recheck``)."""

    def __init__(self, app: "Shell") -> None:
        self.app = app
        self.past = PastGames(app.journal)
        self.record: GameRecord | None = None
        self.rechecker: Rechecker | None = None
        self.reload()
        self._recheck()

    @property
    def records(self) -> list[GameRecord]:
        """The game on show (the list is read a page at a time)."""
        return [] if self.record is None else [self.record]

    def _page(self, older_than: int | None) -> GameRecord | None:
        try:
            found = self.past.list(limit=1, older_than=older_than)
        except InputError as exc:
            log.error("past games unreadable: %s", exc)
            return None
        except Exception:  # an engine bug in one game must not keep the box from the rest
            log.exception("past games unreadable")
            return None
        return found[0] if found else None

    def reload(self) -> None:
        """Read the game on show again (a correction changes a result), or the newest."""
        at = None if self.record is None else self.record.game_id + 1
        self.record = self._page(at) or (self._page(None) if at is not None else None)

    def _recheck(self) -> None:
        self.rechecker = start_if_needed(self.app.journal)

    def close(self) -> None:
        if self.rechecker is not None:
            self.rechecker.close()
            self.rechecker = None

    # -- the Mode protocol -------------------------------------------------------------------
    def on_host(self, key: str) -> bool:
        if key == "back":
            return False
        if self.record is None:
            return True
        if key == "next":
            self.record = self._page(self.record.game_id) or self._page(None)
        elif key == "ok":
            self.open(self.record)
        return True

    def open(self, record: GameRecord) -> None:
        try:
            screen = ReplayScreen(self.app, self, record)
        except InputError as exc:
            self.app.beep("error")
            self.app.flash(_("Cannot replay it:"), *pack(str(exc).split(), " ")[:2])
            return
        except Exception:
            log.exception("game %d cannot be replayed", record.game_id)
            self.app.beep("error")
            self.app.flash(_("Cannot replay it:"), _("Not fully readable"))
            return
        self.app.push(screen)

    def view(self) -> View:
        if self.record is None:
            return empty_view()
        return game_page(self.record)


__all__ = ["MONTHS", "PastGamesMode", "date_text", "empty_view", "game_page", "result_line"]
