"""Bunte Runde at the table: laying out the circle, 1-3 steps a turn, the take and the scorings.

Set-up picks the set (B1) and the layout (B2 dealt from the seed, or B7 free). A dealt circle is
walked through first, one place a screen with the piece large (its glyph and colour, the shape
below); then the screen says where the figure starts (B2). Then, turn by turn, the player to move
presses A/B/C at their station for 1/2/3 steps (B3); any seat may also use the host panel (NEXT
picks the steps, OK moves), which is how seats without a station play. The turn screen names the
piece each choice lands on. In a free layout (B7) the player to move reports the piece they took:
NEXT/OK at the host panel pick the colour, then the shape (BACK returns to the colour); at their
station A = NEXT, B = OK, C = BACK. After each move pages follow (OK turns them): the take, a
double scoring, the large coin (B5), one page per scoring (who gains how many coins) and the
coins; at the end the final coins, then the winner with the win sound (B6). Undo says what to
put back: the piece, where the figure goes, the coins. Every refused press says why.
"""

from __future__ import annotations

from typing import Any

from ....games.bunte_runde import BunteRunde
from ....games.core import Event
from ...i18n import _
from ...screen.render import View
from ...session import Session
from ..base import Page, Referee, Table
from .public import Public
from .screens import (SCORE_S, final_view, layout_count, layout_page, move_pages, pick_colours,
                      pick_shapes, pick_view, put_back_pages, turn_view)

KEYS = {"A": 1, "B": 2, "C": 3}
PICK_KEYS = {"A": "next", "B": "ok", "C": "back"}  # a station in a free layout


class BunteRundeReferee(Referee[BunteRunde]):
    def __init__(self, table: Table, session: Session) -> None:
        super().__init__(table, session)
        self.cursor = 0                      # host panel: steps - 1, or the picker's line
        self.pick_colour: str | None = None  # free layout: the colour picked, shape next
        self.walk: int | None = None         # dealt layout: the lay-out screen shown, else None
        self.final_page = 0                  # the end: 0 the winner, then the final coins
        self._known = self.seen              # what the table has seen (for undo)
        self._start_walk()

    @property
    def seen(self) -> Public:
        """The game as the table sees it: what the screens read."""
        return self.public_as(Public)

    def _steps(self) -> list[int]:
        """The moves the player to move may make (B3), from the engine."""
        player = self.state.turn()
        return self.legal_values(player, "move", "steps") if player else []

    def _takes(self) -> list[dict[str, Any]]:
        """Free layout (B7): the pieces the player to move may report taking."""
        player = self.state.turn()
        return self.legal_of(player, "take") if player else []

    # -- events from the App ---------------------------------------------------------------------
    def _start_walk(self) -> None:
        self.walk = 0 if not self.state.free and not self.session.actions else None

    def resumed(self) -> None:
        self._known = self.seen
        self._start_walk()

    def after_undo(self) -> None:
        old, new = self._known, self.seen
        super().after_undo()
        self.cursor, self.pick_colour, self.walk = 0, None, None
        self._known = new
        pages = put_back_pages(old, new)
        if pages:  # the App shows no notice over them; its guard keeps a late OK off them
            self.pages.show([Page(view, SCORE_S) for view in pages])

    def on_station(self, station: int, key: str) -> None:
        player = self.station_player(station)
        if player is None:
            return
        refusal = self._refusal(player)
        if refusal is not None:
            self.refuse(*refusal)
            return
        if self.pages:
            self.pages.stop()             # a take page gives way to the next move
        if self.state.free:
            if not self._pick(PICK_KEYS[key]):
                self.refuse(_("Pick a colour first: A move, B pick."))
        else:
            self.act({"type": "move", "player": player, "steps": KEYS[key]})

    def _refusal(self, player: str) -> tuple[str, ...] | None:
        """Why ``player``'s press does nothing now (the lines to flash), or None: it may act."""
        if self.walk is not None:  # only before the first move: never over
            return (_("Lay out the circle first: OK at the box."),)
        turn = self.turn_refusal(player)
        if turn is not None:
            return turn
        if self.pages and not self.pages.all_minor():
            return (_("Wait: read the screen, then press OK at the box."),)
        return None

    def on_host(self, key: str) -> bool:
        if self.pages:
            return self.pages.on_host(key)
        if self.state.is_over:
            if key == "next":             # the winner, then the final coins, round again
                self.final_page += 1
                return True
            return False
        if self.walk is not None:
            return self._host_walk(key)
        if self.state.free:
            return self._pick(key)
        steps = self._steps()
        if key == "next":
            self.cursor = (self.cursor + 1) % len(steps)
            return True
        if key == "ok":
            self.act({"type": "move", "player": self.state.turn(),
                      "steps": steps[self.cursor % len(steps)]})
            return True
        return False

    def _host_walk(self, key: str) -> bool:
        assert self.walk is not None
        if key in ("ok", "next"):
            self.walk += 1
            if self.walk >= layout_count(self.seen):
                self.walk = None
                self.table.beep("go")
            return True
        if key == "back" and self.walk > 0:
            self.walk -= 1
            return True
        return False

    def _pick(self, key: str) -> bool:
        """Free layout: NEXT/OK pick the colour, then the shape; BACK returns to the colour."""
        state = self.state
        takes = self._takes()
        choices = (pick_colours(takes) if self.pick_colour is None
                   else pick_shapes(takes, self.pick_colour))
        if key == "next":
            self.cursor = (self.cursor + 1) % len(choices)
        elif key == "ok":
            choice = choices[self.cursor % len(choices)]
            if self.pick_colour is None:
                self.pick_colour, self.cursor = choice, 0
            else:
                self.act({"type": "take", "player": state.turn(), "colour": self.pick_colour,
                           "shape": choice})
        elif key == "back":
            if self.pick_colour is None:
                return False
            self.cursor = pick_colours(takes).index(self.pick_colour)
            self.pick_colour = None
        return True

    # -- applying --------------------------------------------------------------------------------
    def react(self, events: list[Event]) -> None:
        """What follows an accepted action (from here or the serial link): the buzzer, the pages."""
        self.cursor, self.pick_colour, self.walk, self.final_page = 0, None, None, 0
        self._known = self.seen
        won = any(e.kind == "winner" for e in events)
        if any(e.kind == "scoring" for e in events):
            self.table.beep("score")
        else:
            self.table.beep("click")
        self.pages.show(move_pages(events, self.seen), finale="win" if won else None)

    # -- the screen ------------------------------------------------------------------------------
    def end_view(self) -> View:
        return final_view(self.seen, self.final_page)

    def play_view(self) -> View:
        state = self.state
        if self.walk is not None:
            return layout_page(self.seen, self.walk)
        if state.free:
            return self._pick_view()
        return self._turn_view()

    def _turn_view(self) -> View:
        player = self.state.turn()
        assert player is not None
        return turn_view(self.seen, player, self.has_station(player), self._steps(), self.cursor)

    def _pick_view(self) -> View:
        player = self.state.turn()
        assert player is not None
        return pick_view(player, self.has_station(player), self._takes(), self.pick_colour,
                         self.cursor)
