"""``spielleiter replay`` for Bunte Runde: whole games of each set and the error messages."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support import run_replay

from spielleiter.games.bunte_runde import SHAPES, full_set, new_game

ANNA_BEN = ["Anna", "Ben"]


replay = run_replay


def doc(players, actions, seed=7, **options):
    return {"game": "bunte-runde", "players": players, "seed": seed, "options": options,
            "actions": actions}


def move(player, steps):
    return {"type": "move", "player": player, "steps": steps}


def take(player, colour, shape):
    return {"type": "take", "player": player, "colour": colour, "shape": shape}


def moves_to_the_end(players, seed, **options):
    """A whole dealt game: the moves of a fixed 2, 3, 1, ... pattern until the engine ends it."""
    state = new_game(players, options, seed)
    actions = []
    while not state.is_over:
        action = move(state.turn(), (2, 3, 1)[len(actions) % 3])
        actions.append(action)
        state, _ = state.apply(action)
    return actions, state


def one_line(err: str) -> str:
    assert err.endswith("\n") and err.count("\n") == 1, err
    return err.strip()


# -- whole games ---------------------------------------------------------------------------------
@pytest.mark.parametrize("set_name,n", [("pieces", 6), ("tiles", 5)])
def test_a_whole_dealt_game_of_each_set_through_replay(capsys, set_name, n):
    players = ["Anna", "Ben", "Cem", "Dora"]
    actions, final = moves_to_the_end(players, 11, set=set_name)
    code, state, err = replay(capsys, doc(players, actions, seed=11, set=set_name))
    assert code == 0 and err == ""
    assert state == json.loads(json.dumps(final.public()))
    assert state["phase"] == "over" and state["turn"] is None and state["coins_left"] == 0
    assert state["set"] == set_name and len(state["layout"]) == n * n
    coins = {p["name"]: p["coins"] for p in state["players"]}
    large = n if state["large_coin"] else 0  # B5: the large coin counts n, its n small are back
    assert sum(coins.values()) == n * n + state["shortfall"] + large
    assert state["winners"] == [p for p in players if coins[p] == max(coins.values())]


def test_a_whole_free_layout_tiles_game_with_the_large_coin(capsys):
    # B7 + B5: 20 tiles colour by colour, then blue frog is a double scoring with 5 coins left;
    # Ben (11 small coins against Anna's 9) swaps 5 of them for the large coin first.
    animals = SHAPES["tiles"]
    order = [("red", a) for a in animals] + [("yellow", a) for a in animals]
    order += [("green", a) for a in ("dog", "cat", "fish", "bird", "frog")]
    order += [("purple", "frog"), ("blue", "dog"), ("blue", "cat"), ("blue", "fish"),
              ("purple", "cat"), ("blue", "bird"), ("blue", "frog")]
    actions = [take(ANNA_BEN[i % 2], c, a) for i, (c, a) in enumerate(order)]
    code, state, err = replay(capsys, doc(ANNA_BEN, actions, set="tiles", layout="free"))
    assert code == 0 and err == ""
    assert state["phase"] == "over" and state["free"] is True and state["layout"] is None
    assert state["large_coin"] == "Ben" and state["large_coin_value"] == 5
    assert [(p["name"], p["coins"], p["small_coins"]) for p in state["players"]] == [
        ("Anna", 14, 14), ("Ben", 16, 11)]
    assert state["winners"] == ["Ben"] and state["pieces_left"] == 3


def test_a_given_layout_replays_the_same_as_the_dealt_one(capsys):
    # B2: the dealt circle of seed 11, handed over as the layout option, plays the same game.
    actions, final = moves_to_the_end(ANNA_BEN, 11)
    layout = [list(p) for p in final.pieces]
    code, state, err = replay(capsys, doc(ANNA_BEN, actions, seed=0, layout=layout))
    assert code == 0 and err == ""
    assert state["winners"] == list(final.winners())
    assert state["players"] == json.loads(json.dumps(final.public()["players"]))


def test_replay_through_the_installed_command_reads_a_file(tmp_path):
    actions, final = moves_to_the_end(["Ida", "Jo", "Kim"], 3, set="tiles")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc(["Ida", "Jo", "Kim"], actions, seed=3, set="tiles")))
    run = subprocess.run([sys.executable, "-m", "spielleiter.device.cli", "replay", str(path)],
                         capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["winners"] == list(final.winners())


# -- errors --------------------------------------------------------------------------------------
def test_wrong_player_stops_with_the_index_and_the_state_before(capsys):
    actions = [move("Anna", 1), move("Ben", 2), move("Ben", 1), move("Anna", 1)]
    code, state, err = replay(capsys, doc(ANNA_BEN, actions))
    assert code == 1
    assert one_line(err).startswith("spielleiter replay: action 2: Anna's turn, not Ben's (")
    assert state["turn"] == "Anna" and state["pieces_left"] == 34  # two moves applied


@pytest.mark.parametrize("steps", [0, 4, -1, "2", True])
def test_steps_outside_1_to_3_are_refused(capsys, steps):
    code, state, err = replay(capsys, doc(ANNA_BEN, [move("Anna", 3), move("Ben", steps)]))
    assert code == 1
    line = one_line(err)
    assert line.startswith("spielleiter replay: action 1: ")
    assert "steps: 1, 2 or 3" in line or "bad 'steps'" in line
    assert state["pieces_left"] == 35 and state["turn"] == "Ben"


def test_a_piece_already_taken_is_refused_in_a_free_layout(capsys):
    actions = [take("Anna", "red", "cat"), take("Ben", "red", "dog"), take("Anna", "red", "cat")]
    code, state, err = replay(capsys, doc(ANNA_BEN, actions, set="tiles", layout="free"))
    assert code == 1
    assert "action 2: red cat is already taken" in one_line(err)
    assert state["players"][0]["pieces"] == [["red", "cat"]]


@pytest.mark.parametrize("action,message", [
    (take("Anna", "pink", "cat"), "no colour 'pink'"),
    (take("Anna", "red", "circle"), "no animal 'circle'"),
    (move("Anna", 1), "free layout: use take"),
])
def test_free_layout_refuses_unknown_names_and_moves(capsys, action, message):
    code, _state, err = replay(capsys, doc(ANNA_BEN, [action], set="tiles", layout="free"))
    assert code == 1 and message in one_line(err)


def test_take_in_a_dealt_game_is_refused(capsys):
    code, _state, err = replay(capsys, doc(ANNA_BEN, [take("Anna", "red", "circle")]))
    assert code == 1 and "take: free layout only" in one_line(err)


@pytest.mark.parametrize("layout,message", [
    ([list(p) for p in full_set("pieces")][:35], "layout: 36 pairs [colour, shape]"),
    ([list(p) for p in full_set("pieces")][:35] + [["red", "circle"]], "layout: a pair twice"),
    ([list(p) for p in full_set("tiles")], "layout: 36 pairs"),
])
def test_a_layout_that_is_not_a_full_set_cannot_start(capsys, layout, message):
    code, state, err = replay(capsys, doc(ANNA_BEN, [], layout=layout))
    assert code == 2 and state is None
    line = one_line(err)
    assert line.startswith("spielleiter replay: cannot start bunte-runde: ") and message in line


def test_bad_set_and_player_count_cannot_start(capsys):
    code, _state, err = replay(capsys, doc(ANNA_BEN, [], set="cards"))
    assert code == 2 and "set: pieces or tiles" in one_line(err)
    code, _state, err = replay(capsys, doc(["Solo"], []))
    assert code == 2 and "2-6 players, not 1" in one_line(err)


def test_no_action_after_the_end(capsys):
    actions, final = moves_to_the_end(ANNA_BEN, 5)
    code, state, err = replay(capsys, doc(ANNA_BEN, actions + [move(final.players[0], 1)],
                                          seed=5))
    assert code == 1 and f"action {len(actions)}: the game is over" in one_line(err)
    assert state["phase"] == "over"
