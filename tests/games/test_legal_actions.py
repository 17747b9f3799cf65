"""``legal_actions`` is exact: over many random states, a candidate action is accepted by
``apply`` if and only if it is listed (with its measurement left out)."""

from __future__ import annotations

import itertools
import random
from typing import Any, Callable, Iterator

import pytest
from play import playthrough

from spielleiter.games import GAMES, IllegalAction, State, complete
from spielleiter.games.bunte_runde import COLOURS, SHAPES
from spielleiter.games.tatort_tonne import CARDS

Candidates = Callable[[State], Iterator[dict[str, Any]]]


def tatort_candidates(state) -> Iterator[dict[str, Any]]:
    for player in state.players + ("nobody",):
        for card in CARDS + ("joker",):
            yield {"type": "choose", "player": player, "card": card}
        for target in state.players + (None, "nobody"):
            yield {"type": "point", "player": player, "target": target}


def bunte_candidates(state) -> Iterator[dict[str, Any]]:
    for player in state.players:
        for steps in range(0, 5):
            yield {"type": "move", "player": player, "steps": steps}
        for colour, shape in itertools.product(COLOURS[state.set_name], SHAPES[state.set_name]):
            yield {"type": "take", "player": player, "colour": colour, "shape": shape}


def trudel_candidates(state) -> Iterator[dict[str, Any]]:
    for player in state.players:
        for value in range(0, 8):
            yield {"type": "roll", "player": player, "value": value}
        for direction in ("forward", "back", "sideways"):
            yield {"type": "move", "player": player, "direction": direction}
        for kind, coupon in itertools.product(("take", "return"), (False, True)):
            yield {"type": kind, "player": player, "coupon": coupon}
        for kind in ("exchange", "weigh", "coupon_shop", "end_turn", "weigh_potd",
                     "weigh_basket"):
            yield {"type": kind, "player": player}
        for target in state.players:
            yield {"type": "coupon_player", "player": player, "target": target}


CANDIDATES: dict[str, Candidates] = {
    "tatort-tonne": tatort_candidates,
    "bunte-runde": bunte_candidates,
    "tante-trudels-troedel": trudel_candidates,
}


def accepted(state: State, action: dict[str, Any]) -> bool:
    try:
        state.apply(action)
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("name", sorted(set(CANDIDATES) & set(GAMES)))
def test_an_action_is_accepted_exactly_when_it_is_listed(name):
    info = GAMES[name]
    rng = random.Random(1)
    checked = 0
    for seed in range(10):
        for before, *_ in playthrough(info, seed):
            if rng.random() > 0.2:
                continue
            listed = {p: before.legal_actions(p) for p in before.players + ("nobody",)}
            for candidate in CANDIDATES[name](before):
                ok = accepted(before, complete(info, candidate, rng))
                assert ok == (candidate in listed[candidate["player"]]), (seed, candidate)
                checked += ok
            for player, actions in listed.items():
                for action in actions:
                    assert accepted(before, complete(info, action, rng)), (seed, action)
                    if measurement := info.measurements.get(action["type"]):
                        assert measurement.field not in action
    assert checked > 100


@pytest.mark.parametrize("name", sorted(GAMES))
def test_nobody_may_act_once_the_game_is_over(name):
    info = GAMES[name]
    for seed in range(5):
        state = None
        for _, _, state, _ in playthrough(info, seed):
            pass
        if state is not None and state.is_over:
            assert all(state.legal_actions(p) == [] for p in state.players)
            assert state.legal_actions("nobody") == []
