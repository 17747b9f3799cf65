"""The family's statistics on the box: choose a person or a game, then one number a page, big,
like the learning station's results (OK turns the page, BACK goes back to the choice).

A person: games played, games won, wins at each game, the best run of wins, when they last
played, and their right answers at the learning station. A game: how often it was played, how
long it usually lasts, who wins it most. The numbers are ``family_stats.FamilyStats``' (finished
games, corrections applied; one place per child for games and answers).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ...past.statistics import FamilyStats, GameStats, PlayerStats, Tally
from ...i18n import _, ngettext
from ..base.tool import HostTool
from ...past.games import PastGames
from ...past.recheck import start_if_needed
from ...screen.render import View, first_fit, misfits, wrap
from ...text import InputError
from ..past.listing import MONTHS

if TYPE_CHECKING:
    from ...ui.screen import Shell

log = logging.getLogger(__name__)


def _big(title: str, line: str, big: str, footer: str) -> View:
    """One number a page: ``big`` large, or in the line when even the smallest type is too wide."""
    view = View(title, (line,) if line else (), big=big, footer=footer)
    if not misfits(view):
        return view
    return View(title, tuple(x for x in (line, big) if x), footer=footer)


def day_text(iso: str | None) -> str | None:
    """An ISO 8601 time as the day it was, in the box's local time ("2 Dec 2026")."""
    if not iso:
        return None
    try:
        when = datetime.fromisoformat(iso).astimezone()
    except (ValueError, OverflowError, OSError):
        return None
    return _("{day} {month} {year}").format(day=when.day, month=_(MONTHS[when.month - 1]),
                                            year=when.year)


def duration_text(seconds: float) -> str:
    minutes = max(1, round(seconds / 60))
    if minutes < 90:
        return _("{n} min").format(n=minutes)
    return _("{h} h {m} min").format(h=minutes // 60, m=minutes % 60)


def player_pages(p: PlayerStats, titles: dict[str, str]) -> list[View]:
    """A person's numbers, one a page."""
    more = _("OK next")
    name = first_fit(p.name)
    pages = [_big(name, ngettext("game played", "games played", p.games), str(p.games), more),
             _big(name, ngettext("game won", "games won", p.wins), str(p.wins), more)]
    for game, plays in sorted(p.played.items(), key=lambda kv: -kv[1]):
        title = _(titles.get(game, game))
        pages.append(_big(name, first_fit(_("won at {game}").format(game=title), title),
                          _("{n} of {count}").format(n=p.won.get(game, 0), count=plays), more))
    if p.games:
        pages.append(_big(name, _("wins in a row, best"), str(p.best_streak), more))
        day = day_text(p.last_played)
        pages.append(_big(name, _("last played"), day, more) if day else
                     View(name, (_("last played"), _("Date unknown")), footer=more))
    if p.answers:
        pages.append(_big(name, _("right answers"), _("{n} of {count}").format(
            n=p.right, count=p.answers), more))
    return _last(pages)


def game_pages(g: GameStats) -> list[View]:
    """A game's numbers, one a page."""
    more = _("OK next")
    title = first_fit(_(g.title), g.title)
    pages = [_big(title, ngettext("time played", "times played", g.plays), str(g.plays), more)]
    if g.typical_s is not None:
        pages.append(_big(title, _("usually lasts"), duration_text(g.typical_s), more))
    if g.most_wins:
        n = g.most_wins_count
        if len(g.most_wins) == 1:
            line = ngettext("wins most: {n} win", "wins most: {n} wins", n).format(n=n)
            pages.append(_big(title, line, g.most_wins[0], more))
        else:
            line = ngettext("win most: {n} win each", "win most: {n} wins each", n).format(n=n)
            pages.append(View(title, (line, *wrap(" & ".join(g.most_wins))[:2]), footer=more))
    else:
        pages.append(View(title, tuple(wrap(_("Nobody has won it yet."))), footer=more))
    return _last(pages)


def _last(pages: list[View]) -> list[View]:
    """The last page says OK goes back."""
    end = pages[-1]
    return pages[:-1] + [View(end.title, end.lines, end.big, footer=_("OK back"))]


def menu_view(entries: list[str], cursor: int) -> View:
    return View(_("Statistics"), tuple(entries), cursor=cursor,
                footer=_("NEXT move  OK choose"))


def empty_view() -> View:
    return View(_("Statistics"), tuple(wrap(_("No game has been finished yet."))),
                footer=_("BACK home"))


def counting_view(done: int, total: int) -> View:
    return View(_("Statistics"), (_("Counting games"), _("{done} of {total}").format(
        done=done, total=total)))


class StatsMode(HostTool):
    """The choice (people first, then the games), then one number a page. The games are
    counted from their kept results ``STEP`` at a time, each step a turn of the loop of its
    own, so a journal of years never holds a key (or the watchdog) waiting."""

    STEP = 50

    def __init__(self, app: "Shell") -> None:
        self.app = app
        self.stats = FamilyStats([], [])
        self.titles: dict[str, str] = {}
        self.cursor = 0
        self.pages: list[View] | None = None
        self.page = 0
        self.tally = Tally()
        self.ids: list[int] = []
        self.done = 0
        self.timer: Any = None
        try:
            self.past: PastGames | None = PastGames(app.journal)
            self.ids = self.past.ids()
        except InputError as exc:
            log.error("statistics unreadable: %s", exc)
            self.past = None
        self.counting = self.past is not None
        if self.counting:
            self.timer = app.call_later(0, self.count)
        # results of other rules are counted as kept; the recheck brings them up to date
        self.rechecker = start_if_needed(app.journal) if self.counting else None

    def count(self) -> None:
        """One step of counting (a loop timer); the last one makes the statistics."""
        self.timer = None
        if not self.counting or self.past is None:
            return
        try:
            batch = self.ids[self.done:self.done + self.STEP]
            self.tally.add(self.past.records(batch))
            self.done += len(batch)
            if self.done < len(self.ids):
                self.timer = self.app.call_later(0, self.count)
                return
            self.stats = self.tally.finish(self.past.learning())
        except InputError as exc:
            log.error("statistics unreadable: %s", exc)
        except Exception:  # an engine bug in one game must not keep the box from the rest
            log.exception("statistics unreadable")
        self.counting = False
        self.titles = {g.game: g.title for g in self.stats.games}

    def close(self) -> None:
        self.counting = False
        self.app.cancel(self.timer)
        self.timer = None
        if self.rechecker is not None:
            self.rechecker.close()
            self.rechecker = None

    def entries(self) -> list[str]:
        return [first_fit(p.name) for p in self.stats.players] + \
            [first_fit(_(g.title), g.title) for g in self.stats.games]

    def open(self, index: int) -> list[View]:
        people = self.stats.players
        if index < len(people):
            return player_pages(people[index], self.titles)
        return game_pages(self.stats.games[index - len(people)])

    # -- the Mode protocol -------------------------------------------------------------------
    def on_host(self, key: str) -> bool:
        if self.counting:  # nothing to choose yet: BACK leaves, the rest waits
            return key != "back"
        if self.pages is not None:
            if key in ("ok", "next") and self.page < len(self.pages) - 1:
                self.page += 1
            else:
                self.pages = None
            return True
        if key == "back":
            return False
        count = len(self.entries())
        if not count:
            return True
        if key == "next":
            self.cursor = (self.cursor + 1) % count
        elif key == "ok":
            self.pages, self.page = self.open(self.cursor), 0
        return True

    def view(self) -> View:
        if self.counting:
            return counting_view(self.done, len(self.ids))
        if self.pages is not None:
            return self.pages[self.page]
        entries = self.entries()
        if not entries:
            return empty_view()
        return menu_view(entries, self.cursor)


__all__ = ["StatsMode", "counting_view", "day_text", "duration_text", "empty_view", "game_pages", "menu_view",
           "player_pages"]
