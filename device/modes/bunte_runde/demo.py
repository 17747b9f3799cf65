"""Bunte Runde's demos: a dealt circle of 36 pieces with an undo, and 25 tiles in a free layout."""

from __future__ import annotations

import random
from typing import Iterator

from ....games.bunte_runde import full_set, new_game
from ...i18n import _
from ..base import Demo, DemoStep
from .screens import pick_colours, pick_shapes

PLAYERS = ("Anna", "Ben", "Carla", "Dirk")


def _setup(players: int, tiles: bool, free: bool) -> Iterator[DemoStep]:
    yield ("open", "bunte-runde")
    for _turn in range((players - 4) % 5):  # the players option starts at 4 and cycles 2-6
        yield ("tap", "host.next")
    yield ("tap", "host.ok")
    if tiles:
        yield ("tap", "host.next")    # 36 pieces -> 25 tiles (B1)
    yield ("tap", "host.ok")
    if free:
        yield ("tap", "host.next")    # dealt -> free (B7)
    yield ("tap", "host.ok")
    yield ("tap", "host.ok")          # start


def dealt() -> Iterator[DemoStep]:
    """36 pieces dealt from the seed, three players at their stations, one undo on the way."""
    yield ("say", _("Menu: Bunte Runde, 3 players, 36 pieces, circle dealt from the seed"))
    yield from _setup(3, tiles=False, free=False)
    yield ("say", _("Lay out the circle: what to do, one place a screen (36), the figure"))
    for _turn in range(38):
        yield ("tap", "host.ok")
    yield ("say", _("Anna, Ben and Carla press A/B/C for 1/2/3 steps at their stations"))
    pattern = "BCABACCBA"
    for move in range(36):        # more than any game needs; presses after the end are refused
        yield ("tap", f"s{move % 3 + 1}.{pattern[move % len(pattern)]}")
        if move == 1:
            yield ("idle", 1.0)
            yield ("say", _("Ben took the wrong piece: hold BACK to undo, then move again"))
            yield ("hold", "host.back", 1.2)
            yield ("idle", 2.0)       # the "Undone" notice goes; what to put back shows
            yield ("read",)
            yield ("tap", "s2.A")
        yield ("read",)


def free_tiles() -> Iterator[DemoStep]:
    """25 tiles in a free layout: four players (Dirk at the host panel) report what they took."""
    yield ("say", _("Menu: Bunte Runde, 4 players, 25 tiles, free layout (Dirk at the host panel)"))
    yield from _setup(4, tiles=True, free=True)
    state = new_game(PLAYERS, {"set": "tiles", "layout": "free"}, 0)
    order = full_set("tiles")
    random.Random(36).shuffle(order)  # an order whose last take triggers the large coin (B5)
    for colour, shape in order:
        player = state.turn()
        assert player is not None  # a colour is taken on someone's turn
        seat = state.players.index(player)
        nxt, ok = (f"s{seat + 1}.A", f"s{seat + 1}.B") if seat < 3 else ("host.next", "host.ok")
        takes = [a for a in state.legal_actions(player) if a["type"] == "take"]
        for _turn in range(pick_colours(takes).index(colour)):
            yield ("tap", nxt)
        yield ("tap", ok)
        for _turn in range(pick_shapes(takes, colour).index(shape)):
            yield ("tap", nxt)
        yield ("tap", ok)
        yield ("read",)
        state, _events = state.apply({"type": "take", "player": player, "colour": colour,
                                      "shape": shape})
        if state.is_over:
            break


DEMOS = {"bunte-runde": Demo(PLAYERS[:3], dealt), "bunte-runde-tiles": Demo(PLAYERS, free_tiles)}
