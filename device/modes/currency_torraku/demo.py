"""Currency Torraku's demo: two players, the set's weights learned, bids at the stations, a stack
on the simulated left pan with wobble, a steadying hand, a piece lifted and put back, a piece
dropped on the table, one collapse, and a round stacked to the end (a winner).

The demo runner has no step for a hand pressing on a pan; a hand resting on the stack is played as
a short load put down and taken off again before the pan can settle, a piece lifted and put back
likewise. Piece weights are assumptions (solid wood: truck 12 g, washing machine 7.5 g, rice
cooker 4 g, each piece within about 2 %), not measurements.
"""

from __future__ import annotations

import random
from typing import Iterator

from ....games.currency_torraku import KINDS, new_game
from ...i18n import _
from ..base import Demo, DemoStep

PLAYERS = ("Anna", "Ben")
PAN = "left"
PIECE_G = {"truck": 12.0, "washing_machine": 7.5, "rice_cooker": 4.0}
SETTLE_S = 1.5   # idle after a piece is set down: the pan settles, the box confirms
HOLD_S = 1.2     # a long B


def piece(kind: str, rng: random.Random) -> float:
    """One piece's weight: the kind's weight within about 2 %."""
    return round(PIECE_G[kind] * rng.uniform(0.98, 1.02), 2)


def setup(players: int) -> Iterator[DemoStep]:
    """From the home menu: the player count (it starts at 4 and cycles 1-6), the defaults."""
    yield ("open", "currency-torraku")
    for _turn in range((players - 4) % 6):
        yield ("tap", "host.next")
    for _turn in range(5):                 # players, money, pan, piece weights, start
        yield ("tap", "host.ok")


def learn(rng: random.Random) -> Iterator[DemoStep]:
    """Weigh three pieces of each kind on the pan, one at a time, then clear it."""
    total = 0.0
    for kind in KINDS:
        for _turn in range(3):
            grams = piece(kind, rng)
            total += grams
            yield ("put", PAN, grams)
            yield ("idle", SETTLE_S)
    yield ("idle", 0.5)
    yield ("put", PAN, -round(total, 2))  # "Pieces learned": the pan emptied, then OK
    yield ("idle", SETTLE_S)
    yield ("tap", "host.ok")


def bid(station: int, steps: int) -> Iterator[DemoStep]:
    """Raise the choice ``steps`` times with C, then bid it with B."""
    for _turn in range(steps):
        yield ("tap", f"s{station}.C")
    yield ("tap", f"s{station}.B")


def whole_game() -> Iterator[DemoStep]:
    rng = random.Random(12)
    state = new_game(PLAYERS, {}, 7)
    yield ("say", _("Menu: Currency Torraku, 2 players, the stack on the first pan (left)"))
    yield from setup(len(PLAYERS))
    yield ("say", _("Learn the set: three trucks, washing machines and rice cookers, one at a time"))
    yield from learn(rng)
    yield ("say", _("Anna opens with 4 (C C C, B); Ben bids all his 10; both hold B to pass"))
    yield from bid(1, 3)
    yield from bid(2, 6)
    yield ("hold", "s1.B", HOLD_S)
    yield ("hold", "s2.B", HOLD_S)
    for action in ({"type": "bid", "player": "Anna", "count": 4},
                   {"type": "bid", "player": "Ben", "count": 10},
                   {"type": "pass", "player": "Anna"}, {"type": "pass", "player": "Ben"}):
        state, _events = state.apply(action)
    yield ("read",)
    yield ("say", _("Stacking on the left pan: each settled piece is placed for the player to move"))
    on_pan: list[float] = []
    order = ["truck", "washing_machine", "rice_cooker"]
    placed = 0
    collapsed = False
    while not state.is_over:
        player = state.turn()
        assert player is not None
        if player == "Anna" and len(on_pan) >= 5 and not collapsed:
            yield ("say", _("Anna's piece knocks three pieces off the stack: collapse"))
            fallen = round(sum(on_pan[-3:]), 2)
            del on_pan[-3:]
            yield ("put", PAN, -fallen)
            yield ("idle", SETTLE_S)
            yield ("read",)
            state, _events = state.apply({"type": "collapse", "player": player})
            collapsed = True
            yield ("say", _("Anna clears the pan and starts a new stack"))
            yield ("put", PAN, -round(sum(on_pan), 2))
            on_pan.clear()
            yield ("idle", SETTLE_S)
            continue
        kinds = state.row_kinds(player)
        kind = next((k for k in order[placed % 3:] + order if k in kinds), "rice_cooker")
        grams = piece(kind, rng)
        if placed == 2:
            yield ("say", _("Ben's piece slips onto the table: A at his station, no penalty"))
            yield ("tap", "s2.A")
            state, _events = state.apply({"type": "drop", "player": player})
        yield ("put", PAN, grams)
        yield ("idle", SETTLE_S)
        on_pan.append(grams)
        state, _events = state.apply({"type": "place", "player": player, "piece": kind})
        placed += 1
        if placed == 3:
            yield ("say", _("A hand steadies the stack for a moment: no event"))
            yield ("put", PAN, 30.0)
            yield ("idle", 0.2)
            yield ("put", PAN, -30.0)
            yield ("idle", SETTLE_S)
        if placed == 5:
            yield ("say", _("Ben lifts his piece and puts it back: no event"))
            yield ("put", PAN, -grams)
            yield ("idle", 0.1)
            yield ("put", PAN, grams)
            yield ("idle", SETTLE_S)
        yield ("read",)
    yield ("read",)


DEMOS = {"currency-torraku": Demo(PLAYERS, whole_game)}
