"""The README's replay example for Currency Torraku: through the engine, and through
``spielleiter replay`` once the game is registered in ``games/__init__.py``."""

from __future__ import annotations

import json

import pytest
from support import run_replay

from spielleiter.games import GAMES
from spielleiter.games.currency_torraku import new_game

EXAMPLE = {
    "game": "currency-torraku", "players": ["Alexandra", "Melanie", "Ulrike"], "seed": 7,
    "options": {"bag": {"truck": 6, "washing_machine": 6, "rice_cooker": 18}, "long": False},
    "actions": [
        {"type": "bid", "player": "Alexandra", "count": 2},
        {"type": "bid", "player": "Melanie", "count": 3},
        {"type": "pass", "player": "Ulrike"},
        {"type": "pass", "player": "Alexandra"},
        {"type": "pass", "player": "Melanie"},
        {"type": "place", "player": "Melanie", "piece": "truck"},
        {"type": "place", "player": "Alexandra"},
        {"type": "drop", "player": "Melanie"},
        {"type": "place", "player": "Melanie", "piece": "rice_cooker"},
        {"type": "collapse", "player": "Alexandra"},
        {"type": "place", "player": "Melanie"},
    ],
}


def final_state() -> dict:
    state = new_game(EXAMPLE["players"], EXAMPLE["options"], EXAMPLE["seed"])
    for action in EXAMPLE["actions"]:
        state, _ = state.apply(action)
    return json.loads(json.dumps(state.public()))


def test_the_example_round_ends_after_a_collapse_and_the_last_placer_opens_round_2():
    pub = final_state()
    assert (pub["phase"], pub["round"], pub["turn"], pub["opener"]) == ("bid", 2, "Melanie",
                                                                        "Melanie")
    assert [(p["name"], p["pieces"], p["row"], p["bid"]) for p in pub["players"]] == [
        ("Alexandra", 12, 0, None), ("Melanie", 7, 0, None), ("Ulrike", 10, 0, None)]
    assert (pub["stack"], pub["bag"], pub["winners"]) == (0, 31, [])


def test_the_example_through_spielleiter_replay(capsys):
    if "currency-torraku" not in GAMES:
        pytest.skip("currency-torraku is not registered in games/__init__.py yet")
    code, state, err = run_replay(capsys, EXAMPLE)
    assert (code, err) == (0, "")
    assert state == final_state()


def test_an_illegal_action_in_a_replay_names_its_index(capsys):
    if "currency-torraku" not in GAMES:
        pytest.skip("currency-torraku is not registered in games/__init__.py yet")
    doc = {**EXAMPLE, "actions": EXAMPLE["actions"][:2] + [
        {"type": "bid", "player": "Ulrike", "count": 2}]}
    code, state, err = run_replay(capsys, doc)
    assert code == 1 and "action 2: bid at least 3" in err
    assert state["turn"] == "Ulrike" and state["highest"] == 3
