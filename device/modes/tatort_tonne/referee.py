"""Tatort Tonne at the table: secret choices at the stations, the countdown, pointing, the reveal.

Stations: A/B/C = steal/accuse/alibi while choosing (a player may press again to change, T2). Seats
without a station choose at the host panel one at a time (the shared hot seat). When accusers exist
the box counts down "3, 2, 1, point!" with the buzzer and then asks, accuser by accuser, whom they
pointed at: the one pointed at presses any button at their own station, the accuser presses C for
nobody, or OK at the host panel opens a list to pick from. The reveal is shown page by page in the
rulebook's order; at the end the winner (with the win sound), then the standings. Every refused
press says why; an undo says what to put back and who acts again.
"""

from __future__ import annotations

from typing import Any

from ....games.core import Event
from ....games.tatort_tonne import TatortTonne
from ...i18n import _
from ...screen.render import PAGE_LINES, View
from ...session import Session
from ..base import HotSeat, Page, Referee, Table
from .pages import reveal_pages, score_text, standings_view, undo_pages, winner_view
from .public import Public
from .screens import (KEYS, card_name, choose_view, countdown_view, pick_view,
                      point_now_view, point_view, ready_view)

PAGE_S = 2.5
UNDO_PAGE_S = 5.0  # at a chosen pace: things to put back take longer to read and do
COUNT_S = 1.0
COUNTDOWN_S = COUNT_S * (2 + 3 + 1.5)  # cards down, 3, 2, 1, point!


class TatortTonneReferee(Referee[TatortTonne]):
    def __init__(self, table: Table, session: Session) -> None:
        super().__init__(table, session)
        self._count_timer: Any = None
        self.count: int | None = None  # 4 = get ready, 3, 2, 1, 0 = "POINT!"; else None
        self.counted = False            # the countdown of this point phase is over
        self.hot = HotSeat()
        self.picking = False            # the host panel's list of whom an accuser pointed at
        self.target_cursor = 0
        self.end_page = 0               # after the end: 0 the winner, 1 the standings
        self.standings_at = 0
        self._seen: tuple[Public, dict[str, Any] | None] = (self.seen, None)
        self._remember()

    @property
    def seen(self) -> Public:
        """The game as the table sees it: what the screens read."""
        return self.public_as(Public)

    def _remember(self) -> None:
        """What the table has seen and the action that led to it: what an undo takes back."""
        actions = self.session.actions
        self._seen = (self.seen, dict(actions[-1]) if actions else None)

    def _hot_waiting(self) -> list[str]:
        """In-game seats without a station, the ones still to choose first."""
        hot = [p for p in self.hot_players() if self.state.in_game[p]]
        waiting = set(self.state.waiting_for())
        return [p for p in hot if p in waiting] + [p for p in hot if p not in waiting]

    def _cards(self, player: str) -> list[str]:
        return self.legal_values(player, "choose", "card")

    def score_text(self, player: str, score: Any = None) -> str:
        """The standings' right column: a player's trash, "out" marked (for the game menu)."""
        return score_text(self.seen, player)

    # -- events from the App ---------------------------------------------------------------------
    def resumed(self) -> None:
        if self.session.last_events and self.session.last_events[-1].kind in ("round", "winner"):
            self._play(self.session.last_events)
        self.counted = False
        self._remember()
        self._phase_entered()

    def after_undo(self) -> None:
        before, undone = self._seen
        super().after_undo()
        self._stop_countdown()
        self.counted = self.state.phase == "point"
        self.hot.reset()
        self.picking, self.target_cursor, self.end_page = False, 0, 0
        if undone is not None:
            self.pages.show([Page(view, UNDO_PAGE_S) for view in
                             undo_pages(before, self.seen, undone)])
        self._remember()

    def _stop_countdown(self) -> None:
        self.table.cancel(self._count_timer)
        self._count_timer, self.count = None, None

    def close(self) -> None:
        super().close()
        self._stop_countdown()

    def private(self) -> bool:
        return self.hot.private()

    # -- station buttons -------------------------------------------------------------------------
    def on_station(self, station: int, key: str) -> None:
        player = self.station_player(station)
        state = self.state
        if player is None:
            return
        if self.pages:
            self.refuse(_("Wait: OK at the box"))
        elif state.is_over:
            self.refuse(_("The game is over"))
        elif not state.in_game[player]:
            self.refuse(_("{player} is out").format(player=player), _("of this game."))
        elif state.phase == "choose":
            self.act({"type": "choose", "player": player, "card": KEYS[key]})
        elif state.phase == "point":
            self._station_point(player, key)

    def _station_point(self, player: str, key: str) -> None:
        """The one pointed at presses any button; the accuser's own C says nobody."""
        if not self.pointing:
            self.refuse(_("Wait for POINT!"))
            return
        accuser = self.state.waiting_for()[0]
        if player != accuser:
            self.act({"type": "point", "player": accuser, "target": player})
        elif key == "C":
            self.act({"type": "point", "player": accuser, "target": None})
        else:
            self.refuse(_("Not you, {player}!").format(player=accuser),
                         _("The accused presses."), _("Nobody? Press C."))

    # -- the host panel --------------------------------------------------------------------------
    def on_host(self, key: str) -> bool:
        if self.pages:
            return self.pages.on_host(key)
        if self.state.is_over:
            return self._end_key(key)
        if self.state.phase == "choose":
            return self._choose_key(key)
        if self.state.phase == "point":
            return self._point_key(key)
        return False

    def _choose_key(self, key: str) -> bool:
        waiting = self._hot_waiting()
        if key in ("ok", "next") and self.hot.stage == "" and not waiting:
            self.refuse(_("Choose with your own"), _("buttons: A, B or C."))
            return True
        if key == "next" and self.hot.stage == "privacy":
            self.refuse(_("OK shows the cards."))
            return True
        if key == "back" and self.hot.stage == "done":  # the card is played: nothing to cancel
            self.refuse(_("The card is down."), _("OK: go on"))
            return True
        return self.hot.on_host(key, waiting, self._cards, self._choose)

    def _point_key(self, key: str) -> bool:
        if key == "back":
            if self.picking:
                self.picking = False
                return True
            return False  # the game menu
        if not self.pointing:
            self.refuse(_("Wait for POINT!"))
            return True
        if not self.picking:
            self.picking, self.target_cursor = True, 0
            return True
        if key == "next":
            self.target_cursor = (self.target_cursor + 1) % len(self._targets())
        elif key == "ok":
            accuser = self.state.waiting_for()[0]
            target = self._targets()[self.target_cursor % len(self._targets())]
            self.act({"type": "point", "player": accuser, "target": target})
        return True

    def _end_key(self, key: str) -> bool:
        """The winner, then the standings (NEXT scrolls a long list); OK there goes on."""
        if self.end_page == 0 and key in ("ok", "next"):
            self.end_page, self.standings_at = 1, 0
            return True
        if self.end_page == 1 and key == "next" and len(self.state.players) > PAGE_LINES:
            self.standings_at += 1
            return True
        return False

    def _choose(self, player: str, card: str) -> None:
        self.act({"type": "choose", "player": player, "card": card})

    # -- applying --------------------------------------------------------------------------------
    def react(self, events: list[Event]) -> None:
        """What follows an accepted action: the reveal after a resolved round, the countdown."""
        self.table.beep("click")
        if any(e.kind in ("round", "winner") for e in events):
            self.hot.reset()
            self._stop_countdown()
            self.counted = False
            self.end_page = 0
            self._play(events)
        if any(e.kind in ("pointed", "round", "winner", "accusers") for e in events):
            self.picking, self.target_cursor = False, 0
        self._remember()
        self._phase_entered()

    def _phase_entered(self) -> None:
        if self.state.phase == "point" and not self.counted and self.count is None:
            self.count = 4  # "get ready" first, then 3, 2, 1, "POINT!"
            self._count_timer = self.table.call_later(COUNT_S * 2, self._tick)

    def _tick(self) -> None:
        assert self.count is not None
        self.count -= 1
        if self.count > 0:
            self.table.beep("tick")
            self._count_timer = self.table.call_later(COUNT_S, self._tick)
        elif self.count == 0:
            self.table.beep("go")
            self._count_timer = self.table.call_later(COUNT_S * 1.5, self._tick)
        else:
            self.count = None
            self.counted = True

    @property
    def pointing(self) -> bool:
        """Whether a press now says whom an accuser pointed at: from the moment POINT! shows."""
        return self.counted or self.count == 0

    def _targets(self) -> list[str | None]:
        accuser = self.state.waiting_for()[0]
        return self.legal_values(accuser, "point", "target")

    def _play(self, events: list[Event]) -> None:
        won = any(e.kind == "winner" for e in events)
        self.pages.show([Page(view, PAGE_S) for view in reveal_pages(events, self.seen)],
                        finale="win" if won else None)  # the win sound plays with the winner
        if not won and any(e.kind == "trash" for e in events):
            self.table.beep("score")

    # -- the screen ------------------------------------------------------------------------------
    def end_view(self) -> View:
        if self.end_page == 0:
            return winner_view(self.seen)
        return standings_view(self.seen, self.standings_at)

    def play_view(self) -> View:
        if self.state.phase == "point":
            return self._point_view()
        return self._choose_view()

    def _choose_view(self) -> View:
        pub = self.seen
        if self.hot.stage:
            player = self.hot.player or ""
            hot = self.hot.view([card_name(c) for c in self._cards(player)] if player else [])
            assert hot is not None
            return hot
        waiting = self._hot_waiting()
        turn = waiting[self.hot.index % len(waiting)] if waiting else None
        return choose_view(pub.round, len(pub.waiting_for), len(pub.still_in),
                           turn if turn in pub.waiting_for else None)

    def _point_view(self) -> View:
        pub = self.seen
        accusers = pub.accusers
        accuser = pub.waiting_for[0]
        if self.picking:
            return pick_view(accuser, self._targets(), self.target_cursor)
        if not self.counted:
            if self.count is None or self.count == 4:
                return ready_view(accusers)
            if self.count == 0:
                return point_now_view(accuser)
            return countdown_view(accusers, self.count)
        return point_view(accuser, self.has_station(accuser))
