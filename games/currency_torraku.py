"""Currency Torraku (Jordan Draper): bid how many pieces you can stack, then stack them (C1-C4).

Referee's decisions where the rulebook leaves a detail open (docs/games.md):

- C1 ``bag`` is what lies in the bag after the normal deal (2 trucks, 2 washing machines, 6 rice
  cookers each), whatever the player count; a ``bag`` object names some or all kinds, the rest
  keep their defaults. With ``long`` each kind's total (deal plus bag) is dealt evenly, the
  remainder stays in the bag.
- C2 The bag helps only to *reach* the current bid (the rulebook's note): a player who has not bid
  this round and owns fewer pieces than the highest bid may match it, drawing the difference, if
  the bag holds that many; otherwise they can only pass. Raises never go beyond one's own pieces.
  The opener's first action must be a bid (1 up to their pieces); later in the round they may pass.
- No chance: the drawer chooses the kinds (rulebook), so the seed is only recorded.
- Kinds. Only the count matters to the rules, and the box never sees which kinds a row holds or
  which kinds come out of the bag. For every player (and the bag) it keeps an upper bound per kind:
  exact after the deal, tightened by a ``place`` that names a kind, loosened by draws, collapses and
  places that name none. ``place`` with a kind is legal while the player's row may still hold that
  kind, so the box refuses a third truck from a row that had two at most, never a possible one.
  ``stack_kinds`` lists the stack bottom up, ``null`` where the kind was not recorded. A
  ``piece`` given must name a kind (``null`` is refused: leave the field out).
- C3 ``collapse`` needs a stack (a falling piece with no stack is ``drop``); the piece in hand is
  the player's next row piece and goes back to their supply with the stack. ``drop`` changes
  nothing. Both come only from the player whose turn it is, as does ``place``.
- C3's "last passer with an empty row" cannot happen (everybody acts once before the opener acts
  again, so the last to pass has bid), nor C2's "nobody placed" (a collapse needs a stack); both
  are handled as ruled all the same.
- C4 Winners are checked only at the end of a round. The next round opens with the last player
  who placed a piece this round. ``standings()``: fewer pieces rank higher, ties share a rank.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Mapping, Sequence

from .core import (
    Action,
    Event,
    GameInfo,
    SetupError,
    State,
    Option,
    check_options,
    check_players,
    field_of,
    ranking,
    require,
)

KINDS = ("truck", "washing_machine", "rice_cooker")
START = {"truck": 2, "washing_machine": 2, "rice_cooker": 6}  # C1: each player's deal
BAG = {"truck": 6, "washing_machine": 6, "rice_cooker": 18}
OPTIONS = (
    Option("bag", BAG),
    Option("long", False, "Money", (False, True), ("standard", "all dealt"),
           ("as the rulebook says", "a longer game"), ruling="C1"),
)

Phase = Literal["bid", "stack", "over"]  # the game's phases, in the order they come

MAX_BAG = 999

Kinds = dict[str, int]


def kind_name(kind: str | None) -> str:
    return "a piece" if kind is None else "a " + kind.replace("_", " ")


@dataclass
class CurrencyTorraku(State):
    ACTIONS = ("bid", "pass", "place", "collapse", "drop")
    game = "currency-torraku"

    players: tuple[str, ...]
    seed: int = 0
    long: bool = False
    pieces: dict[str, int] = field(default_factory=dict)  # owned, row included
    row: dict[str, int] = field(default_factory=dict)  # left in this round's bid row
    bids: dict[str, int | None] = field(default_factory=dict)  # None: not bid this round
    passed: dict[str, bool] = field(default_factory=dict)
    may_own: dict[str, Kinds] = field(default_factory=dict)  # upper bounds per kind, row included
    row_may: dict[str, Kinds] = field(default_factory=dict)  # upper bounds per kind of the row
    stack: list[str | None] = field(default_factory=list)  # bottom up; None: kind not recorded
    bag: int = 0
    bag_may: Kinds = field(default_factory=dict)
    round: int = 1
    phase: Phase = "bid"
    turn_index: int | None = 0
    opener: int = 0
    last_passer: int | None = None
    last_placer: int | None = None
    won_by: tuple[str, ...] = ()

    # -- queries ---------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def winners(self) -> tuple[str, ...]:
        return self.won_by

    def turn(self) -> str | None:
        """The player expected to act, or None when the game is over."""
        return None if self.turn_index is None else self.players[self.turn_index]

    def waiting_for(self) -> tuple[str, ...]:
        return () if self.turn_index is None else (self.players[self.turn_index],)

    def highest(self) -> int:
        return max((b or 0 for b in self.bids.values()), default=0)

    def bid_range(self, player: str) -> tuple[int, int]:
        """C2: the counts ``player`` may bid now, low..high (empty when high < low)."""
        own = self.bids[player]
        top = self.highest()
        low = max(1, top, 0 if own is None else own + 1)
        high = self.pieces[player]
        if own is None and top > high:  # may draw the difference to reach the current bid
            high = top if top - high <= self.bag else high
        return low, high

    def may_pass(self, player: str) -> bool:
        return not (self.players.index(player) == self.opener and self.bids[player] is None)

    def row_kinds(self, player: str) -> list[str]:
        """The kinds ``player``'s row may still hold, as far as the box can tell."""
        if self.phase != "stack" or not self.row[player]:
            return []
        return [k for k in KINDS if self.row_may[player][k] > 0]

    def legal_actions(self, player: str) -> list[dict[str, Any]]:
        """C2 bids and passes of the bidder, C3 places (unnamed, or each kind the row may hold),
        collapse (with a stack) and drop of the stacker; nothing for anybody else."""
        if player != self.turn():
            return []
        if self.phase == "bid":
            low, high = self.bid_range(player)
            out = [{"type": "bid", "player": player, "count": c} for c in range(low, high + 1)]
            return out + ([{"type": "pass", "player": player}] if self.may_pass(player) else [])
        out = [{"type": "place", "player": player}]
        out += [{"type": "place", "player": player, "piece": k} for k in self.row_kinds(player)]
        if self.stack:
            out.append({"type": "collapse", "player": player})
        return out + [{"type": "drop", "player": player}]

    def standings(self) -> list[tuple[int, str, Any]]:
        """(rank, player, pieces): fewer pieces rank higher, equal counts share a rank."""
        return ranking((p, -self.pieces[p], self.pieces[p]) for p in self.players)

    def public(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "phase": self.phase,
            "round": self.round,
            "turn": self.turn(),
            "waiting_for": list(self.waiting_for()),
            "opener": self.players[self.opener],
            "highest": self.highest(),
            "stack": len(self.stack),
            "stack_kinds": list(self.stack),
            "bag": self.bag,
            "long": self.long,
            "players": [
                {"name": p, "pieces": self.pieces[p], "row": self.row[p], "bid": self.bids[p],
                 "passed": self.passed[p], "row_kinds": self.row_kinds(p)}
                for p in self.players
            ],
            "winners": list(self.won_by),
            "standings": [list(row) for row in self.standings()],
        }

    # -- actions ---------------------------------------------------------------------------------
    def _player(self, action: Action, phase: str) -> str:
        name = field_of(action, "player", str)
        require(name in self.pieces, "no player {name!r}", name=name)
        require(self.phase == phase, "no bidding now" if phase == "bid" else "no stacking now")
        turn = self.turn()
        require(name == turn, "{turn}'s turn, not {name}'s", turn=turn, name=name)
        return name

    def _bid(self, action: Action) -> list[Event]:
        player = self._player(action, "bid")
        count = field_of(action, "count", int)
        low, high = self.bid_range(player)
        require(high >= low, "you can only pass")
        require(count >= low, "bid at least {low}", low=low)
        require(count <= high, "bid at most {high}", high=high)
        self.bids[player] = count
        events = [Event("bid", f"{player} bids {count}", {"player": player, "count": count})]
        draw = count - self.pieces[player]
        if draw > 0:  # C2: only a first bid gets here (bid_range)
            self.bag -= draw
            self.pieces[player] += draw
            for k in KINDS:
                self.may_own[player][k] += min(draw, self.bag_may[k])
            self._cap()
            events.append(Event("draw", f"{player} draws {draw} from the bag",
                                {"player": player, "count": draw, "bag": self.bag}))
        return events + self._next_bidder()

    def _pass(self, action: Action) -> list[Event]:
        player = self._player(action, "bid")
        require(self.may_pass(player), "the opener must bid")
        bid = self.bids[player] or 0  # C2: binding, 0 if none
        self.bids[player] = bid
        self.passed[player] = True
        self.last_passer = self.players.index(player)
        events = [Event("pass", f"{player} passes at {bid}", {"player": player, "bid": bid})]
        return events + self._next_bidder()

    def _place(self, action: Action) -> list[Event]:
        player = self._player(action, "stack")
        kind = None
        if "piece" in action:
            kind = field_of(action, "piece", str)
            require(kind in KINDS, "no kind {value!r}", value=kind)
            require(self.row_may[player][kind] > 0, "no {kind} in the row",
                    kind=kind.replace("_", " "))
            self.row_may[player][kind] -= 1
            self.may_own[player][kind] -= 1
        self.row[player] -= 1
        self.pieces[player] -= 1
        self.stack.append(kind)
        self.last_placer = self.turn_index
        self._cap()
        events = [Event("place", f"{player} places {kind_name(kind)}",
                        {"player": player, "piece": kind, "stack": len(self.stack)})]
        return events + self._next_stacker(self._after(self.turn_index))

    def _collapse(self, action: Action) -> list[Event]:
        player = self._player(action, "stack")
        require(bool(self.stack), "the stack is empty")
        taken = len(self.stack) + 1  # C3: the stack and the piece in hand
        self.row[player] -= 1
        self.pieces[player] += len(self.stack)
        self._add_possible(self.may_own[player], self.stack)
        self.stack = []
        self._cap()
        events = [Event("collapse", f"{player} takes {taken} pieces",
                        {"player": player, "count": taken, "pieces": self.pieces[player]})]
        return events + self._next_stacker(self.turn_index)

    def _drop(self, action: Action) -> list[Event]:
        player = self._player(action, "stack")
        return [Event("drop", f"{player}: place it again", {"player": player})]  # C3: no penalty

    # -- turn order and rounds (C2-C4) -----------------------------------------------------------
    def _after(self, index: int | None) -> int:
        return ((index or 0) + 1) % len(self.players)

    def _seat_from(self, start: int, ok: Callable[[str], bool]) -> int | None:
        """The first seat from ``start`` clockwise (``start`` included) whose player is ``ok``."""
        n = len(self.players)
        return next(((start + i) % n for i in range(n) if ok(self.players[(start + i) % n])), None)

    def _next_bidder(self) -> list[Event]:
        nxt = self._seat_from(self._after(self.turn_index), lambda p: not self.passed[p])
        if nxt is not None:
            self.turn_index = nxt
            return []
        self.phase = "stack"  # C3: every row is laid, the kinds it may hold are bounded
        for p in self.players:
            self.row[p] = self.bids[p] or 0
            self.row_may[p] = {k: min(self.row[p], self.may_own[p][k]) for k in KINDS}
        first = self._seat_from(self.last_passer or 0, lambda p: self.row[p] > 0)
        self.turn_index = first
        assert first is not None  # the opener's bid is at least 1
        name = self.players[first]
        return [Event("stacking", f"{name} starts the stack", {"player": name})]

    def _next_stacker(self, start: int | None) -> list[Event]:
        nxt = self._seat_from(start or 0, lambda p: self.row[p] > 0)
        if nxt is not None:
            self.turn_index = nxt
            return []
        return self._end_round()

    def _end_round(self) -> list[Event]:
        """C4: the stack goes into the bag; every player without pieces wins, else a new round."""
        events = [Event("round_end", f"{len(self.stack)} pieces into the bag",
                        {"stack": len(self.stack), "bag": self.bag + len(self.stack)})]
        self.bag += len(self.stack)
        self._add_possible(self.bag_may, self.stack)
        self.stack = []
        self._cap()
        winners = tuple(p for p in self.players if self.pieces[p] == 0)
        if winners:
            self.phase, self.turn_index, self.won_by = "over", None, winners
            text = " & ".join(winners) + (" wins" if len(winners) == 1 else " win")
            return events + [Event("winner", text, {"players": list(winners)})]
        if self.last_placer is not None:
            self.opener = self.last_placer
        self.round += 1
        self.phase, self.turn_index = "bid", self.opener
        self.last_passer = self.last_placer = None
        for p in self.players:
            self.bids[p], self.passed[p], self.row[p] = None, False, 0
            self.row_may[p] = {k: 0 for k in KINDS}
        name = self.players[self.opener]
        return events + [Event("round", f"Round {self.round}: {name} opens",
                               {"round": self.round, "player": name})]

    # -- kind bookkeeping ------------------------------------------------------------------------
    @staticmethod
    def _add_possible(bounds: Kinds, pieces: list[str | None]) -> None:
        for k in KINDS:
            bounds[k] += sum(1 for x in pieces if x in (k, None))

    def _cap(self) -> None:
        """No bound above the count it bounds."""
        for p in self.players:
            for k in KINDS:
                self.may_own[p][k] = min(self.may_own[p][k], self.pieces[p])
                self.row_may[p][k] = min(self.row_may[p][k], self.row[p])
        for k in KINDS:
            self.bag_may[k] = min(self.bag_may[k], self.bag)


def _check_bag(value: Any) -> Kinds:
    if not isinstance(value, Mapping):
        raise SetupError("bag: counts per kind")
    for kind, count in value.items():
        if kind not in KINDS:
            raise SetupError("bag: no kind {value!r}", value=kind)
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_BAG:
            raise SetupError("bag: 0 to {most} {key}", most=MAX_BAG, key=kind)
    return {**BAG, **value}


def new_game(players: Sequence[str], options: Mapping[str, Any] | None = None,
             seed: int = 0) -> CurrencyTorraku:
    """Deal (C1) and open round 1 with the first seat (C2). No chance: ``seed`` is recorded."""
    names = check_players(players, 1, 6)
    opts = check_options(options, OPTIONS)
    bag = _check_bag(opts["bag"])
    long = opts["long"]
    if not isinstance(long, bool):
        raise SetupError("long: true or false")
    n = len(names)
    if long:
        totals = {k: n * START[k] + bag[k] for k in KINDS}
        deal = {k: totals[k] // n for k in KINDS}
        bag = {k: totals[k] % n for k in KINDS}
    else:
        deal = dict(START)
    return CurrencyTorraku(
        players=names,
        seed=seed,
        long=long,
        pieces={p: sum(deal.values()) for p in names},
        row={p: 0 for p in names},
        bids={p: None for p in names},
        passed={p: False for p in names},
        may_own={p: dict(deal) for p in names},
        row_may={p: {k: 0 for k in KINDS} for p in names},
        bag=sum(bag.values()),
        bag_may=dict(bag),
    )


INFO = GameInfo("currency-torraku", "Currency Torraku", 1, 6, new_game, options=OPTIONS,
                values={"piece": KINDS}, words=("truck", "washing machine", "rice cooker"))
