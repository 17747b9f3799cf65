"""The shared core: every state serialises to JSON and back, unchanged, at every step."""

from __future__ import annotations

import json
import random

import pytest

from spielleiter.games import GAMES, GameError
from spielleiter.games.bunte_runde import BunteRunde
from spielleiter.games.tatort_tonne import CARDS, TatortTonne


def round_trip(state):
    return type(state).from_json(json.loads(json.dumps(state.to_json())))


def test_tatort_tonne_states_round_trip_through_json_at_every_step():
    rng = random.Random(5)
    state = GAMES["tatort-tonne"].new_game(["a", "b", "c", "d"], {"trash": 6}, 0)
    steps = 0
    while not state.is_over:
        player = rng.choice(state.waiting_for())
        if state.phase == "choose":
            action = {"type": "choose", "player": player, "card": rng.choice(CARDS)}
        else:
            targets = [p for p in state.still_in() if p != player] + [None]
            action = {"type": "point", "player": player, "target": rng.choice(targets)}
        state, _ = state.apply(action)
        assert round_trip(state) == state
        steps += 1
    assert steps > 5 and isinstance(round_trip(state), TatortTonne)


@pytest.mark.parametrize("options", [{}, {"set": "tiles"}, {"layout": "free"}])
def test_bunte_runde_states_round_trip_through_json_at_every_step(options):
    rng = random.Random(9)
    state = GAMES["bunte-runde"].new_game(["a", "b", "c"], options, 4)
    while not state.is_over:
        if state.free:
            colour, shape = rng.choice([p for p, t in zip(state.pieces, state.taken) if not t])
            action = {"type": "take", "player": state.turn(), "colour": colour, "shape": shape}
        else:
            action = {"type": "move", "player": state.turn(), "steps": rng.randint(1, 3)}
        state, _ = state.apply(action)
        again = round_trip(state)
        assert again == state and again.public() == state.public()
    assert isinstance(round_trip(state), BunteRunde)


def test_a_state_of_another_game_or_a_broken_one_is_refused():
    tatort = GAMES["tatort-tonne"].new_game(["a", "b"], {}, 0).to_json()
    with pytest.raises(GameError, match="not a bunte-runde state"):
        BunteRunde.from_json(tatort)
    tatort["state"].pop("players")
    with pytest.raises(GameError, match="bad tatort-tonne state"):
        TatortTonne.from_json(tatort)


def test_ranking_orders_by_key_and_ties_share_a_rank_in_seat_order():
    from spielleiter.games import ranking

    entries = [("a", 3, "x"), ("b", 5, "y"), ("c", 3, "z"), ("d", 1, "w")]
    assert ranking(entries) == [(1, "b", "y"), (2, "a", "x"), (2, "c", "z"), (4, "d", "w")]
    assert ranking([]) == []


def test_complete_fills_only_a_missing_measurement_from_the_rng():
    from spielleiter.games import GameInfo, Measurement, complete

    info = GameInfo("x", "X", 1, 2, lambda p, o, s: None,
                    {"weigh": Measurement("grams", 1.0, 2.0, decimals=1, private=True)})
    filled = complete(info, {"type": "weigh", "player": "a"}, random.Random(3))
    assert set(filled) == {"type", "player", "grams"} and 1.0 <= filled["grams"] <= 2.0
    assert filled["grams"] == round(filled["grams"], 1)
    assert complete(info, {"type": "weigh", "grams": 7}, random.Random(3))["grams"] == 7
    assert complete(info, {"type": "roll", "value": 2}, random.Random(3)) == {
        "type": "roll", "value": 2}


def test_complete_draws_a_missing_die_from_the_rng_as_a_measurement_is():
    from spielleiter.games import Chance, GameInfo, complete

    info = GameInfo("x", "X", 1, 2, lambda p, o, s: None, chance={"roll": Chance("value", (2, 4))})
    drawn = {complete(info, {"type": "roll"}, random.Random(seed))["value"] for seed in range(20)}
    assert drawn == {2, 4}
    assert complete(info, {"type": "roll", "value": 5}, random.Random(3))["value"] == 5


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("kind", [None, 3, ["choose"], "missing"])
def test_an_action_without_a_named_type_is_refused_with_the_types_it_may_have(name, kind):
    state = GAMES[name].new_game(["a", "b", "c"], {}, 0)
    action = {"player": "a"} if kind == "missing" else {"type": kind, "player": "a"}
    with pytest.raises(GameError) as refused:
        state.apply(action)
    assert 'an action\'s "type" names it: one of ' in str(refused.value)
    assert all(kind in str(refused.value) for kind in type(state).ACTIONS)
    assert "None" not in str(refused.value)
