"""Tatort Tonne at the table: secret choices at the stations, the countdown, pointing, the reveal.

Stations: A/B/C = steal/accuse/alibi while choosing (a player may press again to change, T2). Seats
without a station choose at the host panel one at a time, with a privacy screen before and a blank
screen after each. When accusers exist the box counts down "3, 2, 1, point!" with the buzzer and
then asks, accuser by accuser, whom they pointed at: the accused presses any button at their own
station, the accuser presses C for nobody, or the host panel picks. The reveal is replayed page by
page in the rulebook's order.
"""

from __future__ import annotations

from typing import Any

from ...games.core import Event
from ...games.tatort_tonne import CARD_NAMES, CARDS, TatortTonne
from ..screens import CHARS, View, wrap
from ..session import Session
from .base import Page, Pages, SetupOption, Table, seat_player

PAGE_S = 2.5
COUNT_S = 1.0
SHORT = {"steal": "STEAL", "accuse": "ACCUSE", "alibi": "ALIBI"}
KEYS = {"A": "steal", "B": "accuse", "C": "alibi"}
FOOTER_CHOOSE = "A:steal B:acc C:alibi"
COUNTDOWN_S = COUNT_S * (2 + 3 + 1.5)  # cards down, 3, 2, 1, point!


class TatortTonneReferee:
    SETUP = (SetupOption("trash", "Trash pile", (10, 15, 20, 25, 30, 40), 25, "T1"),)

    def __init__(self, table: Table, session: Session) -> None:
        self.table = table
        self.session = session
        self.pages = Pages(table)
        self._count_timer: Any = None
        self.count: int | None = None       # 4 = cards down, 3, 2, 1, 0 = "POINT!"; else None
        self.counted = False                 # the countdown of this point phase is over
        self.hot_player: str | None = None   # hot seat: who is at the host panel
        self.hot_stage = ""                  # "privacy", "pick" or "done"
        self.hot_cursor = 0
        self.hot_index = 0                   # which hot-seat player OK calls up next
        self.target_cursor = 0

    @property
    def state(self) -> TatortTonne:
        return self.session.state  # type: ignore[return-value]

    # -- seats -----------------------------------------------------------------------------------
    def _seat_player(self, station: int) -> str | None:
        return seat_player(self.table, self.state.players, station)

    def _hot_players(self) -> list[str]:
        """In-game seats without a station, the ones still to choose first."""
        state = self.state
        hot = [p for seat, p in enumerate(state.players)
               if self.table.station_of(seat) is None and state.in_game[p]]
        waiting = set(state.waiting_for())
        return [p for p in hot if p in waiting] + [p for p in hot if p not in waiting]

    # -- events from the App ---------------------------------------------------------------------
    def resumed(self) -> None:
        if self.session.last_events and self.session.last_events[-1].kind in ("round", "winner"):
            self._play(self.session.last_events)
        self.counted = False
        self._phase_entered()

    def after_undo(self) -> None:
        self.pages.stop()
        self._stop_countdown()
        self.counted = self.state.phase == "point"
        self.hot_player, self.hot_stage = None, ""

    def _stop_countdown(self) -> None:
        self.table.cancel(self._count_timer)
        self._count_timer, self.count = None, None

    def close(self) -> None:
        self.pages.stop()
        self._stop_countdown()

    def private(self) -> bool:
        return self.hot_stage == "pick"

    def on_station(self, station: int, key: str) -> None:
        player = self._seat_player(station)
        if player is None:
            self.table.flash(f"Station {station + 1} has", "no player in this game")
            return
        if self.pages or self.state.is_over:
            self.table.beep("error")
            return
        phase = self.state.phase
        if phase == "choose":
            self._act({"type": "choose", "player": player, "card": KEYS[key]})
        elif phase == "point":
            if not self.counted:
                self.table.beep("error")
                return
            accuser = self.state.waiting_for()[0]
            if player == accuser:
                if key != "C":
                    self.table.flash(f"{accuser}: press C", "if you pointed at", "nobody")
                    return
                self._act({"type": "point", "player": accuser, "target": None})
            else:
                self._act({"type": "point", "player": accuser, "target": player})

    def on_host(self, key: str) -> bool:
        if self.pages:
            return self.pages.on_host(key)
        state = self.state
        if state.phase == "choose":
            return self._host_choose(key)
        if state.phase == "point" and self.counted:
            candidates = self._targets()
            if key == "next":
                self.target_cursor = (self.target_cursor + 1) % len(candidates)
                return True
            if key == "ok":
                accuser = state.waiting_for()[0]
                target = candidates[self.target_cursor % len(candidates)]
                self._act({"type": "point", "player": accuser, "target": target})
                return True
        return False

    def _host_choose(self, key: str) -> bool:
        hot = self._hot_players()
        if self.hot_stage == "":
            if not hot:
                return False
            if key == "next":
                self.hot_index = (self.hot_index + 1) % len(hot)
                return True
            if key == "ok":
                self.hot_player = hot[self.hot_index % len(hot)]
                self.hot_stage, self.hot_cursor = "privacy", 0
                return True
            return False
        if self.hot_stage == "privacy":
            if key == "ok":
                self.hot_stage = "pick"
            elif key == "back":
                self.hot_player, self.hot_stage = None, ""
            return True
        if self.hot_stage == "pick":
            if key == "next":
                self.hot_cursor = (self.hot_cursor + 1) % len(CARDS)
            elif key == "back":
                self.hot_stage = "privacy"
            elif key == "ok":
                player = self.hot_player
                assert player is not None
                self.hot_stage = "done"
                self.hot_index = 0
                self._act({"type": "choose", "player": player, "card": CARDS[self.hot_cursor]})
            return True
        # "done": the blank screen between seats
        if key in ("ok", "next"):
            self.hot_player, self.hot_stage = None, ""
        return True

    # -- applying --------------------------------------------------------------------------------
    def _act(self, action: dict[str, Any]) -> None:
        events = self.table.apply(action)
        if events is not None:
            self.table.beep("click")
            self.react(events)

    def react(self, events: list[Event]) -> None:
        """What follows an accepted action: the reveal after a resolved round, the countdown."""
        if any(e.kind in ("round", "winner") for e in events):
            self.hot_player, self.hot_stage = None, ""
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
        return [p for p in self.state.still_in() if p != accuser] + [None]

    # -- the reveal ------------------------------------------------------------------------------
    def _play(self, events: list[Event]) -> None:
        self.pages.show([Page(view, PAGE_S) for view in reveal_pages(events, self.state)])
        if any(e.kind == "winner" for e in events):
            self.table.beep("win")
        elif any(e.kind == "trash" for e in events):
            self.table.beep("score")

    # -- the screen ------------------------------------------------------------------------------
    def view(self) -> View:
        state = self.state
        if self.pages:
            return self.pages.view()
        if state.is_over:
            return final_view(state)
        if state.phase == "point":
            return self._point_view()
        return self._choose_view()

    def _choose_view(self) -> View:
        state = self.state
        title = f"Round {state.round}: choose!"
        if self.hot_stage == "privacy":
            return View("Hot seat", (f"{self.hot_player}, take", "the box. Everybody",
                                     "else: look away!"), footer="OK show  BACK cancel")
        if self.hot_stage == "pick":
            return View(f"{self.hot_player} plays", tuple(CARD_NAMES[c] for c in CARDS),
                        cursor=self.hot_cursor, footer="NEXT move  OK play")
        if self.hot_stage == "done":
            return View(blank=True, footer="Card down. OK: go on")
        left = len(state.waiting_for())
        hot = self._hot_players()
        line = "still to choose"
        if hot:
            line = f"OK: {hot[self.hot_index % len(hot)]} at host"
        return View(title, (line,), big=f"{left} of {len(state.still_in())}",
                    footer=FOOTER_CHOOSE)

    def _point_view(self) -> View:
        state = self.state
        accusers = [p for p in state.players if state.choices.get(p) == "accuse"]
        if not self.counted:
            if self.count == 4:
                return View("Cards down!", tuple(wrap("You did it! from " + ", ".join(accusers))
                                                 [:3]) + ("Get ready to point...",))
            big = "POINT!" if self.count == 0 else str(self.count)
            return View("You did it!", (", ".join(accusers),), big=big)
        accuser = state.waiting_for()[0]
        target = self._targets()[self.target_cursor % len(self._targets())]
        return View(f"{accuser} pointed at?",
                    ("Accused: any button", f"{accuser}: C = nobody",
                     f"Host: > {target or 'nobody'}"),
                    footer="NEXT other  OK pick")


def _names(names: list[str]) -> str:
    return ", ".join(names)


def reveal_pages(events: list[Event], state: TatortTonne) -> list[View]:
    """The reveal as screens, in the rulebook's order (accusations, accused, the rest, result)."""
    pages: list[View] = []
    pointed = [e for e in events if e.kind == "pointed_at"]
    for first in range(0, len(pointed), 4):
        lines = tuple(f"{e.data['player']} > {e.data['target'] or 'nobody'}"
                      for e in pointed[first:first + 4])
        pages.append(View("Accusations", lines))
    reveals: list[tuple[Event, list[Event]]] = []
    for event in events:
        if event.kind == "reveal":
            reveals.append((event, []))
        elif event.kind in ("out", "trash", "no_trash") and reveals and \
                event.data.get("why") != "playoff":
            reveals[-1][1].append(event)
    for reveal, after in reveals:
        player, card = reveal.data["player"], reveal.data["card"]
        accused = bool(reveal.data["accused_by"])
        outs = [e.data["player"] for e in after if e.kind == "out"]
        if card == "steal" and accused:
            line = "Caught! Out of game"
        elif card == "alibi" and outs:
            line = f"Out: {_names(outs)}"
            if len(line) > CHARS:
                line = f"{len(outs)} accusers are out"
        elif card == "accuse":
            line = "Accused: no effect" if accused else "No trash"
        elif card == "steal":
            got = [e for e in after if e.kind == "trash"]
            line = f"Takes trash ({got[0].data['trash']})" if got else "Pile empty: nothing"
        else:
            line = "Safe. No trash."
        title = f"{player} {'was accused' if accused else 'reveals'}"
        pages.append(View(title if len(title) <= CHARS else player, (line,), big=SHORT[card]))
    for event in events:
        if event.kind == "playoff":
            pages.append(View("Play-off!", tuple(wrap("Only " + _names(event.data["players"]) +
                                                      " play on until one leads.")[:4])))
    if any(e.kind == "round" for e in events):
        pages.append(standings_view(state, f"Round {state.round} next"))
    return pages


def standings_view(state: TatortTonne, title: str) -> View:
    """Who is still in and how much trash each holds, packed into four lines."""
    parts = [f"{p} {state.trash[p]}" for p in state.still_in()]
    lines = wrap("Trash: " + ", ".join(parts))
    lines = lines[:3] + [f"Pile: {state.trash_left} left"]
    return View(title, tuple(lines))


def final_view(state: TatortTonne) -> View:
    winners = list(state.winners())
    if len(winners) == 1:
        name = winners[0]
        return View("Game over: winner", (f"{state.trash[name]} trash",), big=name,
                    footer="OK: menu")
    return View("Shared win!", tuple(wrap(" & ".join(winners))[:3]) +
                (f"{state.trash[winners[0]]} trash each",), footer="OK: menu")
