"""A game is one engine module and one mode folder (docs/adding-a-game.md): Pan Dice, written by
that recipe under tests/fixture_game/, is found by discovery alone and played to the end by the
shared referee through its die, its choice and its weighing on the simulated pans."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import start_header

import spielleiter.device.modes as modes
import spielleiter.games as games

FIXTURE = Path(__file__).resolve().parent.parent / "fixture_game"


@pytest.fixture
def pan_dice():
    """Pan Dice is on the registries' search paths for the whole run (tests/conftest.py)."""
    assert str(FIXTURE / "games") in games.__path__ and str(FIXTURE / "modes") in modes.__path__


def test_a_new_game_is_found_by_its_engine_module_and_mode_folder_alone(pan_dice, box_factory):
    assert "pan-dice" in games.GAMES and "pan-dice" in modes.GAME_MODES
    box = box_factory(["Anna", "Ben"])
    assert "Pan Dice" in box.last_view.lines          # on the home menu, no shared file changed


def game(box):
    return box.app.session.state


def play_turn(box, hit: bool) -> None:
    """The player at station 1 or 2 rolls (the box's die), aims, and weighs on the left pan."""
    station = f"s{game(box).turn + 1}"
    box.tap(f"{station}.B")                           # the box rolls
    box.idle(2.0)
    assert game(box).phase == "aim" and 1 <= game(box).pips <= 6
    box.tap(f"{station}.B")                           # the first choice: aim
    box.idle(0.5)
    while box.app.referee.pages:
        box.tap("host.ok")
    grams = 10.0 * game(box).pips + (0.0 if hit else 20.0)
    box.put("left", grams)
    box.idle(2.0)
    box.tap(f"{station}.B")                           # weighed: the grams the pan settled at
    box.idle(0.5)
    while box.app.referee is not None and box.app.referee.pages:
        box.tap("host.ok")
    box.put("left", -grams)
    box.idle(2.0)


def test_the_shared_referee_plays_pan_dice_by_its_die_choice_and_weighing(pan_dice, box_factory):
    box = box_factory(["Anna", "Ben"])
    start_header(box, "pan-dice", ["Anna", "Ben"], {"goal": 2})
    play_turn(box, hit=True)                          # Anna: a point
    assert game(box).points == {"Anna": 1, "Ben": 0}
    play_turn(box, hit=False)                         # Ben: 20 g off the target
    assert game(box).points == {"Anna": 1, "Ben": 0}
    play_turn(box, hit=True)
    assert game(box).is_over and game(box).winners() == ("Anna",)
    kinds = [a["type"] for a in box.app.session.actions]
    assert kinds.count("roll") == 3 and kinds.count("weigh") == 3


def test_a_past_game_of_a_new_game_says_each_step_by_the_engines_labels(pan_dice):
    from spielleiter.device.modes.past.steps import step_view

    state = games.GAMES["pan-dice"].new_game(["Anna", "Ben"], {}, seed=1)
    state, _ = state.apply({"type": "roll", "player": "Anna", "value": 3})
    view = step_view(state, {"type": "aim", "player": "Anna"}, 2, 9)
    assert view.big == "Anna" and view.lines == ("Aim",)
