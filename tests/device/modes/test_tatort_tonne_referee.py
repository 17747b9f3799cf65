"""Tatort Tonne on the device: MockFactory pins in, OLED frames and the journal out."""

from __future__ import annotations

import pytest

import sqlite3

from support import assert_frame
from spielleiter.device.box import JOURNAL_NAME
from spielleiter.device.cli.demo import play
from spielleiter.device.modes.tatort_tonne.demo import PLAYERS, script as tatort_tonne_script
from spielleiter.device.modes.tatort_tonne.referee import COUNTDOWN_S

EXAMPLE_PLAYERS = list(PLAYERS)


@pytest.fixture
def box_factory(fast_game_box_factory):
    """Games at the table's "fast" pace, on a box without load cells (see conftest.py)."""
    return fast_game_box_factory



def open_game(box) -> None:
    """From the home menu to Tatort Tonne's set-up (through the game's own menu, "New game")."""
    box.tap("host.ok")
    if box.app.mode == "start":
        box.tap("host.ok")


def start_game(box, players: int = 5) -> None:
    open_game(box)
    for _ in range(players - 4):
        box.tap("host.next")
    box.tap("host.ok")
    box.tap("host.ok")                      # trash 25
    box.tap("host.ok")                      # start
    assert box.app.mode == "game"


def hot_seat(box, card_index: int, last: bool = False) -> None:
    """A hot-seat hand-over at the host panel; the ``last`` card of a round goes straight on."""
    box.tap("host.ok")
    box.tap("host.ok")
    for _ in range(card_index):
        box.tap("host.next")
    box.tap("host.ok")
    if not last:
        box.tap("host.ok")


def host_pick(box, steps: int) -> None:
    """The host panel answers whom the accuser pointed at: OK opens the list, NEXT, OK."""
    box.tap("host.ok")
    for _ in range(steps):
        box.tap("host.next")
    box.tap("host.ok")


def example_choices(box) -> None:
    box.tap("s1.C")
    box.tap("s2.B")
    box.tap("s3.B")
    hot_seat(box, 2)
    hot_seat(box, 0, last=True)


def test_standings_refused_during_the_reveal_say_why_until_a_key(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    example_round_pointed(box)
    assert box.app.referee.pages                   # the reveal, page by page, not read yet
    box.tap("host.back")
    assert box.app.mode == "menu"
    box.tap("host.next")
    box.tap("host.ok")                             # Standings: they would tell who stole
    assert box.last_view.title == "Standings"     # why not: a screen of its own, with a title
    assert "give away the round's news" in " ".join(box.last_view.lines)
    box.idle(30)                                   # it waits for a key
    assert box.last_view.title == "Standings" and box.last_view.footer.startswith("OK")
    box.tap("host.ok")                             # OK: to the news, read to its end
    assert box.app.mode == "game"
    while box.app.referee.pages:
        box.tap("host.ok")
    box.tap("host.back")
    box.tap("host.next")
    box.tap("host.ok")
    assert box.last_view.title == "Standings"


def example_round_pointed(box) -> None:
    """The rulebook's example round from the start: choices, the countdown, and Melanie and
    Ulrike pointed at Birgit at the box; the reveal pages follow."""
    start_game(box)
    example_choices(box)
    box.idle(COUNTDOWN_S)
    for _ in range(2):
        host_pick(box, 2)


def actions(box) -> int:
    return len(box.app.session.actions)


def test_the_demo_plays_from_the_menu_to_a_winner(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    play(box, tatort_tonne_script())
    state = box.app.session.state
    assert state.is_over and state.winners() == ("Sarah",)
    assert box.last_view.title == "Standings"           # the demo's last OK: after the winner
    assert box.last_view.lines[0].startswith("1. Sarah") and box.last_view.footer.endswith("menu")
    box.tap("host.ok")
    assert box.app.mode != "game" and box.app.session is None


def test_reference_frames_of_a_round(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    assert_frame(box.frame(), "tt_home")
    start_game(box)
    assert_frame(box.frame(), "tt_choose_buttons")
    box.tap("s1.C")
    assert_frame(box.frame(), "tt_choose_4_of_5")
    box.tap("s2.B")
    box.tap("s3.B")
    box.tap("host.ok")
    assert_frame(box.frame(), "tt_hot_seat_privacy")
    box.tap("host.ok")
    assert_frame(box.frame(), "tt_hot_seat_cards")
    box.tap("host.next")
    box.tap("host.next")
    box.tap("host.ok")
    assert_frame(box.frame(), "tt_hot_seat_blank")
    box.tap("host.ok")
    hot_seat(box, 0, last=True)             # the last card: "get ready" (2 s), then 3
    assert_frame(box.frame(), "tt_get_ready")
    box.idle(2.0)
    assert_frame(box.frame(), "tt_countdown_3")
    box.idle(COUNTDOWN_S)
    assert_frame(box.frame(), "tt_who_did_melanie_point_at")
    box.tap("host.ok")
    box.tap("host.next")
    box.tap("host.next")
    assert_frame(box.frame(), "tt_host_picks_birgit")
    box.tap("host.ok")
    host_pick(box, 2)
    assert_frame(box.frame(), "tt_reveal_accusations")
    box.tap("host.ok")
    assert_frame(box.frame(), "tt_reveal_birgit_alibi")


def test_the_screen_never_shows_who_chose_what(box_factory, tmp_path):
    frames = []
    for card in ("s1.A", "s1.B", "s1.C"):
        box = box_factory(EXAMPLE_PLAYERS, state_dir=tmp_path / card)
        start_game(box)
        box.tap(card)
        frames.append(box.frame().tobytes())
        assert box.last_view.big == "4 of 5"
        view = box.last_view
        shown = " ".join((view.title, view.big or "", *view.lines)).lower()
        assert not any(word in shown for word in ("steal", "alibi", "accuse", "alexandra"))
    assert frames[0] == frames[1] == frames[2]


def test_a_player_may_change_their_choice_at_the_station(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    box.tap("s1.A")
    box.tap("s1.C")
    assert box.app.session.state.choices["Alexandra"] == "alibi"
    assert box.last_view.big == "4 of 5"


def test_a_bouncing_contact_is_one_choice(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    pin = box._pin("s1.A")
    for _ in range(5):  # 10 edges inside the debounce window
        pin.drive_low()
        pin.drive_high()
    box.runtime.pump()
    box.idle(0.5)
    assert actions(box) == 1


def test_two_stations_pressed_at_once_both_count(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    a, b = box._pin("s1.A"), box._pin("s2.C")
    a.drive_low()
    b.drive_low()
    box.runtime.pump()
    a.drive_high()
    b.drive_high()
    box.idle(0.5)
    assert box.app.session.state.choices == {"Alexandra": "steal", "Melanie": "alibi"}


def test_a_player_who_is_out_pressing_buttons_changes_nothing(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    play(box, tatort_tonne_script())  # Melanie (station 2) went out in round 1
    box2 = box_factory(EXAMPLE_PLAYERS, state_dir=box.journal.path.parent / "again")
    start_game(box2)
    example_choices(box2)
    box2.idle(COUNTDOWN_S)
    for _ in range(2):
        host_pick(box2, 2)
    box2.idle(30)
    before = actions(box2)
    box2.tap("s2.A")
    assert actions(box2) == before
    assert "Melanie is out" in box2.last_view.as_text()
    assert "error" in box2.beeper.played


def test_presses_during_the_countdown_are_ignored(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    example_choices(box)
    before = actions(box)
    box.tap("s1.A")  # Alexandra tries to answer before "point!"
    assert actions(box) == before and box.app.session.state.phase == "point"
    assert "Wait for POINT!" in box.last_view.as_text() and "error" in box.beeper.played


def test_accused_answers_at_their_station_and_accuser_c_means_nobody(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    box.tap("s1.A")                         # Alexandra steals
    box.tap("s2.B")                         # Melanie accuses
    box.tap("s3.B")                         # Ulrike accuses
    hot_seat(box, 2)
    hot_seat(box, 2, last=True)
    box.idle(COUNTDOWN_S)
    box.tap("s1.B")                         # Melanie pointed at Alexandra: she presses any key
    box.tap("s3.A")                         # Ulrike's own A means nothing...
    assert "Not you, Ulrike!" in box.last_view.as_text()
    assert "Press C" in box.last_view.as_text()
    box.tap("s3.C")                         # ...C means she pointed at nobody
    state = box.app.session.state
    assert state.phase == "choose" and not state.in_game["Alexandra"]
    assert box.app.session.actions[-2:] == [
        {"type": "point", "player": "Melanie", "target": "Alexandra"},
        {"type": "point", "player": "Ulrike", "target": None}]


def test_a_station_without_a_seat_is_told_so(box_factory):
    box = box_factory()
    open_game(box)
    for _ in range(7):                      # 4 -> 10, then round to 2
        box.tap("host.next")
    box.tap("host.ok")
    box.tap("host.ok")
    box.tap("host.ok")
    assert len(box.app.session.state.players) == 2
    box.tap("s3.A")
    assert actions(box) == 0 and "Nobody plays at" in box.last_view.as_text()


def test_long_press_back_undoes_the_last_action(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    box.tap("s1.A")
    box.tap("s2.B")
    box.hold("host.back", 1.2)
    box.idle(0.2)
    assert box.app.session.state.choices == {"Alexandra": "steal"}
    assert "Undone" in box.last_view.as_text()
    box.idle(2)                             # the page says who chooses again
    assert box.last_view.title == "Undone" and box.last_view.big == "Melanie"
    assert box.last_view.lines == ("choose again",)
    box.tap("host.ok")
    assert box.app.mode == "game" and box.last_view.big == "4 of 5"


def test_undo_of_the_resolving_point_returns_to_pointing(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    example_round_pointed(box)
    assert box.app.session.state.round == 2
    box.hold("host.back", 1.2)
    box.idle(30)                            # the undo's pages (at the fast pace) and back
    state = box.app.session.state
    assert state.phase == "point" and state.waiting_for() == ("Ulrike",)
    assert box.last_view.title == "Ulrike pointed at?"


def test_game_menu_undo_and_end_game(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    box.tap("s1.A")
    box.tap("host.back")
    assert box.app.mode == "menu"
    box.tap("host.next")
    box.tap("host.ok")                      # Standings
    assert box.last_view.title == "Standings" and len(box.last_view.lines) == 5
    box.tap("host.ok")                      # back to the menu
    box.tap("host.next")
    box.tap("host.ok")                      # Undo last action ...
    assert box.app.mode == "confirm_undo" and actions(box) == 1
    box.tap("host.ok")                      # ... once more: yes
    assert actions(box) == 0
    box.idle(3)
    box.tap("host.back")
    while box.last_view.lines[box.last_view.cursor] != "End this game":
        box.tap("host.next")
    box.tap("host.ok")
    assert box.app.mode == "confirm_end"
    box.tap("host.ok")
    assert box.app.mode == "home"
    assert box.journal.latest() is None     # abandoned games are not resumed


def test_every_action_is_committed_before_the_screen_shows_it(box_factory, tmp_path):
    seen: list[tuple[int, int]] = []
    state_dir = tmp_path / "commit"
    reader = {}

    def on_frame(_image):
        box = reader.get("box")
        if box is None or box.app.session is None:
            return
        db = sqlite3.connect(state_dir / JOURNAL_NAME)
        committed = db.execute("SELECT COUNT(*) FROM actions WHERE game_id=?",
                               (box.app.session.game_id,)).fetchone()[0]
        db.close()
        seen.append((len(box.app.session.actions), committed))

    box = box_factory(EXAMPLE_PLAYERS, state_dir=state_dir, on_frame=on_frame)
    reader["box"] = box
    play(box, tatort_tonne_script())
    assert len(seen) > 20 and all(shown == committed for shown, committed in seen)


def test_the_game_resumes_after_a_restart_with_undo_still_working(box_factory, tmp_path):
    state_dir = tmp_path / "resume"
    box = box_factory(EXAMPLE_PLAYERS, state_dir=state_dir)
    start_game(box)
    box.tap("s1.A")
    box.tap("s2.B")
    box.close()
    again = box_factory(EXAMPLE_PLAYERS, state_dir=state_dir)
    assert again.app.mode == "game" and "Game resumed" in again.last_view.as_text()
    assert again.app.session.state.choices == {"Alexandra": "steal", "Melanie": "accuse"}
    again.hold("host.back", 1.2)
    again.idle(3)
    assert again.app.session.state.choices == {"Alexandra": "steal"}
    assert again.last_view.big == "Melanie" and again.last_view.lines == ("choose again",)
    again.tap("host.ok")
    assert again.last_view.big == "4 of 5"


def test_a_corrupt_journal_is_reported_on_the_screen(box_factory, tmp_path):
    state_dir = tmp_path / "corrupt"
    state_dir.mkdir()
    (state_dir / JOURNAL_NAME).write_bytes(b"\x00garbage" * 500)
    box = box_factory(state_dir=state_dir)
    assert "Saved games damaged" in box.last_view.as_text()
    assert list(state_dir.glob(f"{JOURNAL_NAME}.bad-*"))


def test_an_action_that_cannot_be_saved_is_not_taken(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    box.journal.db.execute("PRAGMA query_only = ON")  # the disk refuses writes
    box.tap("s1.A")
    assert box.app.session.state.choices == {} and actions(box) == 0
    assert "Cannot save" in box.last_view.as_text()
    box.journal.db.execute("PRAGMA query_only = OFF")
    box.idle(2)
    box.tap("s1.A")
    assert actions(box) == 1


def test_the_countdown_beeps_three_ticks_then_go(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    example_choices(box)
    box.beeper.played.clear()
    box.idle(COUNTDOWN_S)
    assert list(box.beeper.played) == ["tick", "tick", "tick", "go"]


def test_a_round_ended_from_the_link_during_the_countdown_keeps_the_next_countdown(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    example_choices(box)                                # countdown running
    box.idle(0.5)
    for accuser in ("Melanie", "Ulrike"):               # the link answers before "point!"
        box.runtime.post(lambda a=accuser: box.app.external_action(
            {"type": "point", "player": a, "target": "Birgit"}))
    box.runtime.pump()
    assert box.app.session.state.round == 2
    box.idle(30)                                        # reveal pages; the old countdown is gone
    box.tap("s1.B")                                     # Alexandra accuses
    hot_seat(box, 2)
    hot_seat(box, 0, last=True)
    assert box.last_view.lines[0] .startswith("Get ready to point")  # the new countdown starts from the top
    box.idle(COUNTDOWN_S)
    assert box.last_view.title == "Alexandra pointed at?"


def test_the_final_action_and_the_end_of_the_game_are_saved_together(box_factory, tmp_path):
    state_dir = tmp_path / "final"
    box = box_factory(["a", "b"], state_dir=state_dir)
    open_game(box)
    for _ in range(6):                                  # 4 -> 10 -> 2 players
        box.tap("host.next")
    box.tap("host.next")
    box.tap("host.ok")
    box.tap("host.ok")
    box.tap("host.ok")
    box.tap("s1.B")                                     # a accuses
    box.tap("s2.A")                                     # b steals
    box.idle(COUNTDOWN_S)
    box.journal.db.execute("PRAGMA query_only = ON")   # the final action cannot be saved
    box.tap("s2.C")                                     # a pointed at b: caught, a would win
    assert not box.app.session.state.is_over and "Cannot save" in box.last_view.as_text()
    box.journal.db.execute("PRAGMA query_only = OFF")
    box.idle(2)
    box.tap("s2.C")
    assert box.app.session.state.winners() == ("a",)
    box.close()
    again = box_factory(["a", "b"], state_dir=state_dir)
    saved = again.journal.latest()
    assert saved.status == "over" and len(saved.actions) == 3


# -- the key moment: a press on POINT! points ------------------------------------------------------
def to_point(box) -> None:
    """From the last card to the moment POINT! shows (the cards down, then 3, 2, 1)."""
    from spielleiter.device.modes.tatort_tonne.referee import COUNT_S
    box.idle(COUNT_S * 2 + COUNT_S * 3)
    assert box.last_view.big == "POINT!"


def test_a_press_on_the_point_screen_points(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    example_choices(box)                    # Melanie and Ulrike accuse
    to_point(box)
    box.hold("s1.A", 0.08)                  # Alexandra, pointed at, presses at once
    assert box.app.session.actions[-1] == {"type": "point", "player": "Melanie",
                                           "target": "Alexandra"}
    assert "Wait for POINT!" not in box.last_view.as_text()


def test_the_countdown_and_point_are_one_screen_for_the_guard(box_factory):
    """The frames from the cards going down to POINT! change by themselves but are one screen:
    a press the instant POINT! shows is not held back as meant for "1"."""
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    example_choices(box)
    titles = {box.last_view.title}
    while box.last_view.big != "POINT!":
        box.idle(0.25)
        titles.add(box.last_view.title)
    assert titles == {"3, 2, 1, POINT!"}
    box.hold("s1.B", 0.02)                  # 20 ms after POINT!: inside any guard
    assert box.app.session.actions[-1]["type"] == "point"


def test_the_point_screen_says_whose_pointing_a_press_answers(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    example_choices(box)
    to_point(box)
    assert box.last_view.lines == ("Melanie pointed at?", "Was it you? Press!")
