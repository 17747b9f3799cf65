"""Past games the box kept before: a journal made by the current release is listed and
replayed; a game corrected afterwards says so in the list and at the end of its replay; a
weighing of a past game is not weighed again while a game with secret grams waits."""

from __future__ import annotations

import shutil
from pathlib import Path

from spielleiter.device import i18n
from spielleiter.device.past.games import PastGames
from spielleiter.device.ui.game import GAME_MENU
from spielleiter.device.config.paths import JOURNAL_NAME
from test_correct_on_box import GAME, PLAYERS, find_roll, open_menu, open_step
from pastkit import random_game_actions, record_game

RELEASE = Path(__file__).parent.parent / "data" / "journal-0.1.0.sqlite3"


def to_home_from_a_resumed_game(box) -> None:
    box.idle(2.5)                  # "Game resumed" goes (a key would only take it away)
    box.tap("host.back")           # the game menu
    while GAME_MENU[box.app.cursor] != "pause":
        box.tap("host.next")
    box.tap("host.ok")
    assert box.app.mode == "home" and box.app.paused


def open_past(box) -> None:
    home = box.app.screens.stack[0]
    first = 1 if box.app.paused else 0
    while box.app.cursor < first or home.modes[box.app.cursor - first].name != "past":
        box.tap("host.next")
    box.tap("host.ok")


def test_the_games_of_a_journal_from_the_current_release_are_listed_and_replayed(
        fast_game_box_factory, tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    shutil.copy(RELEASE, state / JOURNAL_NAME)
    box = fast_game_box_factory(state_dir=state)
    i18n.use("en")                     # its table had chosen German
    to_home_from_a_resumed_game(box)   # its Trödel game was still running
    open_past(box)
    pages = []
    for _ in range(3):
        pages.append(box.app.view())
        box.tap("host.next")
    assert [p.lines[0] for p in pages] == ["Currency Torraku", "Bunte Runde", "Tatort Tonne"]
    assert pages[1].lines[1] == "Ended early"
    assert all(p.title != "Date unknown" for p in pages)  # its wall times were plausible
    box.tap("host.ok")                 # Currency Torraku, replayed to its standings
    assert box.app.mode == "replay"
    screen = box.app.top
    screen.index = screen.last - 1
    box.tap("host.ok")
    assert box.app.view().title == "Standings" and "OK list" in box.app.view().footer


def test_a_corrected_game_says_so_in_the_list_and_at_the_end_of_its_replay(
        fast_game_box_factory):
    box = fast_game_box_factory()
    actions = random_game_actions(GAME, PLAYERS, 4)
    game_id = record_game(box.app.journal, GAME, PLAYERS, 4, actions)
    seq, value = find_roll(actions, works=True)
    PastGames(box.app.journal).correct(game_id, seq, {**actions[seq], "value": value},
                                       "Die value entered wrongly")
    open_past(box)
    assert box.app.view().lines[-1] == "corrected afterwards"
    box.tap("host.ok")
    screen = box.app.top
    titles = [f.view.title for f in screen.replay.frames[screen.first_of(len(actions) + 1):]]
    assert f"Corrected: step {seq + 1}" in titles
    assert titles[-1] in ("Result unchanged", "Result changed!")
    notes = screen.replay.frames[-2].view
    assert notes.lines[0] == f"{value}, was {actions[seq]['value']}"


def test_a_weighing_is_not_weighed_again_while_a_game_with_secret_grams_waits(box_factory):
    box = box_factory()
    actions = random_game_actions(GAME, PLAYERS, 4)
    record_game(box.app.journal, GAME, PLAYERS, 4, actions)
    from support import start_header

    start_header(box, GAME, ["Zoe", "Max"], {})
    to_home_from_a_resumed_game(box)
    seq = max(n for n, a in enumerate(actions) if a["type"] == "weigh_basket")
    open_step(box, seq)
    assert box.app.mode == "replay"
    assert box.app.flash_view.lines[:2] == ("A game is waiting:", "its grams are secret.")


def test_an_abandoned_game_is_never_offered_a_correction(fast_game_box_factory):
    """Correct this step is offered only where a step can be corrected (it used to be offered
    on an abandoned game, only to be refused: "Only a finished game can be corrected")."""
    box = fast_game_box_factory()
    actions = random_game_actions(GAME, PLAYERS, 4)
    record_game(box.app.journal, GAME, PLAYERS, 4, actions, finish=False)
    seq = next(n for n, a in enumerate(actions) if a["type"] == "roll")
    open_menu(box, seq)
    assert "Correct this step" not in box.app.view().lines
