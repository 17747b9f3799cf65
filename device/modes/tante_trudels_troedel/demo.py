"""Tante Trudels Trödel's demo: a whole game on simulated pans, the table rolling a real die.

Three players at their stations; the Purchase of the Day is the rulebook's (6, 4, 3). Items weigh a
few grams each and differ by tenths, as the real game's do. On the way: two weighings on scales
rows (LIGHTER twice, then HEAVIER by 0.2 g), a coupon paid to another player and one to the shop,
exchanges, a move back (TT4), and at the end a finish decided by 0.1 g: Anna's basket is 0.1 g
lighter than the Purchase and wins, Carla's is 0.1 g heavier and is out.
"""

from __future__ import annotations

from typing import Any, Iterator

from ....games.tante_trudels_troedel import new_game
from ...i18n import _
from ..base import Demo, DemoStep

PLAYERS = ("Anna", "Ben", "Carla")
OPTIONS = {"potd_maker": "Anna", "first": "Anna", "scale_rows": [8, 18], "goal": "standard"}
POTD_ROLLS = (6, 4, 3)
POTD_ITEMS = (4.3, 5.1, 3.8)          # 13.2 g
WEIGH_S = 3.0                        # "all on" to a basket's verdict: the pans settle, then hold
POTD_S = 4.0                         # the Purchase is held still longer (weighing.POTD_HOLD_S)
# Each turn: (player, roll, direction, what they do). "pay:Anna" pays Anna with a coupon.
TURNS: tuple[tuple[str, int, str, tuple[str, ...]], ...] = (
    ("Anna", 5, "forward", ("take",)),
    ("Ben", 6, "forward", ("take_coupon",)),
    ("Carla", 3, "forward", ("take",)),
    ("Anna", 3, "forward", ("weigh",)),              # row 8 has the scales
    ("Ben", 2, "forward", ("take", "pay:Anna")),     # Ben pays Anna: her item for his coupon
    ("Carla", 5, "forward", ("take",)),
    ("Anna", 4, "forward", ("pay_shop", "take")),    # Anna pays the shop with that coupon
    ("Ben", 6, "forward", ("take",)),
    ("Carla", 6, "forward", ("take",)),
    ("Anna", 6, "forward", ("weigh",)),              # row 18
    ("Ben", 4, "forward", ("exchange",)),
    ("Carla", 4, "forward", ("weigh",)),
    ("Anna", 5, "back", ("take",)),                  # 18 + 5 would reach the weighing: back
    ("Ben", 3, "forward", ()),                       # Ben goes to the weighing
    ("Carla", 2, "forward", ("exchange",)),
    ("Anna", 6, "forward", ("take",)),
    ("Carla", 1, "forward", ()),
    ("Anna", 4, "forward", ()),
)
# The items as they come into the baskets, in order (grams); chosen so that at the end Anna has
# 13.1 g (0.1 g under the Purchase), Ben 12.8 g and Carla 13.3 g (0.1 g over).
SHOP = (4.1, 4.7, 4.4, 3.9, 3.2, 4.2, 4.5, 4.8, 4.2, 3.0, 4.6, 2.7)

MENU: dict[str, dict[str, Any]] = {"take": {"type": "take", "coupon": False}, "take_coupon": {"type": "take", "coupon": True},
        "return": {"type": "return", "coupon": False}, "exchange": {"type": "exchange"},
        "weigh": {"type": "weigh"}, "pay_shop": {"type": "coupon_shop"}}


def _setup() -> Iterator[DemoStep]:
    yield ("open", "tante-trudels-troedel")
    yield ("tap", "host.next")             # 4 players -> 2
    yield ("tap", "host.next")             # -> 3
    yield ("tap", "host.ok")
    yield ("tap", "host.ok")               # the Purchase of the Day: Anna
    yield ("tap", "host.ok")               # Anna starts
    yield ("tap", "host.ok")               # scales rows 8 ...
    yield ("tap", "host.ok")               # ... and 18
    yield ("tap", "host.ok")               # the standard goal
    yield ("tap", "host.next")             # the die: the table rolls
    yield ("tap", "host.ok")
    yield ("tap", "host.ok")               # start


def _enter_die(station: str, value: int) -> Iterator[DemoStep]:
    """A/C step the die from 1 to ``value`` the short way round, B enters it."""
    key, times = ("C", value - 1) if value <= 4 else ("A", 7 - value)
    for _turn in range(times):
        yield ("tap", f"{station}.{key}")
    yield ("tap", f"{station}.B")


class _Table:
    """The demo's own copy of the game, to find each menu line, and the baskets' items."""

    def __init__(self) -> None:
        self.state = new_game(PLAYERS, OPTIONS, 0)
        self.baskets: dict[str, list[float]] = {p: [] for p in PLAYERS}
        self.shop = list(SHOP)

    def apply(self, action: dict[str, Any]) -> None:
        self.state, _events = self.state.apply(action)

    def menu_index(self, player: str, what: str) -> tuple[int, dict[str, Any]]:
        legal = self.state.legal_actions(player)
        if what.startswith("pay:"):
            want = {"type": "coupon_player", "player": player, "target": what[4:]}
        else:
            want = {**MENU[what], "player": player}
        return legal.index(want), want

    def basket_g(self, player: str) -> float:
        return round(sum(self.baskets[player]), 2)

    def track(self, player: str, action: dict[str, Any]) -> None:
        """Which item goes where (the box only counts them; the pans weigh them)."""
        kind = action["type"]
        if kind in ("coupon_shop",) or (kind == "take" and not action.get("coupon")):
            self.baskets[player].append(self.shop.pop(0))
        elif kind == "return" and not action.get("coupon"):
            self.baskets[player].pop(0)
        elif kind == "exchange":
            self.baskets[player][0] = self.shop.pop(0)
        elif kind == "coupon_player":
            self.baskets[player].append(self.baskets[action["target"]].pop())


def weigh(station: str, grams: float) -> Iterator[DemoStep]:
    """Items on the right pan, "all on", the verdict read, the items off again."""
    yield ("put", "right", grams)
    yield ("tap", f"{station}.B")
    yield ("idle", WEIGH_S)
    yield ("read",)
    yield ("put", "right", -grams)
    yield ("idle", 1.0)


def script() -> Iterator[DemoStep]:
    yield ("say", _("Tante Trudels Troedel: Anna, Ben and Carla; the table rolls a real die"))
    yield from _setup()
    table = _Table()
    yield ("say", _("The Purchase of the Day: Anna rolls 6, 4, 3 (the rulebook's example)"))
    for value in POTD_ROLLS:
        yield from _enter_die("s1", value)
        yield ("read",)
        table.apply({"type": "roll", "player": "Anna", "value": value})
    yield ("say", _("Its three items on the left pan: they stay there for the whole game"))
    yield ("idle", 1.0)
    yield ("put", "left", round(sum(POTD_ITEMS), 2))
    yield ("tap", "s1.B")
    yield ("idle", POTD_S)
    yield ("read",)
    table.apply({"type": "weigh_potd", "grams": sum(POTD_ITEMS)})
    for player, roll, direction, plan in TURNS:
        station = f"s{PLAYERS.index(player) + 1}"
        yield ("say", (_("{player} rolls {roll}, goes back") if direction == "back" else _("{player} rolls {roll}")).format(player=player, roll=roll))
        yield from _enter_die(station, roll)
        table.apply({"type": "roll", "player": player, "value": roll})
        if direction == "back":
            yield ("tap", f"{station}.C")
        yield ("tap", f"{station}.B")
        table.apply({"type": "move", "player": player, "direction": direction})
        yield ("read",)
        if table.state.phase != "play" or table.state.turn != player:
            continue                                   # at the weighing: the turn is over
        for what in plan:
            index, action = table.menu_index(player, what)
            for _turn in range(index):
                yield ("tap", f"{station}.C")
            if what == "weigh":
                yield ("say", _("{player} weighs on a scales row").format(player=player))
                yield ("tap", f"{station}.B")
                yield from weigh(station, table.basket_g(player))
                action = {**action, "grams": table.basket_g(player)}
            else:
                yield ("tap", f"{station}.B")
                yield ("read",)
            table.track(player, action)
            table.apply(action)
        action = {"type": "end_turn", "player": player}
        for _turn in range(table.state.legal_actions(player).index(action)):
            yield ("tap", f"{station}.C")
        yield ("tap", f"{station}.B")
        yield ("read",)
        table.apply(action)
    yield ("say", _("The weighing, in arrival order; coupons stay out"))
    for player in list(table.state.arrivals):
        station = f"s{PLAYERS.index(player) + 1}"
        yield ("idle", 0.5)
        yield from weigh(station, table.basket_g(player))
    yield ("say", _("The reveal: Anna's basket is 0.1 g under the Purchase of the Day"))
    yield ("read",)


DEMOS = {"tante-trudels-troedel": Demo(PLAYERS, script)}

__all__ = ["DEMOS", "PLAYERS", "SHOP", "TURNS"]
