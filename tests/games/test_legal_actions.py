"""``legal_actions`` is exact: over many random states, a candidate action is accepted by
``apply`` if and only if it is listed (with its measurement left out)."""

from __future__ import annotations

import itertools
import random
from typing import Any, Callable, Iterator

import pytest
from play import leaves, playthrough

from spielleiter.games import GAMES, GameInfo, IllegalAction, State, complete

Candidates = Callable[[State], Iterator[dict[str, Any]]]


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return ("list", tuple(_frozen(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, _frozen(v)) for k, v in value.items())))
    return value


def _thawed(value: Any) -> Any:
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "list":
        return [_thawed(v) for v in value[1]]
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "dict":
        return {k: _thawed(v) for k, v in value[1]}
    return value


def _bent(values: set[Any]) -> set[Any]:
    """Values an action field was seen with, plus ones just outside: numbers one past either end,
    a word no rule knows, nothing at all."""
    out = set(values) | {None, "joker"}
    numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    if numbers:
        out |= {min(numbers) - 1, max(numbers) + 1, 0}
    if any(isinstance(v, bool) for v in values):
        out |= {True, False}
    return out


def candidates_for(info: GameInfo) -> Candidates:
    """Every action type the game ever lists, with each field's seen and bent values, and every
    word or number its public state ever showed: found by playing, so every registered game is
    covered without a word about its actions (a value the engine wrongly never lists still shows
    up in the state, e.g. a revealed card)."""
    fields: dict[str, dict[str, set[Any]]] = {}
    shown: set[Any] = set()
    for seed in range(20, 30):
        for before, *_ in playthrough(info, seed):
            shown |= {v for v in leaves(before.public())
                      if isinstance(v, str) or (isinstance(v, int) and abs(v) < 50)}
            for player in before.waiting_for():
                for action in before.legal_actions(player):
                    kind = fields.setdefault(action["type"], {})
                    for key, value in action.items():
                        if key not in ("type", "player"):
                            kind.setdefault(key, set()).add(_frozen(value))
    words = {v for v in shown if isinstance(v, str)}
    numbers = {v for v in shown if not isinstance(v, str)}
    domains = {kind: {key: sorted(_bent(values | set(info.values.get(key, ())) | (words if any(isinstance(v, str) for v in values)
                                                 else numbers if any(isinstance(v, int)
                                                                     for v in values)
                                                 else set())), key=repr)
                      for key, values in keys.items()}
               for kind, keys in fields.items()}

    def candidates(state: State) -> Iterator[dict[str, Any]]:
        rng = random.Random(repr(state.public()))
        for player in state.players + ("nobody",):
            for kind, keys in domains.items():
                names = sorted(keys)
                combos = list(itertools.islice(itertools.product(*(keys[n] for n in names)),
                                               5000))
                if len(combos) > 150:
                    combos = rng.sample(combos, 150)
                for combo in combos:
                    yield {"type": kind, "player": player,
                           **{n: _thawed(v) for n, v in zip(names, combo)}}
    return candidates


def accepted(state: State, action: dict[str, Any]) -> bool:
    try:
        state.apply(action)
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_action_is_accepted_exactly_when_it_is_listed(name):
    info = GAMES[name]
    candidates = candidates_for(info)
    rng = random.Random(1)
    checked = 0
    for seed in range(10):
        states = list(playthrough(info, seed))
        for before, *_ in rng.sample(states, min(len(states), 8)):  # eight states a game
            listed = {p: before.legal_actions(p) for p in before.players + ("nobody",)}
            for candidate in candidates(before):
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
