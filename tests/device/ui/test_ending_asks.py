"""Every way of ending a game asks once (OK confirms, BACK keeps): "End this game" from the game
menu, and a new game started while one is paused."""

from __future__ import annotations

from spielleiter.device.ui.game import GAME_MENU

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "modes"))
from test_tatort_tonne_referee import EXAMPLE_PLAYERS, start_game  # noqa: E402


def to_menu_entry(box, entry: str) -> None:
    box.tap("host.back")                                  # the game menu
    while GAME_MENU[box.app.cursor] != entry:
        box.tap("host.next")
    box.tap("host.ok")


def paused_game(box):
    start_game(box)
    box.tap("s1.A")                                       # one action to keep
    to_menu_entry(box, "pause")
    assert box.app.mode == "home" and box.app.paused
    return box.app.session


def start_another_from_home(box) -> None:
    """From the home menu (a game paused): the first game's menu, New game, through set-up."""
    box.tap("host.next")                                  # past "Continue the game"
    box.tap("host.ok")                                    # Tatort Tonne's own menu
    if box.app.mode == "start":
        box.tap("host.ok")                                # New game
    box.tap("host.ok")                                    # players
    box.tap("host.ok")                                    # trash
    box.tap("host.ok")                                    # start


def test_starting_a_game_while_one_is_paused_asks_once(fast_game_box_factory):
    box = fast_game_box_factory(EXAMPLE_PLAYERS)
    waiting = paused_game(box)
    start_another_from_home(box)
    assert box.app.mode == "confirm_end"                  # asked, nothing ended yet
    assert box.last_view.title == "Start a new game?"
    assert "Tatort Tonne is waiting" in " ".join(box.last_view.lines)
    assert box.app.session is waiting and not waiting.state.is_over
    box.tap("host.ok")                                    # OK: end it, the new game starts
    assert box.app.mode == "game" and box.app.session is not waiting
    assert box.app.session.actions == []


def test_back_on_the_question_keeps_the_paused_game(fast_game_box_factory):
    box = fast_game_box_factory(EXAMPLE_PLAYERS)
    waiting = paused_game(box)
    start_another_from_home(box)
    box.tap("host.back")                                  # BACK keeps
    assert box.app.session is waiting and box.app.paused
    assert box.app.mode == "setup"
    while box.app.mode != "home":
        box.tap("host.back")
    while box.app.cursor != 0:
        box.tap("host.next")
    box.tap("host.ok")                                    # Continue the game
    assert box.app.mode == "game" and len(box.app.session.actions) == 1


def test_ending_from_the_game_menu_asks_once(fast_game_box_factory):
    box = fast_game_box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    to_menu_entry(box, "end")
    assert box.app.mode == "confirm_end"
    box.tap("host.ok")
    assert box.app.mode == "home" and box.app.session is None


def test_a_new_game_without_a_paused_one_starts_without_a_question(fast_game_box_factory):
    box = fast_game_box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    assert box.app.mode == "game"
