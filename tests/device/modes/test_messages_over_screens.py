"""A short message over the screen ("Undone", "Game ended", a refusal) and the keys pressed
while it shows. A key on a message over the screen the player was looking at still does what it
says there (tests/device/modes/test_bunte_runde_referee.py: OK after "Wait: read the screen");
over a screen that changed under it, a key only takes the message away (the player has not seen
what it would do: tests/device/modes/test_tante_trudels_troedel_table.py, OK on "Undone"); a
station's key while several players choose at once always counts (a choice is never lost)."""

from __future__ import annotations

from spielleiter.device.modes import MODES
from support import open_game

from test_tatort_tonne_referee import EXAMPLE_PLAYERS, start_game


def end_the_game(box) -> None:
    box.tap("host.back")                                # the game menu
    while box.last_view.lines[box.last_view.cursor] != "End this game":
        box.tap("host.next")
    box.tap("host.ok")
    box.tap("host.ok")                                  # yes, end it


def test_after_a_game_ends_ok_only_takes_the_message_and_the_cursor_is_on_that_game(
        box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    open_game(box, "bunte-runde")
    box.tap("host.ok")
    while box.app.mode != "game":
        box.tap("host.ok")
    end_the_game(box)
    assert box.app.flash_view.lines == ("Game ended",)
    box.tap("host.ok")                                  # meant for the message
    assert box.app.mode == "home" and box.app.flash_view is None
    assert MODES[box.app.cursor].name == "bunte-runde"  # not back at the first game
    box.tap("host.ok")
    assert box.app.mode == "start" and box.last_view.title == "Bunte Runde"


def test_a_stations_choice_while_a_message_shows_is_never_lost(box_factory, tmp_path):
    box = box_factory(EXAMPLE_PLAYERS, state_dir=tmp_path / "cut")
    start_game(box)
    box.tap("s1.A")
    box.close()                                         # a power cut while they choose
    again = box_factory(EXAMPLE_PLAYERS, state_dir=tmp_path / "cut")
    again.idle(0.5)                                     # the guard after the start
    assert again.app.flash_view.lines[0] == "Game resumed"  # over a screen not seen yet
    again.tap("s2.B")                                   # Melanie chooses meanwhile
    assert again.app.session.state.choices == {"Alexandra": "steal", "Melanie": "accuse"}
    again.tap("host.next")                              # the host's key: the message goes
    assert again.app.flash_view is None
