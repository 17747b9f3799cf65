"""Bunte Runde (Knizia): a figure round a circle of pieces; colour and shape scorings (B1-B7).

Two sets (B1): ``pieces`` (6 colours x 6 shapes) and ``tiles`` (5 colours x 5 animals). With a
set of N colours x N shapes there are N*N small coins, a scoring pays N coins and the large coin is
worth N. The layout (B2) is an option (any colour and shape names, but a full set), dealt from the
seed, or ``"free"`` (B7): the table lays the circle out itself and reports each piece taken by
the set's standard names (``COLOURS`` and ``SHAPES`` below); ``start`` is then checked but unused.

Coin accounting. The start piece stays on the board until somebody takes it, so when the last piece
of a colour (shape) is taken all N of them are held by players: every scoring pays exactly N coins
and the supply is always a multiple of N. A double scoring that finds only N small coins left first
swaps N small coins of the richest player for the large coin (B5). If nobody holds N small coins the
swap is skipped and the double scoring is still paid in full: the players are credited every coin,
``coins_left`` stops at 0 and the coins paid beyond the supply are counted in ``shortfall`` (the
table uses stand-ins for them). Either way the game then ends (B6).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Sequence

from .core import (
    Action,
    Event,
    GameInfo,
    IllegalAction,
    SetupError,
    State,
    Option,
    check_options,
    check_players,
    field_of,
    ranking,
    require,
)

SETS = ("pieces", "tiles")
COLOURS: dict[str, tuple[str, ...]] = {
    "pieces": ("red", "yellow", "green", "blue", "purple", "orange"),
    "tiles": ("red", "yellow", "green", "blue", "purple"),
}
SHAPES: dict[str, tuple[str, ...]] = {
    "pieces": ("circle", "square", "triangle", "star", "heart", "cross"),
    "tiles": ("cat", "dog", "fish", "bird", "frog"),
}
STEPS = (1, 2, 3)
OPTIONS = (
    Option("set", "pieces", "Set", ("pieces", "tiles"), ("36 pieces", "25 tiles"),
           ("6 colours, 6 shapes", "5 colours, 5 animals"), ruling="B1"),
    # None is "no layout given": the circle is dealt from the seed (B2); a list of pairs is a
    # layout given, "free" the players' own (B7).
    Option("layout", None, "Circle", (None, "free"), ("dealt", "free"),
           ("the box says where", "you lay it out"), ruling="B2"),
    Option("start", 0),
)

Phase = Literal["play", "over"]  # the game's phases, in the order they come

Piece = tuple[str, str]


def side(set_name: str) -> int:
    """N: colours (= shapes) in the set, the coins of one scoring and the large coin's value."""
    return len(COLOURS[set_name])


def full_set(set_name: str) -> list[Piece]:
    """Every (colour, shape) pair of the set under its standard names, colour by colour."""
    return [(c, s) for c in COLOURS[set_name] for s in SHAPES[set_name]]


@dataclass
class BunteRunde(State):
    ACTIONS = ("move", "take")
    game = "bunte-runde"

    players: tuple[str, ...]
    set_name: str
    colours: tuple[str, ...]
    shapes: tuple[str, ...]
    pieces: tuple[Piece, ...]  # the circle clockwise; in a free layout the set in standard order
    free: bool
    figure: int | None  # index into ``pieces``; None in a free layout
    seed: int = 0
    taken: list[bool] = field(default_factory=list)
    turn_index: int = 0
    coins_left: int = 0
    shortfall: int = 0  # small coins paid beyond an empty supply (B5: paid in full anyway)
    small_coins: dict[str, int] = field(default_factory=dict)
    held: dict[str, list[Piece]] = field(default_factory=dict)
    large_coin: str | None = None
    phase: Phase = "play"
    won_by: tuple[str, ...] = ()

    # -- queries ---------------------------------------------------------------------------------
    @property
    def n(self) -> int:
        """Colours (= shapes) in the set: coins per scoring and the large coin's value (B1)."""
        return len(self.colours)

    def turn(self) -> str | None:
        """The player to move, or None when the game is over."""
        return None if self.is_over else self.players[self.turn_index]

    def waiting_for(self) -> tuple[str, ...]:
        return () if self.is_over else (self.players[self.turn_index],)

    def coins(self, player: str) -> int:
        """Points: small coins plus the large coin's value if ``player`` holds it (B5)."""
        return self.small_coins[player] + (self.n if self.large_coin == player else 0)

    def left_of(self, index: int, value: str) -> int:
        """Pieces still on the board whose colour (index 0) or shape (index 1) is ``value``."""
        return sum(1 for p, t in zip(self.pieces, self.taken) if not t and p[index] == value)

    def pieces_left(self) -> int:
        return self.taken.count(False)

    def legal_actions(self, player: str) -> list[dict[str, Any]]:
        """B3: the player to move moves 1, 2 or 3 steps; B7: in a free layout they take any piece
        still on the board, by the set's standard names."""
        if self.is_over or player != self.players[self.turn_index]:
            return []
        if self.free:
            return [{"type": "take", "player": player, "colour": c, "shape": s}
                    for (c, s), t in zip(self.pieces, self.taken) if not t]
        return [{"type": "move", "player": player, "steps": s} for s in STEPS]

    def standings(self) -> list[tuple[int, str, Any]]:
        """(rank, player, coins), most coins first; equal coins share a rank (B6)."""
        return ranking((p, self.coins(p), self.coins(p)) for p in self.players)

    def public(self) -> dict[str, Any]:
        nxt = [] if self.free or self.is_over else [landing(self, s) for s in STEPS]
        return {
            "game": self.game,
            "phase": self.phase,
            "set": self.set_name,
            "turn": self.turn(),
            "waiting_for": list(self.waiting_for()),
            "free": self.free,
            "figure": self.figure,
            "layout": None if self.free else [[c, s, t]
                                              for (c, s), t in zip(self.pieces, self.taken)],
            "colours": list(self.colours),
            "shapes": list(self.shapes),
            "pieces_left": self.pieces_left(),
            "remaining": {
                "colours": {c: self.left_of(0, c) for c in self.colours},
                "shapes": {s: self.left_of(1, s) for s in self.shapes},
            },
            "next_landing": nxt,
            "next_pieces": [list(self.pieces[i]) for i in nxt],
            "coins_left": self.coins_left,
            "shortfall": self.shortfall,
            "large_coin": self.large_coin,
            "large_coin_value": self.n,
            "players": [
                {"name": p, "coins": self.coins(p), "small_coins": self.small_coins[p],
                 "pieces": [list(x) for x in self.held[p]]}
                for p in self.players
            ],
            "winners": list(self.won_by),
            "standings": [list(row) for row in self.standings()],
        }

    # -- actions ---------------------------------------------------------------------------------
    def _player(self, action: Action) -> str:
        name = field_of(action, "player", str)
        require(name in self.small_coins, "no player {name!r}", name=name)
        turn = self.players[self.turn_index]
        require(name == turn, "{turn}'s turn, not {name}'s", turn=turn, name=name)
        return name

    def _move(self, action: Action) -> list[Event]:
        player = self._player(action)
        require(not self.free, "free layout: use take")
        steps = field_of(action, "steps", int)
        require(steps in STEPS, "steps: 1, 2 or 3")
        index = landing(self, steps)
        self.figure = index  # B3: the figure stays on the place it emptied
        return self._collect(player, index, steps)

    def _take(self, action: Action) -> list[Event]:
        player = self._player(action)
        require(self.free, "take: free layout only")
        colour = field_of(action, "colour", str)
        shape = field_of(action, "shape", str)
        require(colour in self.colours, "no colour {value!r}", value=colour)
        require(shape in self.shapes, "no animal {value!r}" if self.set_name == "tiles"
                else "no shape {value!r}", value=shape)
        index = self.pieces.index((colour, shape))
        require(not self.taken[index], "{colour} {shape} is already taken",  # B7
                colour=colour, shape=shape)
        return self._collect(player, index, None)

    # -- taking and scoring (B3-B6) --------------------------------------------------------------
    def _collect(self, player: str, index: int, steps: int | None) -> list[Event]:
        colour, shape = self.pieces[index]
        self.taken[index] = True
        self.held[player].append((colour, shape))
        events = [Event("take", f"{player} takes {colour} {shape}",
                        {"player": player, "colour": colour, "shape": shape,
                         "index": None if self.free else index, "steps": steps})]
        scored = [(0, colour)] if self.left_of(0, colour) == 0 else []
        if self.left_of(1, shape) == 0:
            scored.append((1, shape))
        double = len(scored) == 2  # B4
        if double and self.coins_left < 2 * self.n and self.large_coin is None:
            events.append(self._swap())  # B5: before the double scoring
        for what, value in scored:
            events.append(self._score(what, value, double))
        if scored and self.coins_left == 0:  # B6
            events.append(self._finish())
        else:
            self.turn_index = (self.turn_index + 1) % len(self.players)
        return events

    def _swap(self) -> Event:
        """B5: the richest in small coins (earliest seat on a tie) swaps N for the large coin."""
        n = self.n
        holder = max(self.players, key=lambda p: self.small_coins[p])  # first seat on a tie
        if self.small_coins[holder] < n:
            return Event("large_coin_skipped", f"Nobody has {n} coins: no swap",
                         {"player": None, "coins": n})
        self.small_coins[holder] -= n
        self.coins_left += n
        self.large_coin = holder
        return Event("large_coin", f"{holder} swaps {n} for the large coin",
                     {"player": holder, "coins": n})

    def _score(self, what: int, value: str, double: bool) -> Event:
        """B4: every player gets one coin per piece of ``value`` they hold; always paid in full."""
        payouts = {p: sum(1 for x in self.held[p] if x[what] == value) for p in self.players}
        total = sum(payouts.values())
        for p, coins in payouts.items():
            self.small_coins[p] += coins
        self.coins_left -= total
        if self.coins_left < 0:  # only a double scoring whose swap was skipped (B5)
            self.shortfall -= self.coins_left
            self.coins_left = 0
        gains = " ".join(f"{p}+{c}" for p, c in payouts.items() if c)
        return Event("scoring", f"Last {value}: {gains}",
                     {"what": "colour" if what == 0 else "shape", "value": value,
                      "payouts": payouts, "total": total, "double": double,
                      "coins_left": self.coins_left})

    def _finish(self) -> Event:
        """B6: most coins (large coin included) wins; a tie shares the win."""
        top = max(self.coins(p) for p in self.players)
        self.won_by = tuple(p for p in self.players if self.coins(p) == top)
        self.phase = "over"
        text = " & ".join(self.won_by) + (" wins" if len(self.won_by) == 1 else " win")
        return Event("winner", text, {"players": list(self.won_by),
                                      "coins": {p: self.coins(p) for p in self.players}})


def landing(state: BunteRunde, steps: int) -> int:
    """B3: the index a move of ``steps`` reaches, counting only places that still hold a piece,
    starting after the figure's place and wrapping round (with one piece left, every move lands on
    it)."""
    if state.figure is None:
        raise IllegalAction("free layout: no figure")
    if state.pieces_left() == 0:
        raise IllegalAction("no piece left")
    size = len(state.pieces)
    index = state.figure
    count = 0
    while count < steps:
        index = (index + 1) % size
        if not state.taken[index]:
            count += 1
    return index


def _check_layout(layout: Any, set_name: str) -> tuple[Piece, ...]:
    """A given circle (B2): a full set, N colours x N shapes under any names, each pair once."""
    n = side(set_name)
    if not isinstance(layout, (list, tuple)) or len(layout) != n * n:
        raise SetupError("layout: {count} pairs [colour, shape]", count=n * n)
    pieces: list[Piece] = []
    for pair in layout:
        if (not isinstance(pair, (list, tuple)) or len(pair) != 2
                or not all(isinstance(x, str) and x.strip() for x in pair)):
            raise SetupError("layout: pairs of names [colour, shape]")
        pieces.append((pair[0].strip(), pair[1].strip()))
    if len({c for c, _ in pieces}) != n:
        raise SetupError("layout: {n} colours", n=n)
    if len({s for _, s in pieces}) != n:
        raise SetupError("layout: {n} animals" if set_name == "tiles" else "layout: {n} shapes",
                         n=n)
    if len(set(pieces)) != len(pieces):
        raise SetupError("layout: a pair twice")
    return tuple(pieces)


def _in_order(names: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(names))


def new_game(players: Sequence[str], options: Mapping[str, Any] | None = None,
             seed: int = 0) -> BunteRunde:
    """Start a game (B1, B2, B7). Without a ``layout`` option the circle is dealt by shuffling the
    set (standard names) with ``random.Random(seed)``; the game has no other chance."""
    names = check_players(players, 2, 6)
    opts = check_options(options, OPTIONS)
    set_name = opts["set"]
    if not isinstance(set_name, str) or set_name not in SETS:
        raise SetupError("set: pieces or tiles")
    n = side(set_name)
    start = opts["start"]
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < n * n:
        raise SetupError("start: 0 to {last}", last=n * n - 1)
    layout = opts["layout"]
    free = False
    if layout is None:
        pieces = full_set(set_name)
        random.Random(seed).shuffle(pieces)
        circle = tuple(pieces)
    elif isinstance(layout, str):
        if layout != "free":
            raise SetupError("layout: pairs or \"free\"")
        free = True
        circle = tuple(full_set(set_name))
    else:
        circle = _check_layout(layout, set_name)
    if free or layout is None:
        colours, shapes = COLOURS[set_name], SHAPES[set_name]
    else:
        colours = _in_order([c for c, _ in circle])
        shapes = _in_order([s for _, s in circle])
    return BunteRunde(
        players=names,
        set_name=set_name,
        colours=colours,
        shapes=shapes,
        pieces=circle,
        free=free,
        figure=None if free else start,  # B2: the figure starts on the start piece, which stays
        seed=seed,
        taken=[False] * (n * n),
        coins_left=n * n,
        small_coins={p: 0 for p in names},
        held={p: [] for p in names},
    )


INFO = GameInfo("bunte-runde", "Bunte Runde", 2, 6, new_game, options=OPTIONS,
                values={"colour": COLOURS["pieces"], "shape": SHAPES["pieces"] + SHAPES["tiles"],
                        "steps": (1, 2, 3)})
