"""Players by name: the roster at set-up, the letter wheel, remembered seats, `players` command."""

from __future__ import annotations

import pytest

from support import open_game, type_name
from spielleiter.device.cli import main
from spielleiter.device.modes.wheel import RING, Wheel, presses
from spielleiter.device.journal.roster import Roster, clean_name
from spielleiter.device.text import InputError


def open_setup(box, name: str = "tatort-tonne") -> None:
    open_game(box, name)


def cursor_to(box, entry: str) -> None:
    for _ in range(20):
        if box.last_view.lines[box.last_view.cursor].strip().endswith(entry):
            return
        box.tap("host.next")
    raise AssertionError(box.last_view.as_text())


def test_sophie_takes_fewer_than_25_presses_on_the_letter_wheel(box_factory):
    box = box_factory(pans=False)
    Roster(box.journal).add("Anna")
    open_setup(box)
    assert box.last_view.title == "Who plays? (0)"
    cursor_to(box, "New player")
    box.tap("host.ok")
    assert box.last_view.title == "Name: _"
    count = type_name(box, "Sophie")
    assert count < 25
    assert Roster(box.journal).names() == ["Anna", "Sophie"]
    assert box.app.screens.setup.seats == ["Sophie"] and box.last_view.title == "Who plays? (1)"


def test_a_plain_wheel_from_a_would_need_about_45_presses():
    plain = sum(Wheel().cursor + "ABCDEFGHIJKLMNOPQRSTUVWXYZ".index(c) - 1 + 1 for c in "SOPHIE")
    assert plain + 1 >= 45 > len(presses("Sophie"))


def test_picked_players_take_the_seats_in_order_with_their_stations(box_factory):
    box = box_factory(pans=False)
    for name in ("Anna", "Ben", "Cem", "Dora"):
        Roster(box.journal).add(name)
    open_setup(box)
    for name in ("Cem", "Anna", "Dora", "Ben"):
        cursor_to(box, name)
        box.tap("host.ok")
    lines = box.last_view.lines
    assert lines[2].startswith("1 Cem") and lines[2].endswith("Red")
    assert lines[3].startswith("3 Dora") and lines[3].endswith("Green")
    assert lines[1].startswith("4 Ben") and lines[1].endswith("host")    # no 4th station
    cursor_to(box, "Done")
    box.tap("host.ok")
    box.tap("host.ok")                      # trash pile
    box.tap("host.ok")                      # start
    assert box.app.session.header.players == ("Cem", "Anna", "Dora", "Ben")


def test_too_few_players_is_refused_with_the_reason(box_factory):
    box = box_factory(pans=False)
    Roster(box.journal).add("Anna")
    open_setup(box)
    cursor_to(box, "Anna")
    box.tap("host.ok")
    cursor_to(box, "Done")
    box.tap("host.ok")
    assert box.last_view.lines == ("Choose 2 to 10", "players")
    assert box.app.mode == "setup" and box.app.screens.setup.step == 0


def test_a_guest_plays_without_joining_the_roster(box_factory):
    box = box_factory(pans=False)
    Roster(box.journal).add("Anna")
    open_setup(box)
    box.tap("host.ok")                      # Anna
    cursor_to(box, "Guest")
    box.tap("host.ok")
    assert box.app.screens.setup.seats == ["Anna", "Guest 1"]
    assert Roster(box.journal).names() == ["Anna"]


def test_the_next_set_up_offers_the_same_seats(box_factory):
    box = box_factory(pans=False)
    for name in ("Anna", "Ben", "Cem"):
        Roster(box.journal).add(name)
    open_setup(box)
    for name in ("Ben", "Anna"):
        cursor_to(box, name)
        box.tap("host.ok")
    cursor_to(box, "Done")
    for _ in range(3):
        box.tap("host.ok")
    assert box.app.mode == "game"
    box.tap("host.back")                    # the game menu
    cursor_to(box, "End this game")
    box.tap("host.ok")
    box.tap("host.ok")
    box.idle(2.5)                           # "Game ended" goes
    open_setup(box)
    assert box.app.screens.setup.seats == ["Ben", "Anna"]


@pytest.mark.parametrize("bad", ["", "   ", "\ud800x", "A" * 13, 7, "a\x00b"])
def test_a_bad_name_is_refused_with_a_reason(bad):
    with pytest.raises(InputError):
        clean_name(bad)


def test_the_players_command_lists_adds_and_removes(tmp_path, capsys):
    assert main(["players", "add", "Sophie", "--state-dir", str(tmp_path)]) == 0
    assert main(["players", "add", "sophie", "--state-dir", str(tmp_path)]) == 1
    assert "Sophie is already on the roster" in capsys.readouterr().err
    assert main(["players", "add", "Jörg", "--state-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["players", "list", "--state-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.split("\n")[:2] == ["Sophie", "Jörg"]
    assert main(["players", "remove", "SOPHIE", "--state-dir", str(tmp_path)]) == 0
    assert main(["players", "remove", "Nobody", "--state-dir", str(tmp_path)]) == 1
    assert main(["players", "add", "--state-dir", str(tmp_path)]) == 2


def test_the_players_command_says_why_when_the_state_folder_cannot_be_used(tmp_path, capsys):
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    assert main(["players", "add", "Sophie", "--state-dir", str(blocker / "state")]) == 1
    err = capsys.readouterr().err
    assert "cannot use" in err and "Traceback" not in err


@pytest.mark.parametrize("name", ["Алина", "مريم", "李娜", "😀", "Zoë😀"])
def test_a_name_the_screen_could_only_draw_as_question_marks_is_refused_with_why(name):
    with pytest.raises(InputError, match="the screen cannot show|a name needs a letter"):
        clean_name(name)


@pytest.mark.parametrize("second", ["Sule", "SULE", "\uff33ule"])  # plain, capitals, full-width
def test_a_name_the_screen_shows_like_one_on_the_roster_is_the_same_child(box_factory, second):
    box = box_factory(pans=False)
    roster = Roster(box.journal)
    roster.add("Şule")
    with pytest.raises(InputError, match="already on the roster"):
        roster.add(second)
    assert roster.names() == ["Şule"]


@pytest.mark.parametrize("name", ["-", "---", "- -", "12"])
def test_a_name_without_a_letter_is_refused(name):
    with pytest.raises(InputError, match="a name needs a letter"):
        clean_name(name)


def test_players_list_of_a_box_never_used_creates_nothing(tmp_path, capsys):
    folder = tmp_path / "never"
    assert main(["players", "list", "--state-dir", str(folder)]) == 0
    assert "nobody on the roster" in capsys.readouterr().err and not folder.exists()


def test_a_station_key_on_a_host_screen_says_why_and_changes_nothing(box_factory):
    box = box_factory(pans=False)
    box.tap("s1.A")                                          # the home menu
    assert (box.app.flash_view.big, box.app.flash_view.lines) == ("NEXT/OK", ("Stations: in games",))
    assert box.app.mode == "home" and box.app.cursor == 0
    open_setup(box)
    box.tap("s2.B")                                          # the set-up's player count
    assert box.app.flash_view is not None and box.app.mode == "setup"


def test_a_latin_name_with_accents_the_font_lacks_is_kept_and_drawn_without_them():
    from spielleiter.device.screen.render import View, drawn_as, render

    assert clean_name("Şule") == "Şule" and clean_name("Łukasz") == "Łukasz"
    assert "".join(map(drawn_as, "Şule Çağla Łukasz Dvořák")) == "Sule Çagla Lukasz Dvorák"
    assert render(View("Şule", ("x",))).tobytes() == render(View("Sule", ("x",))).tobytes()


def open_settings_players(box) -> None:
    open_game(box, "settings")
    cursor_to(box, "Players")
    box.tap("host.ok")


def test_settings_players_adds_a_name_on_the_wheel_with_no_laptop_and_set_up_offers_it(
        box_factory):
    box = box_factory(pans=False)
    open_settings_players(box)
    assert box.last_view.title == "Players (0)"
    assert box.last_view.lines == ("New player",)
    box.tap("host.ok")
    type_name(box, "Sophie")
    assert Roster(box.journal).names() == ["Sophie"]
    assert box.last_view.title == "Players (1)"
    box.tap("host.back")
    box.tap("host.back")                                     # home
    open_setup(box)
    assert box.last_view.title == "Who plays? (0)" and "  Sophie" in box.last_view.lines


def test_settings_players_removes_a_name_only_after_the_question(box_factory):
    box = box_factory(pans=False)
    Roster(box.journal).add("Anna")
    Roster(box.journal).add("Ben")
    open_settings_players(box)
    box.tap("host.ok")                                       # Anna: the question
    assert (box.last_view.title, box.last_view.big) == ("Remove?", "Anna")
    box.tap("host.back")                                     # keep
    assert Roster(box.journal).names() == ["Anna", "Ben"]
    box.tap("host.ok")
    box.tap("host.ok")                                       # remove
    assert Roster(box.journal).names() == ["Ben"]


def test_a_known_name_typed_in_settings_is_refused_with_why_and_the_wheel_stays(box_factory):
    box = box_factory(pans=False)
    Roster(box.journal).add("Ben")
    open_settings_players(box)
    box.tap("host.next")
    box.tap("host.ok")                                       # New player
    type_name(box, "Ben")
    assert "Ben is already on the roster" in " ".join(box.app.flash_view.lines)
    assert Roster(box.journal).names() == ["Ben"]
    box.tap("host.back")
    assert box.app.screens.tool.players.new is not None              # still typing: change the name


def test_chosen_guests_are_listed_and_ok_on_one_takes_it_out(box_factory):
    box = box_factory(pans=False)
    Roster(box.journal).add("Anna")
    open_setup(box)
    box.tap("host.ok")                                       # Anna
    cursor_to(box, "Guest")
    box.tap("host.ok")
    box.tap("host.ok")                                       # two guests
    assert box.app.screens.setup.seats == ["Anna", "Guest 1", "Guest 2"]
    assert any(line.strip().startswith("3 Guest 2") for line in box.last_view.lines)
    picker = box.app.screens.setup.picker
    while picker.entries()[picker.cursor] != "Guest 1":
        box.tap("host.next")
    box.tap("host.ok")                                       # taken out again
    assert box.app.screens.setup.seats == ["Anna", "Guest 2"]


def test_a_hyphen_starts_a_new_capital_on_the_wheel():
    wheel = Wheel()
    for char in "Anna-Lena":
        while RING[wheel.cursor] != char.upper():
            wheel.move(1)
        wheel.pick()
    assert wheel.text == "Anna-Lena"


def test_a_long_back_on_the_wheel_gives_the_name_up_instead_of_undoing(box_factory):
    box = box_factory(pans=False)
    open_settings_players(box)
    box.tap("host.ok")                                       # New player: the wheel
    box.tap("host.ok")                                       # "A"
    box.hold("host.back", 1.5)
    assert box.app.screens.tool.players.new is None and box.app.flash_view is None
    assert box.last_view.title == "Players (0)"


def test_anna_typed_on_the_wheel_with_taps_an_eighth_of_a_second_apart_is_anna(box_factory):
    from spielleiter.device.modes.wheel import presses

    box = box_factory(pans=False)
    Roster(box.journal).add("Ben")
    open_setup(box)
    cursor_to(box, "New player")
    box.tap("host.ok")
    for key in presses("Anna")[:-1]:                      # a fast hand: 0.12 s a tap
        box.tap(f"s1.{key}" if key in ("A", "C") else f"host.{key}", hold=0.06, settle=0.06)
    assert box.last_view.title == "Name: Anna_"
    box.hold("host.ok", 1.2)
    assert Roster(box.journal).names() == ["Ben", "Anna"]


def test_a_name_with_sharp_s_can_be_typed_on_the_wheel(box_factory):
    box = box_factory(pans=False)
    open_settings_players(box)
    box.tap("host.ok")
    type_name(box, "Strauß")
    assert Roster(box.journal).names() == ["Strauß"]
