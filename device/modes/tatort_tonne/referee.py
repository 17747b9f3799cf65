"""Tatort Tonne at the table: secret choices at the stations, the countdown, pointing, the reveal.

Stations: A/B/C = steal/accuse/alibi while choosing (a player may press again to change, T2). Seats
without a station choose at the host panel one at a time (the shared hot seat). When accusers exist
the box counts down "3, 2, 1, point!" with the buzzer and then asks, accuser by accuser, whom they
pointed at: the accused presses any button at their own station, the accuser presses C for nobody,
or the host panel picks. The reveal is shown page by page in the rulebook's order.
"""

from __future__ import annotations

from typing import Any

from ....games.core import Event
from ....games.tatort_tonne import CARDS, TatortTonne
from ...i18n import N_, _
from ...screens import View, pack, wrap
from ...session import Session
from ..base import HotSeat, Page, Referee, SetupOption, Table
from .screens import card_name, final_view, reveal_pages

PAGE_S = 2.5
COUNT_S = 1.0
KEYS = {"A": "steal", "B": "accuse", "C": "alibi"}
COUNTDOWN_S = COUNT_S * (2 + 3 + 1.5)  # cards down, 3, 2, 1, point!


class TatortTonneReferee(Referee):
    SETUP = (SetupOption("trash", N_("Trash pile"), (10, 15, 20, 25, 30, 40), 25, "T1"),)

    def __init__(self, table: Table, session: Session) -> None:
        super().__init__(table, session)
        self._count_timer: Any = None
        self.count: int | None = None  # 4 = cards down, 3, 2, 1, 0 = "POINT!"; else None
        self.counted = False            # the countdown of this point phase is over
        self.hot = HotSeat()
        self.target_cursor = 0

    state: TatortTonne  # type: ignore[assignment]

    def _hot_waiting(self) -> list[str]:
        """In-game seats without a station, the ones still to choose first."""
        hot = [p for p in self.hot_players() if self.state.in_game[p]]
        waiting = set(self.state.waiting_for())
        return [p for p in hot if p in waiting] + [p for p in hot if p not in waiting]

    def _cards(self, player: str) -> list[str]:
        return [a["card"] for a in self.legal(player) if a["type"] == "choose"]

    # -- events from the App ---------------------------------------------------------------------
    def resumed(self) -> None:
        if self.session.last_events and self.session.last_events[-1].kind in ("round", "winner"):
            self._play(self.session.last_events)
        self.counted = False
        self._phase_entered()

    def after_undo(self) -> None:
        super().after_undo()
        self._stop_countdown()
        self.counted = self.state.phase == "point"
        self.hot.reset()

    def _stop_countdown(self) -> None:
        self.table.cancel(self._count_timer)
        self._count_timer, self.count = None, None

    def close(self) -> None:
        super().close()
        self._stop_countdown()

    def private(self) -> bool:
        return self.hot.private()

    def on_station(self, station: int, key: str) -> None:
        player = self.seat_player(station)
        if player is None:
            self.table.flash(_("Nobody plays at"), self.table.station_name(station))
            return
        if self.pages or self.state.is_over:
            self.table.beep("error")
            self.table.flash(_("Wait: OK at the host") if self.pages else _("The game is over"))
            return
        phase = self.state.phase
        if phase == "choose":
            self.act({"type": "choose", "player": player, "card": KEYS[key]})
        elif phase == "point":
            if not self.counted:
                self.table.beep("error")
                self.table.flash(_("Wait for POINT!"))
                return
            accuser = self.state.waiting_for()[0]
            if player == accuser:
                if key != "C":
                    self.table.flash(_("{player}: press C").format(player=accuser),
                                     _("if you pointed at"), _("nobody"))
                    return
                self.act({"type": "point", "player": accuser, "target": None})
            else:
                self.act({"type": "point", "player": accuser, "target": player})

    def on_host(self, key: str) -> bool:
        if self.pages:
            return self.pages.on_host(key)
        state = self.state
        if state.phase == "choose":
            return self.hot.on_host(key, self._hot_waiting(), self._cards, self._choose)
        if state.phase == "point" and self.counted:
            candidates = self._targets()
            if key == "next":
                self.target_cursor = (self.target_cursor + 1) % len(candidates)
                return True
            if key == "ok":
                accuser = state.waiting_for()[0]
                target = candidates[self.target_cursor % len(candidates)]
                self.act({"type": "point", "player": accuser, "target": target})
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
            self._play(events)
        if any(e.kind in ("pointed", "round", "winner", "accusers") for e in events):
            self.target_cursor = 0
        self._phase_entered()

    def _phase_entered(self) -> None:
        if self.state.phase == "point" and not self.counted and self.count is None:
            self.count = 4  # "cards down" first, then 3, 2, 1, "POINT!"
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

    def _targets(self) -> list[str | None]:
        accuser = self.state.waiting_for()[0]
        return [a["target"] for a in self.legal(accuser) if a["type"] == "point"]

    def _play(self, events: list[Event]) -> None:
        won = any(e.kind == "winner" for e in events)
        self.pages.show([Page(view, PAGE_S) for view in reveal_pages(events, self.state)],
                        finale="win" if won else None)
        if not won and any(e.kind == "trash" for e in events):
            self.table.beep("score")

    # -- the screen ------------------------------------------------------------------------------
    def end_view(self) -> View:
        return final_view(self.state)

    def play_view(self) -> View:
        if self.state.phase == "point":
            return self._point_view()
        return self._choose_view()

    def _choose_view(self) -> View:
        state = self.state
        if self.hot.stage:
            player = self.hot.player or ""
            hot = self.hot.view([card_name(c) for c in self._cards(player)] if player else [])
            assert hot is not None
            return hot
        left = len(state.waiting_for())
        waiting = self._hot_waiting()
        line = _("still to choose")
        if waiting:
            line = _("OK: {player} at host").format(
                player=waiting[self.hot.index % len(waiting)])
        return View(_("Round {n}: choose!").format(n=state.round), (line,),
                    big=_("{n} of {total}").format(n=left, total=len(state.still_in())),
                    footer=_("A:steal B:acc C:alibi"))

    def _point_view(self) -> View:
        state = self.state
        accusers = [p for p in state.players if state.choices.get(p) == "accuse"]
        if not self.counted:
            if self.count == 4:
                said = _("You did it! from {names}").format(names=", ".join(accusers))
                return View(_("Cards down!"), tuple(wrap(said)[:3]) + (_("Get ready to point..."),))
            big = _("POINT!") if self.count == 0 else str(self.count)
            return View(_("You did it!"), tuple(pack(accusers)[:2]), big=big)  # room for two
        accuser = state.waiting_for()[0]
        target = self._targets()[self.target_cursor % len(self._targets())]
        lines = [_("Accused: any button")]
        if self.has_station(accuser):  # a hot-seat accuser has no C to press
            lines.append(_("{player}: C = nobody").format(player=accuser))
        lines.append(_("Host: > {target}").format(target=target or _("nobody")))
        return View(_("{player} pointed at?").format(player=accuser), tuple(lines),
                    footer=_("NEXT other  OK pick"))
