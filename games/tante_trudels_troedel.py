"""Tante Trudels Trödel (Zoch): the die, the shop's rows, coupons and hidden grams (TT1-TT7).

Grams are known to the box only (TT2): ``public()`` and every event say lighter, heavier or
balanced until the last basket is weighed; then ``potd_g`` and every ``basket_g`` are revealed.
The die is an action (``roll`` with its value, each value listed): the box rolls it with
``draw("roll")``, from the game's seed and the number of actions so far (the same on every replay
and after a power cut), or the table enters a real die's value.
The shelves' items are the table's business: the box tracks each basket's item count and coupons
and the coupons on each counter line (rows and lines: ``trudel_rules``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Sequence

from .core import (Action, Event, GameInfo, IllegalAction, Measurement, State, check_players,
                   field_of, require)
from .trudel_rules import (
    LINES,
    OPTIONS,
    ROWS,
    WEIGHING,
    check_setup,
    final,
    grams_ok,
    line_of,
    public_view,
    standings,
    verdict,
)

Phase = Literal["potd", "play", "weighing", "over"]  # the game's phases, in the order they come

DIE = (1, 2, 3, 4, 5, 6)
POTD_ROLLS = 3


@dataclass
class TanteTrudelsTroedel(State):
    ACTIONS = ("roll", "move", "take", "return", "exchange", "weigh", "coupon_shop",
               "coupon_player", "end_turn", "weigh_potd", "weigh_basket")
    game = "tante-trudels-troedel"

    players: tuple[str, ...]
    scale_rows: tuple[int, ...]
    potd_maker: str
    first: str
    tie_band_g: float
    goal: str
    seed: int = 0
    phase: Phase = "potd"
    potd_rows: list[int] = field(default_factory=list)
    potd_g: float | None = None  # secret until the game is over
    position: dict[str, int] = field(default_factory=dict)  # 0 entrance, 1-20, 21 weighing
    arrivals: list[str] = field(default_factory=list)
    items: dict[str, int] = field(default_factory=dict)
    coupons: dict[str, int] = field(default_factory=dict)
    basket_g: dict[str, float | None] = field(default_factory=dict)  # secret until over
    shop_coupons: list[int] = field(default_factory=lambda: [0] * LINES)  # per counter line
    turn: str | None = None
    stage: str | None = None  # in play: roll, move, act
    roll: int | None = None
    acted: bool = False  # this turn's one action is done (TT5)
    actions_done: int = 0  # actions applied so far: the box's die draws from it and the seed
    paid: bool = False  # this turn's coupon payment is done (TT5)
    last_weigh: str | None = None
    last_weigh_by: str | None = None
    won_by: tuple[str, ...] = ()

    # -- queries ---------------------------------------------------------------------------------
    def waiting_for(self) -> tuple[str, ...]:
        if self.phase == "potd":
            return (self.potd_maker,)
        if self.phase == "play" and self.turn:
            return (self.turn,)
        if self.phase == "weighing":
            return (next(p for p in self.arrivals if self.basket_g[p] is None),)  # TT6
        return ()

    def coupons_at(self, row: int) -> int:
        """Coupons a basket on ``row`` can reach: those on the counter line it faces."""
        return self.shop_coupons[line_of(row)] if 1 <= row <= ROWS else 0

    def can_move_back(self) -> bool:
        """TT4: only if this roll would reach the weighing and nobody waits there yet."""
        if self.stage != "move" or self.turn is None or self.roll is None:
            return False
        return self.position[self.turn] + self.roll > ROWS and not self.arrivals

    def secrets(self) -> tuple[Any, ...]:
        """TT2: every gram figure, until the game is over."""
        if self.is_over:
            return ()
        grams = [self.potd_g] + [self.basket_g[p] for p in self.players]
        return tuple(float(g) for g in grams if g is not None)

    def draw(self, action_type: str) -> int:
        """The box's die for the next roll: from the seed and the actions so far."""
        require(action_type == "roll", "nothing to draw for {kind}", kind=action_type)
        return random.Random(f"{self.game}:{self.seed}:{self.actions_done}").randint(1, 6)

    def _apply(self, action: Action) -> list[Event]:
        events = super()._apply(action)
        self.actions_done += 1
        return events

    def public(self) -> dict[str, Any]:
        return public_view(self)

    def legal_actions(self, player: str) -> list[dict[str, Any]]:
        """What ``player`` may do now; ``weigh_potd``, ``weigh`` and ``weigh_basket`` are listed
        without their ``grams`` (``INFO.measurements``)."""
        if player not in self.waiting_for():
            return []
        if self.phase == "potd":
            if len(self.potd_rows) < POTD_ROLLS:
                return [{"type": "roll", "player": player, "value": v} for v in DIE]
            return [{"type": "weigh_potd", "player": player}]
        if self.phase == "weighing":
            return [{"type": "weigh_basket", "player": player}]
        if self.stage == "roll":
            return [{"type": "roll", "player": player, "value": v} for v in DIE]
        if self.stage == "move":
            moves = ("forward", "back") if self.can_move_back() else ("forward",)
            return [{"type": "move", "player": player, "direction": d} for d in moves]
        return self._turn_options(player)

    def _turn_options(self, player: str) -> list[dict[str, Any]]:
        """TT5 after the move: at most one action, at most one coupon payment, then end_turn."""
        out: list[dict[str, Any]] = []
        row, items, coupons = self.position[player], self.items[player], self.coupons[player]
        if not self.acted:
            out.append({"type": "take", "player": player, "coupon": False})
            if coupons == 0 and self.coupons_at(row):
                out.append({"type": "take", "player": player, "coupon": True})
            if items:
                out.append({"type": "return", "player": player, "coupon": False})
            if coupons:
                out.append({"type": "return", "player": player, "coupon": True})
            if items:
                out.append({"type": "exchange", "player": player})
            if items and row in self.scale_rows:
                out.append({"type": "weigh", "player": player})
        if not self.paid and coupons:
            out.append({"type": "coupon_shop", "player": player})
            out += [{"type": "coupon_player", "player": player, "target": p}
                    for p in self.players
                    if p != player and self.position[p] == row and self.items[p]]
        out.append({"type": "end_turn", "player": player})
        return out

    def standings(self) -> list[tuple[int, str, Any]]:
        """(rank, player, basket grams), best first, once the game is over: baskets within the
        tie band of the best of their group share a rank (TT6, TT7). Before the end everybody
        shares rank 1 with no score (the grams are secret)."""
        if not self.is_over or self.potd_g is None:
            return [(1, p, None) for p in self.players]
        baskets = {p: float(self.basket_g[p] or 0.0) for p in self.players}
        return standings(baskets, self.potd_g, self.tie_band_g, self.goal)

    # -- checks shared by the actions --------------------------------------------------------------
    def _player(self, action: Action) -> str:
        name = field_of(action, "player", str)
        require(name in self.position, "no player {name!r}", name=name)
        waiting = self.waiting_for()
        require(name in waiting, "{turn}'s turn, not {name}'s", turn=waiting[0], name=name)
        return name

    def _acting(self, action: Action, once: str = "") -> str:
        """The player on turn after their move; ``once`` is "action" or "coupon" (TT5)."""
        player = self._player(action)
        self._in_stage("act")
        require(once != "action" or not self.acted, "one action a turn")
        require(once != "coupon" or not self.paid, "one coupon a turn")
        return player

    def _in_stage(self, stage: str) -> None:
        """Refuse an action of the turn's ``stage`` (roll, move, act) at any other moment."""
        require(self.phase != "potd", "the purchase comes first")
        require(self.phase == "play", "weigh your basket")
        order = ("roll", "move", "act")
        if self.stage != stage:  # too early: do the stage now first; too late: done already
            late = order.index(str(self.stage)) > order.index(stage)
            if late:
                raise IllegalAction("rolled already" if stage == "roll" else "moved already")
            raise IllegalAction("roll first" if self.stage == "roll" else "move first")

    def _with_coupon(self, action: Action) -> bool:
        coupon = action.get("coupon", False)
        require(isinstance(coupon, bool), "bad '{field}': {value!r}", field="coupon", value=coupon)
        return coupon

    @staticmethod
    def _grams(action: Action, positive: bool) -> float:
        require("grams" in action, "action needs '{field}'", field="grams")
        require(grams_ok(action["grams"], positive), "bad '{field}': {value!r}", field="grams",
                value=action["grams"])
        return float(action["grams"])

    # -- the Purchase of the Day (TT2) and the die (TT4) -----------------------------------------
    def _roll(self, action: Action) -> list[Event]:
        player = self._player(action)
        value = field_of(action, "value", int)
        require(value in DIE, "the die shows 1 to 6")
        if self.phase == "potd":
            require(len(self.potd_rows) < POTD_ROLLS, "weigh the purchase")
            row = (self.potd_rows[-1] if self.potd_rows else 0) + value
            self.potd_rows.append(row)
            self.shop_coupons[line_of(row)] += 1
            self.position[player] = row
            events = [Event("roll", f"{player} rolls {value}", {"player": player, "value": value}),
                      Event("potd_row", f"Row {row}: take the edge item, put a coupon there",
                            {"player": player, "row": row, "count": len(self.potd_rows)})]
            if len(self.potd_rows) == POTD_ROLLS:
                self.position[player] = 0  # the maker's basket goes back to the entrance
                events.append(Event("potd_weigh", "Weigh the Purchase of the Day",
                                    {"player": player, "rows": list(self.potd_rows)}))
            return events
        self._in_stage("roll")
        self.roll, self.stage = value, "move"
        return [Event("roll", f"{player} rolls {value}", {"player": player, "value": value})]

    def _weigh_potd(self, action: Action) -> list[Event]:
        require(self.phase == "potd", "the purchase is weighed")
        if "player" in action:
            self._player(action)
        require(len(self.potd_rows) == POTD_ROLLS, "roll three times first")
        self.potd_g = self._grams(action, positive=True)
        self.phase, self.turn, self.stage = "play", self.first, "roll"
        return [Event("potd_weighed", "The Purchase of the Day is weighed", {}),
                Event("turn", f"{self.first}'s turn", {"player": self.first})]

    def _move(self, action: Action) -> list[Event]:
        player = self._player(action)
        self._in_stage("move")
        direction = field_of(action, "direction", str)
        require(direction in ("forward", "back"), "direction: forward or back")
        assert self.roll is not None
        here = self.position[player]
        if direction == "back":
            require(here + self.roll > ROWS, "back only if you could reach the weighing")
            require(not self.arrivals, "someone waits at the weighing")
            to = here - self.roll
        else:
            to = min(here + self.roll, WEIGHING)  # TT4: the excess is lost
        self.position[player] = to
        events = [Event("move", f"{player}: row {here} to {to if to <= ROWS else 'the weighing'}",
                        {"player": player, "from": here, "to": to, "direction": direction})]
        if to == WEIGHING:
            self.arrivals.append(player)
            events.append(Event("arrive", f"{player} goes to the weighing",
                                {"player": player, "arrival": len(self.arrivals)}))
            return events + self._next_turn(player)  # reaching the weighing ends the turn
        self.stage = "act"
        return events

    # -- the turn's action and coupon payment (TT5) ------------------------------------------------
    def _take(self, action: Action) -> list[Event]:
        return self._shelf(action, +1)

    def _return(self, action: Action) -> list[Event]:
        return self._shelf(action, -1)

    def _shelf(self, action: Action, sign: int) -> list[Event]:
        """Take (``sign`` +1) or return (-1) an item or a coupon on this row (TT5)."""
        player = self._acting(action, "action")
        coupon = self._with_coupon(action)
        line = line_of(self.position[player])
        if coupon and sign > 0:
            require(self.coupons[player] == 0, "you hold a coupon")
            require(self.shop_coupons[line] > 0, "no coupon in this row")
        held = self.coupons if coupon else self.items
        require(sign > 0 or held[player] > 0,
                "no coupon to return" if coupon else "no item to return")
        held[player] += sign
        if coupon:
            self.shop_coupons[line] -= sign
        self.acted = True
        kind, verb = ("take", "takes") if sign > 0 else ("return", "returns")
        text = f"{player} {verb} {'a coupon' if coupon else 'an item'}"
        return [Event(kind, text, {"player": player, "coupon": coupon})]

    def _exchange(self, action: Action) -> list[Event]:
        player = self._acting(action, "action")
        require(self.items[player] > 0, "no item to exchange")
        self.acted = True
        return [Event("exchange", f"{player} exchanges an item", {"player": player})]

    def _weigh(self, action: Action) -> list[Event]:
        player = self._acting(action, "action")
        require(self.position[player] in self.scale_rows, "no scales in this row")
        require(self.items[player] > 0, "nothing to weigh")
        grams = self._grams(action, positive=True)
        assert self.potd_g is not None
        result = verdict(grams, self.potd_g, self.tie_band_g)
        self.acted, self.last_weigh, self.last_weigh_by = True, result, player
        return [Event("weigh", f"{player}: {result.upper()}", {"player": player,
                                                                "result": result})]

    def _coupon_shop(self, action: Action) -> list[Event]:
        player = self._acting(action, "coupon")
        require(self.coupons[player] > 0, "no coupon to pay with")
        self.coupons[player] -= 1
        self.shop_coupons[line_of(self.position[player])] += 1
        self.items[player] += 1
        self.paid = True
        return [Event("coupon_shop", f"{player} pays the shop with a coupon",
                      {"player": player, "row": self.position[player]})]

    def _coupon_player(self, action: Action) -> list[Event]:
        player = self._acting(action, "coupon")
        require(self.coupons[player] > 0, "no coupon to pay with")
        target = field_of(action, "target", str)
        require(target in self.position and target != player, "bad '{field}': {value!r}",
                field="target", value=target)
        require(self.position[target] == self.position[player], "{name} is not in this row",
                name=target)
        require(self.items[target] > 0, "{name} has no item", name=target)
        self.coupons[player] -= 1
        self.coupons[target] += 1
        self.items[target] -= 1
        self.items[player] += 1
        self.paid = True
        return [Event("coupon_player", f"{player} pays {target} with a coupon",
                      {"player": player, "target": target})]

    def _end_turn(self, action: Action) -> list[Event]:
        player = self._acting(action)
        return [Event("end_turn", f"{player} is done", {"player": player})] + \
            self._next_turn(player)

    def _next_turn(self, player: str) -> list[Event]:
        """TT3: the next seat not at the weighing; when everybody is there, the weighing."""
        self.roll, self.acted, self.paid = None, False, False
        seat = self.players.index(player)
        for step in range(1, len(self.players) + 1):
            nxt = self.players[(seat + step) % len(self.players)]
            if self.position[nxt] != WEIGHING:
                self.turn, self.stage = nxt, "roll"
                return [Event("turn", f"{nxt}'s turn", {"player": nxt})]
        self.phase, self.turn, self.stage = "weighing", None, None
        first = self.arrivals[0]
        return [Event("weighing", f"Weighing: {first} first", {"order": list(self.arrivals)})]

    # -- the end (TT6, TT7) ------------------------------------------------------------------------
    def _weigh_basket(self, action: Action) -> list[Event]:
        require(self.phase == "weighing", "not weighing now")
        player = self._player(action)
        self.basket_g[player] = self._grams(action, positive=False)
        events = [Event("basket_weighed", f"{player}'s basket is weighed", {"player": player})]
        if any(g is None for g in self.basket_g.values()):
            return events
        assert self.potd_g is not None
        baskets = {p: float(self.basket_g[p] or 0.0) for p in self.arrivals}
        self.won_by, reveal = final(self.players, baskets, self.potd_g, self.tie_band_g,
                                    self.goal)
        self.phase = "over"
        return events + reveal


def new_game(players: Sequence[str], options: Mapping[str, Any] | None = None,
             seed: int = 0) -> TanteTrudelsTroedel:
    """Start a game (TT1, TT2): every basket at the entrance, the maker about to roll."""
    names = check_players(players, 2, 4)
    opts = check_setup(names, options)
    return TanteTrudelsTroedel(
        players=names,
        scale_rows=opts["scale_rows"],
        potd_maker=opts["potd_maker"],
        first=opts["first"],
        tie_band_g=opts["tie_band_g"],
        goal=opts["goal"],
        seed=seed,
        position={p: 0 for p in names},
        items={p: 0 for p in names},
        coupons={p: 0 for p in names},
        basket_g={p: None for p in names},
    )


INFO = GameInfo(
    "tante-trudels-troedel", "Tante Trudels Trödel", 2, 4, new_game, options=OPTIONS,
    values={"value": DIE, "direction": ("forward", "back"), "coupon": (False, True)},
    measurements={
        "weigh_potd": Measurement("grams", 6.0, 24.0, decimals=1, private=True),
        # a basket is weighed with what it holds: a correction may say up to 200 g
        "weigh": Measurement("grams", 1.0, 40.0, decimals=1, private=True, limits=(0.1, 200.0)),
        "weigh_basket": Measurement("grams", 0.0, 40.0, decimals=1, private=True,
                                    limits=(0.0, 200.0)),
    },
)
