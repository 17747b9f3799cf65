"""Bunte Runde at the table: laying out the circle, 1-3 steps a turn, the take and the scorings.

Set-up picks the set (B1) and the layout (B2 dealt from the seed, or B7 free). A dealt circle is
walked through first, four places a screen, each piece as its shape's glyph with colour and shape
named; the figure starts on place 1 (B2). Then, turn by turn, the player to move presses A/B/C at
their station for 1/2/3 steps (B3); any seat may also use the host panel (NEXT picks the steps, OK
moves), which is how seats without a station play. The turn screen names the piece each choice
lands on. In a free layout (B7) the player to move reports the piece they took: NEXT/OK at the host
panel pick the colour, then the shape (BACK returns to the colour); at their station A = NEXT,
B = OK, C = BACK. After each move pages follow, each shown for a moment (OK skips): the take, then
a double scoring's announcement, the large coin (B5), one page per scoring (who gains how many
coins) and the coin standings; the end shows the ranking (B6). Undo names the piece to put back.
"""

from __future__ import annotations

from typing import Any

from ...games.bunte_runde import STEPS, BunteRunde, landing
from ...games.core import Event
from ..screens import CHARS, View
from ..session import Session
from .base import Page, Pages, SetupOption, Table, seat_player

PAGE_S = 2.5        # a take page; the next player's press skips it
SCORE_S = 3.5       # scoring, large coin and standings pages
PER_PAGE = 4        # circle places per lay-out screen
KEYS = {"A": 1, "B": 2, "C": 3}
PICK_KEYS = {"A": "next", "B": "ok", "C": "back"}  # a station in a free layout

# The glyph each standard shape or animal is drawn with (screens.GLYPHS holds the bitmaps).
GLYPH = {"circle": "\u25cf", "square": "\u25a0", "triangle": "\u25b2", "star": "\u2605",
         "heart": "\u2665", "cross": "\u271a", "cat": "\U0001f431", "dog": "\U0001f436",
         "fish": "\U0001f41f", "bird": "\U0001f426", "frog": "\U0001f438"}


def glyph(shape: str) -> str:
    """The glyph of a shape (or animal), "" for a name without one (a custom layout)."""
    return GLYPH.get(shape, "")


def piece_text(colour: str, shape: str) -> str:
    """"● red circle": glyph, colour and shape."""
    mark = glyph(shape)
    return f"{mark} {colour} {shape}" if mark else f"{colour} {shape}"


def _steps(n: int) -> str:
    return f"{n} step" if n == 1 else f"{n} steps"


def pick_colours(state: BunteRunde) -> list[str]:
    """Free layout: the colours that still have a piece, in set order."""
    return [c for c in state.colours if state.left_of(0, c)]


def pick_shapes(state: BunteRunde, colour: str) -> list[str]:
    """Free layout: the shapes of ``colour`` not taken yet, in set order."""
    return [s for s in state.shapes
            if not state.taken[state.pieces.index((colour, s))]]


class BunteRundeReferee:
    SETUP = (
        SetupOption("set", "Set", ("pieces", "tiles"), "pieces", "B1",
                    names=("36 pieces", "25 tiles")),
        # None is the engine's own "no layout given": it deals the circle from the seed (B2).
        SetupOption("layout", "Layout", (None, "free"), None, "B2",
                    names=("dealt", "free")),
    )

    def __init__(self, table: Table, session: Session) -> None:
        self.table = table
        self.session = session
        self.pages = Pages(table)
        self.cursor = 0                      # host panel: steps - 1, or the picker's line
        self.pick_colour: str | None = None  # free layout: the colour picked, shape next
        self.walk: int | None = None         # dealt layout: the lay-out screen shown, else None
        self.final_page = 0                  # the ranking's screen (five or six players)
        self._known = self.state             # the state the table has seen (for undo)
        self._start_walk()

    @property
    def state(self) -> BunteRunde:
        return self.session.state  # type: ignore[return-value]

    # -- seats -----------------------------------------------------------------------------------
    def _seat_player(self, station: int) -> str | None:
        return seat_player(self.table, self.state.players, station)

    def _has_station(self, player: str) -> bool:
        return self.table.station_of(self.state.players.index(player)) is not None

    # -- events from the App ---------------------------------------------------------------------
    def _start_walk(self) -> None:
        self.walk = 0 if not self.state.free and not self.session.actions else None

    def resumed(self) -> None:
        self._known = self.state
        self._start_walk()

    def close(self) -> None:
        self.pages.stop()

    def private(self) -> bool:
        return False  # every move is made in the open

    def after_undo(self) -> None:
        old, new = self._known, self.state
        self.pages.stop()
        self.cursor, self.pick_colour, self.walk = 0, None, None
        self._known = new
        back = [(p, piece) for p in new.players
                for piece in old.held[p][len(new.held[p]):]]
        if not back:
            return
        player, (colour, shape) = back[0]
        lines = [piece_text(colour, shape)]
        if old.coins_left != new.coins_left or old.large_coin != new.large_coin:
            lines.append("and the scoring coins")
        if new.figure is not None:
            lines.append(f"Figure to place {new.figure + 1}")
        lines.append(f"{new.turn()} moves again.")
        self.pages.show([Page(View(f"{player}: put back", tuple(lines[:4])), SCORE_S)])

    def on_station(self, station: int, key: str) -> None:
        player = self._seat_player(station)
        if player is None:
            self.table.flash("Nobody plays at", f"station {station + 1}")
            return
        state = self.state
        if state.is_over:
            self.table.beep("error")
            return
        if self.walk is not None:
            self.table.beep("error")
            self.table.flash("Lay out the circle", "first: OK at the host", "panel")
            return
        if player != state.turn():
            self.table.beep("error")
            self.table.flash(f"It's {state.turn()}'s turn")
            return
        if self.pages:
            if not self.pages.all_minor():
                self.table.beep("error")
                return
            self.pages.stop()
        if state.free:
            self._pick(PICK_KEYS[key])
        else:
            self._act({"type": "move", "player": player, "steps": KEYS[key]})

    def on_host(self, key: str) -> bool:
        if self.pages:
            return self.pages.on_host(key)
        if self.state.is_over:
            if key == "next" and len(self.state.players) > 4:
                self.final_page += 1
                return True
            return False
        if self.walk is not None:
            return self._host_walk(key)
        if self.state.free:
            return self._pick(key)
        if key == "next":
            self.cursor = (self.cursor + 1) % len(STEPS)
            return True
        if key == "ok":
            self._act({"type": "move", "player": self.state.turn(), "steps": STEPS[self.cursor]})
            return True
        return False

    def _host_walk(self, key: str) -> bool:
        assert self.walk is not None
        if key in ("ok", "next"):
            self.walk += 1
            if self.walk >= len(layout_pages(self.state)):
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
        choices = (pick_colours(state) if self.pick_colour is None
                   else pick_shapes(state, self.pick_colour))
        if key == "next":
            self.cursor = (self.cursor + 1) % len(choices)
        elif key == "ok":
            choice = choices[self.cursor % len(choices)]
            if self.pick_colour is None:
                self.pick_colour, self.cursor = choice, 0
            else:
                self._act({"type": "take", "player": state.turn(), "colour": self.pick_colour,
                           "shape": choice})
        elif key == "back":
            if self.pick_colour is None:
                return False
            self.cursor = pick_colours(state).index(self.pick_colour)
            self.pick_colour = None
        return True

    # -- applying --------------------------------------------------------------------------------
    def _act(self, action: dict[str, Any]) -> None:
        events = self.table.apply(action)
        if events is not None:
            self.react(events)

    def react(self, events: list[Event]) -> None:
        """What follows an accepted action (from here or the serial link): the buzzer, the pages."""
        self.cursor, self.pick_colour, self.walk = 0, None, None
        self._known = self.state
        if any(e.kind == "winner" for e in events):
            self.table.beep("win")
        elif any(e.kind == "scoring" for e in events):
            self.table.beep("score")
        else:
            self.table.beep("click")
        self.pages.show(move_pages(events, self.state))

    # -- the screen ------------------------------------------------------------------------------
    def view(self) -> View:
        state = self.state
        if self.pages:
            return self.pages.view()
        if state.is_over:
            return final_view(state, self.final_page)
        if self.walk is not None:
            return layout_pages(state)[self.walk]
        if state.free:
            return self._pick_view()
        return self._turn_view()

    def _turn_view(self) -> View:
        state = self.state
        player = state.turn()
        assert player is not None
        station = self._has_station(player)
        lines = []
        for steps in STEPS:
            colour, shape = state.pieces[landing(state, steps)]
            key = f"{'ABC'[steps - 1]} {steps}" if station else f"{steps}"
            lines.append(f"{key} {piece_text(colour, shape)}")
        lines.append(f"You: {state.coins(player)} coins, pot {state.coins_left}")
        title = f"{player}'s turn" if station else f"{player}'s turn (host)"
        return View(title if len(title) <= CHARS else player, tuple(lines), cursor=self.cursor,
                    footer="A/B/C or NEXT+OK" if station else "NEXT steps  OK move")

    def _pick_view(self) -> View:
        state = self.state
        player = state.turn()
        assert player is not None
        station = self._has_station(player)
        if self.pick_colour is None:
            title = f"{player}: which colour?"
            lines = tuple(pick_colours(state))
            footer = "A/NEXT next B/OK pick" if station else "NEXT colour  OK pick"
        else:
            title = f"{player}: which {self.pick_colour}?"
            lines = tuple(piece_text(self.pick_colour, s)
                          for s in pick_shapes(state, self.pick_colour))
            footer = "A next B take C back" if station else "NEXT  OK take  BACK"
        return View(title if len(title) <= CHARS else f"{player} took?", lines,
                    cursor=self.cursor % len(lines), footer=footer)


# -- screens ---------------------------------------------------------------------------------------
def layout_pages(state: BunteRunde) -> list[View]:
    """The walk-through of a dealt circle: an introduction, four places a screen, the figure."""
    size = len(state.pieces)
    first_piece = piece_text(*state.pieces[state.figure or 0])
    pages = [View("Lay out the circle", ("Clockwise, place 1", f"first. {PER_PAGE} places a",
                                         "screen; the figure", "starts on place 1."),
                  footer="OK next  BACK menu")]
    for first in range(0, size, PER_PAGE):
        last = min(size, first + PER_PAGE)
        lines = _block([f"{i + 1:>2} {piece_text(*state.pieces[i])}" for i in range(first, last)])
        pages.append(View(f"Lay out {first + 1}-{last} of {size}", lines,
                          footer="OK next  BACK back"))
    start = (state.figure or 0) + 1
    pages.append(View("Start", (f"Put the figure on {start}:", first_piece,
                                 f"{state.players[0]} starts.", "A/B/C: 1/2/3 steps"),
                      footer="OK play  BACK back"))
    return pages


def pack(parts: list[str], sep: str = ", ") -> list[str]:
    """Join ``parts`` into lines of at most CHARS characters without breaking a part."""
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + len(sep) + len(part) <= CHARS:
            lines[-1] += sep + part
        else:
            lines.append(part[:CHARS])
    return lines


def _block(lines: list[str]) -> tuple[str, ...]:
    """Lines padded to one width, so the centred body keeps a straight left edge."""
    width = max(len(line) for line in lines)
    return tuple(line.ljust(width) for line in lines)


def standings_lines(state: BunteRunde) -> list[str]:
    """Every player's coins, packed into lines."""
    return pack([f"{p} {state.coins(p)}" for p in state.players])


def move_pages(events: list[Event], state: BunteRunde) -> list[Page]:
    """What the table sees after a move: the take, a double scoring, the large coin, each scoring,
    then the standings (or, at the end, the ranking that ``final_view`` shows)."""
    pages: list[Page] = []
    scorings = [e for e in events if e.kind == "scoring"]
    n = state.n
    for event in events:
        data = event.data
        if event.kind == "take":
            colour, shape = data["colour"], data["shape"]
            mark = glyph(shape)
            big = f"{mark} {colour}" if mark else colour
            line = shape if data["steps"] is None else f"{shape}, {_steps(data['steps'])}"
            verb = "took" if data["steps"] is None else "takes"
            pages.append(Page(View(f"{data['player']} {verb}", (line,), big=big), PAGE_S,
                              minor=not scorings))
            if len(scorings) == 2:
                named = f"{mark} {shape}" if mark else shape
                pages.append(Page(View("Double scoring!", (
                    f"The last {colour} and", f"the last {named}:", f"{n} coins for each.",
                ))))
        elif event.kind == "large_coin":
            pages.append(Page(View("Large coin", (
                f"Only {n} coins left:", f"{data['player']} swaps {n} small",
                "coins for the large", f"coin (worth {n}).",
            ))))
        elif event.kind == "large_coin_skipped":
            pages.append(Page(View("Large coin", (
                f"Only {n} coins left,", f"nobody holds {n}:", "no swap. Both paid",
                "in full anyway.",
            ))))
        elif event.kind == "scoring":
            value = data["value"]
            mark = glyph(value) if data["what"] == "shape" else ""
            title = f"Last {mark} {value}!" if mark else f"Last {value}!"
            lines = pack([f"{p} +{c}" for p, c in data["payouts"].items() if c])[:3]
            left = data["coins_left"]
            lines.append(f"{left} coins left" if left else "No coins left!")
            if len(title) > CHARS:
                title = "Scoring!"
            pages.append(Page(View(title, tuple(lines))))
    if scorings and not state.is_over:
        pages.append(Page(View(f"Coins ({state.coins_left} left)",
                               tuple(standings_lines(state)[:4]))))
    return pages


def ranking(state: BunteRunde) -> list[tuple[int, str, int]]:
    """(place, player, coins), best first; equal coins share a place (B6)."""
    order = sorted(state.players, key=lambda p: -state.coins(p))
    out: list[tuple[int, str, int]] = []
    for index, player in enumerate(order):
        coins = state.coins(player)
        place = out[-1][0] if out and out[-1][2] == coins else index + 1
        out.append((place, player, coins))
    return out


def final_view(state: BunteRunde, page: int = 0) -> View:
    """The ranking (B6), one player a line; five or six players take two screens (NEXT)."""
    winners = state.winners()
    title = f"{winners[0]} wins!" if len(winners) == 1 else "Shared win!"
    lines = [f"{place}. {player}"[:CHARS - 4].ljust(CHARS - 4) + f"{coins:>4}"
             for place, player, coins in ranking(state)]
    footer = "OK: menu"
    if len(lines) > 4:
        lines = lines[4:] if page % 2 else lines[:4]
        footer = "NEXT more  OK menu"
    return View(title if len(title) <= CHARS else "Winner!", tuple(lines), footer=footer)
