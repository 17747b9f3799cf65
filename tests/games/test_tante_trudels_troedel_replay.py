"""``spielleiter replay`` for Tante Trudels Trödel: a whole scripted game (a back move, coupons paid
to the shop and to a player, a weighing on a scales row, a finish decided by 0.1 g), the secret
grams in a game cut short, options, and illegal actions."""

from __future__ import annotations

import json
import random

import pytest

from spielleiter.device.replay import ReplayError, run
from spielleiter.games import GAMES, complete
from spielleiter.games.tante_trudels_troedel import new_game

GAME = "tante-trudels-troedel"


def doc(actions, players=("Anna", "Ben"), seed=7, **options):
    return json.dumps({"game": GAME, "players": list(players), "seed": seed,
                       "options": options, "actions": actions})


def a(kind, player=None, **fields):
    return {"type": kind, **({"player": player} if player else {}), **fields}


def turn(player, value, *middle, direction="forward", end=True):
    steps = [a("roll", player, value=value), a("move", player, direction=direction)]
    return steps + [a(k, player, **f) for k, f in middle] + ([a("end_turn", player)] if end else [])


POTD = [a("roll", "Anna", value=6), a("roll", "Anna", value=4), a("roll", "Anna", value=3),
        a("weigh_potd", grams=12.4)]
PLAY = (
    turn("Anna", 6, ("take", {"coupon": True}))                  # row 6: the coupon of row 6
    + turn("Ben", 3, ("take", {"coupon": True}))                 # row 3 faces row 13's line
    + turn("Anna", 2, ("coupon_shop", {}), ("weigh", {"grams": 5.1}))  # row 8: scales
    + turn("Ben", 5, ("take", {"coupon": False}))                # row 8
    + turn("Anna", 6, ("take", {"coupon": False}))               # row 14
    + turn("Ben", 6, ("coupon_player", {"target": "Anna"}), ("exchange", {}))  # row 14
    + turn("Anna", 5, ("take", {"coupon": False}))               # row 19
    + turn("Ben", 5, ("take", {"coupon": False}))                # row 19
    + turn("Anna", 4, ("take", {"coupon": False}), direction="back")  # back to row 15
)
FINISH = (turn("Ben", 2, end=False) + turn("Anna", 6, end=False)
          + [a("weigh_basket", "Ben", grams=12.3), a("weigh_basket", "Anna", grams=12.2)])


def players(state):
    return {p["name"]: p for p in state["players"]}


def test_a_whole_game_replays_to_the_reveal_with_the_winner_by_a_tenth_of_a_gram():
    state, error = run(doc(POTD + PLAY + FINISH))
    assert error is None
    assert state["phase"] == "over" and state["winners"] == ["Ben"] and state["turn"] is None
    assert state["potd_g"] == 12.4 and state["potd_rows"] == [6, 10, 13]
    seats = players(state)
    assert {n: (p["position"], p["arrival"], p["items"], p["coupons"], p["basket_g"])
            for n, p in seats.items()} == {"Anna": (21, 2, 3, 1, 12.2),
                                           "Ben": (21, 1, 3, 0, 12.3)}
    assert state["last_weigh"] == "lighter" and state["last_weigh_by"] == "Anna"


def test_a_game_cut_short_shows_no_gram_figure():
    for cut in range(len(POTD) + 1, len(POTD + PLAY + FINISH)):
        state, error = run(doc((POTD + PLAY + FINISH)[:cut]))
        assert error is None and state["phase"] in ("play", "weighing")
        text = json.dumps(state)
        assert all(g not in text for g in ("12.4", "5.1", "12.3", "12.2")), cut
        assert state["potd_g"] is None and all(p["basket_g"] is None for p in state["players"])
    assert state["phase"] == "weighing" and state["waiting_for"] == ["Anna"]


def test_the_state_fields_of_the_issue_are_there_from_the_start():
    state, error = run(doc([]))
    assert error is None
    assert {"game", "phase", "turn", "last_weigh", "players", "winners"} <= set(state)
    assert state["phase"] == "potd" and state["turn"] is None and state["last_weigh"] is None
    assert state["players"][0] == {"name": "Anna", "position": 0, "arrival": None, "items": 0,
                                   "coupons": 0, "basket_g": None}


def test_options_choose_the_maker_the_first_player_the_scales_rows_and_the_goal():
    actions = [a("roll", "Ben", value=1)] * 3 + [a("weigh_potd", grams=9)]
    state, error = run(doc(actions, potd_maker="Ben", first="Ben", scale_rows=[5, 15],
                           goal="lightest", tie_band_g=0.1))
    assert error is None and state["turn"] == "Ben" and state["potd_rows"] == [1, 2, 3]
    assert state["scale_rows"] == [5, 15] and state["goal"] == "lightest"
    with pytest.raises(ReplayError, match="cannot start tante-trudels-troedel: goal"):
        run(doc([], goal="fastest"))
    with pytest.raises(ReplayError, match="potd_maker"):
        run(doc([], potd_maker="Zoe"))


def test_an_illegal_action_stops_with_its_index_and_the_state_before():
    actions = POTD + turn("Anna", 6, ("take", {"coupon": True}), end=False) + [
        a("take", "Anna", coupon=False)]
    state, error = run(doc(actions))
    assert error.startswith(f"action {len(actions) - 1}: one action a turn")
    assert players(state)["Anna"]["coupons"] == 1 and state["acted"] is True
    state, error = run(doc(POTD + [a("roll", "Anna", value=7)]))
    assert error.startswith("action 4: the die shows 1 to 6")
    state, error = run(doc(POTD + [a("move", "Anna", direction="back")]))
    assert error.startswith("action 4: roll first")


@pytest.mark.parametrize("seed", range(5))
def test_random_games_from_legal_actions_replay_to_the_same_public_state(seed):
    rng = random.Random(seed)
    info = GAMES[GAME]
    names = ["Anna", "Ben", "Cem", "Dora"][: rng.randint(2, 4)]
    state, actions = new_game(names, {}, seed), []
    while not state.is_over:
        (player,) = state.waiting_for()
        action = complete(info, rng.choice(state.legal_actions(player)), rng)
        actions.append(action)
        state, _ = state.apply(action)
    replayed, error = run(doc(actions, players=names, seed=seed))
    assert error is None and replayed == json.loads(json.dumps(state.public()))


def test_the_replay_command_prints_the_state_before_an_illegal_action_and_exits_1(capsys):
    from support import run_replay

    code, state, err = run_replay(capsys, doc(POTD + [a("roll", "Ben", value=3)]))
    assert code == 1 and "action 4: Anna's turn, not Ben's" in err
    assert state["phase"] == "play" and state["turn"] == "Anna" and "12.4" not in json.dumps(state)
    code, state, err = run_replay(capsys, doc(POTD + PLAY + FINISH))
    assert code == 0 and state["winners"] == ["Ben"] and err == ""
