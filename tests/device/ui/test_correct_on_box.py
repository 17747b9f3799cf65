"""Correcting a finished game on the box: a die value entered wrongly and a wrong weighing,
each asked once; the journal keeps the original and a correction row; the box says whether the
result changed and why; a correction the rules cannot take is refused with the reason."""

from __future__ import annotations

import pytest

from spielleiter.device.past.games import PastGames
from spielleiter.games import GAMES
from pastkit import random_game_actions, record_game

GAME = "tante-trudels-troedel"
PLAYERS = ["Ann", "Ben"]


def replays_to_an_end(actions) -> tuple[str, ...] | None:
    """The winners when ``actions`` replay to the end, else None."""
    state = GAMES[GAME].new_game(PLAYERS, {}, 4)
    try:
        for action in actions:
            state, _ = state.apply(action)
    except Exception:
        return None
    return state.winners() if state.is_over else None


def find_roll(actions, works: bool) -> tuple[int, int]:
    """(seq, new value) of a box roll whose other value replays to an end (or not)."""
    for seq, action in enumerate(actions):
        if action["type"] != "roll" or seq < 3:
            continue
        for value in range(1, 7):
            if value == action["value"]:
                continue
            ok = replays_to_an_end(actions[:seq] + [{**action, "value": value}] + actions[seq + 1:])
            if (ok is not None) == works:
                return seq, value
    raise AssertionError("no such roll in this game")


@pytest.fixture
def played(fast_game_box_factory):
    box = fast_game_box_factory()
    actions = random_game_actions(GAME, PLAYERS, 4)
    game_id = record_game(box.app.journal, GAME, PLAYERS, 4, actions)
    return box, actions, game_id


def open_menu(box, seq: int) -> None:
    """Home -> Past games -> the newest game's replay at action ``seq`` -> its menu."""
    while box.app.view().lines[box.app.cursor] != "Past games":
        box.tap("host.next")
    box.tap("host.ok")
    box.tap("host.ok")
    replay = box.app.top
    replay.index = replay.first_of(seq + 1)
    box.app.redraw()  # the frame changed without a press: shown, and the guard's time passes
    box.idle(0.5)
    box.tap("host.back")
    assert box.app.mode == "replay_menu"


def open_step(box, seq: int) -> None:
    """The replay's menu at action ``seq`` (``open_menu``), then its "Correct this step"."""
    open_menu(box, seq)
    lines = box.app.view().lines
    assert "Correct this step" in lines, lines   # offered only where the step can be corrected
    while box.app.view().lines[box.app.cursor] != "Correct this step":
        box.tap("host.next")
    box.tap("host.ok")


def test_a_die_value_is_corrected_after_one_question_and_the_box_says_what_changed(played):
    box, actions, game_id = played
    seq, value = find_roll(actions, works=True)
    open_step(box, seq)
    assert box.app.mode == "correct"
    assert box.app.view().big == str(actions[seq]["value"])
    while box.app.view().big != str(value):
        box.tap("host.next")
    box.tap("host.ok")
    assert box.app.mode == "confirm_correct"
    assert box.app.view().lines == (f"{value} instead of {actions[seq]['value']}",)
    box.tap("host.ok")
    assert box.app.view().title == f"Corrected: step {seq + 1}"
    assert "Die value entered wrongly" in " ".join(box.app.view().lines)
    box.tap("host.ok")
    before = replays_to_an_end(actions)
    after = replays_to_an_end(actions[:seq] + [{**actions[seq], "value": value}]
                              + actions[seq + 1:])
    assert box.app.view().title == ("Result unchanged" if before == after else "Result changed!")
    box.tap("host.ok")
    assert box.app.mode == "replay" and box.app.top.step() == seq + 1
    past = PastGames(box.app.journal)
    [made] = past.corrections(game_id)
    assert (made.seq, made.before, made.after["value"]) == (seq, actions[seq], value)
    assert box.app.journal.load(game_id).actions == actions  # the original stays
    assert past.record(game_id).corrected


def test_back_at_the_question_keeps_the_game_as_it_was(played):
    box, actions, game_id = played
    seq, value = find_roll(actions, works=True)
    open_step(box, seq)
    box.tap("host.next")
    box.tap("host.ok")
    box.tap("host.back")
    assert box.app.mode == "correct"
    box.tap("host.back")
    assert box.app.mode == "replay"
    assert PastGames(box.app.journal).corrections(game_id) == []


def test_a_correction_the_rules_cannot_take_is_refused_with_the_reason(played):
    box, actions, game_id = played
    seq, value = find_roll(actions, works=False)
    open_step(box, seq)
    while box.app.view().big != str(value):
        box.tap("host.next")
    box.tap("host.ok")
    box.tap("host.ok")
    assert box.app.mode == "correct"
    assert box.app.flash_view is not None
    assert " ".join(box.app.flash_view.lines).startswith("Not possible")
    assert PastGames(box.app.journal).corrections(game_id) == []


def test_the_menu_offers_no_correction_for_a_step_that_is_neither_a_die_nor_a_weighing(played):
    box, actions, game_id = played
    seq = next(n for n, a in enumerate(actions) if a["type"] == "move")
    roll, _value = find_roll(actions, works=True)
    open_step(box, roll)  # a die value: offered
    box.tap("host.back")
    assert box.app.mode == "replay"
    replay = box.app.top
    replay.index = replay.first_of(seq + 1)
    box.app.redraw()
    box.idle(0.5)
    box.tap("host.back")
    assert box.app.mode == "replay_menu"
    assert "Correct this step" not in box.app.view().lines
    assert box.app.view().lines[0] == "Go on"


def test_the_same_value_again_is_refused_and_nothing_is_written(played):
    box, actions, game_id = played
    seq, _value = find_roll(actions, works=True)
    open_step(box, seq)
    box.tap("host.ok")
    assert box.app.mode == "correct"
    assert "already has" in " ".join(box.app.flash_view.lines)


def test_without_pans_a_weighing_cannot_be_weighed_again_and_the_box_says_so(played):
    box, actions, game_id = played
    seq = max(n for n, a in enumerate(actions) if a["type"] == "weigh_basket")
    open_step(box, seq)
    assert box.app.mode == "replay"
    assert " ".join(box.app.flash_view.lines) == "This needs a pan to weigh it again."


def test_a_wrong_weighing_is_weighed_again_on_the_pan_and_the_result_follows(box_factory):
    box = box_factory()
    actions = random_game_actions(GAME, PLAYERS, 4)
    game_id = record_game(box.app.journal, GAME, PLAYERS, 4, actions)
    seq = max(n for n, a in enumerate(actions) if a["type"] == "weigh_basket")
    open_step(box, seq)
    assert box.app.mode == "correct" and box.app.view().big == "WAIT"
    pan = next(iter(box.scales.pans))
    box.put(pan, 5.0)
    box.idle(3.0)
    assert box.app.view().title == "Weighed again"
    grams = box.app.top.value
    assert abs(grams - 5.0) < 0.3
    box.tap("host.ok")
    box.tap("host.ok")
    assert box.app.view().title == f"Corrected: step {seq + 1}"
    box.tap("host.ok")
    assert box.app.view().title in ("Result unchanged", "Result changed!")
    [made] = PastGames(box.app.journal).corrections(game_id)
    assert made.after["grams"] == grams and made.why == "Weighed wrongly"
