"""Past games on the box, pressed through a simulated box: the home menu's entry, the list
newest first (date or "Date unknown", game, winner), a replay step by step (OK or NEXT on, BACK
its menu, a long BACK or the menu leaves), its standings at the end, and a game corrected on the
box."""

from __future__ import annotations

import time

import pytest

from spielleiter.device import i18n
from spielleiter.device.journal.store import Journal
from spielleiter.device.journal.timebase import TimeSource
from spielleiter.device.past.games import PastGames
from spielleiter.device.screen.render import crowded, misfits
from spielleiter.device.modes.past import listing as past_ui
from spielleiter.device.modes.past.listing import date_text, game_page, result_line
from spielleiter.games import GAMES
from pastkit import journal_at, record_game

PLAYERS = ["Ann", "Ben", "Cleo"]


def open_entry(box, title: str) -> None:
    """From the home menu, NEXT to the entry called ``title``, then OK."""
    for _ in range(20):
        if box.app.view().lines[box.app.cursor] == title:
            break
        box.tap("host.next")
    else:
        raise AssertionError(f"no {title!r} on the home menu")
    box.tap("host.ok")


@pytest.fixture
def box(fast_game_box_factory):
    box = fast_game_box_factory()
    journal = box.app.journal
    record_game(journal, "bunte-runde", PLAYERS, 1)
    record_game(journal, "tatort-tonne", PLAYERS, 2, finish=False)
    record_game(journal, "tatort-tonne", PLAYERS, 3)
    return box


def test_past_games_lists_every_ended_game_newest_first_from_the_home_menu(box):
    open_entry(box, "Past games")
    seen = []
    for _ in range(3):
        view = box.app.view()
        seen.append(view.lines[0])
        assert view.footer == "NEXT older  OK replay"
        box.tap("host.next")
    assert seen == ["Tatort Tonne", "Tatort Tonne", "Bunte Runde"]
    assert box.app.view().lines[0] == "Tatort Tonne"  # round to the newest again
    box.tap("host.next")
    assert box.app.view().lines[1] == "Ended early"
    box.tap("host.back")
    assert box.app.mode == "home"


def test_a_replay_turns_on_with_ok_or_next_steps_back_from_its_menu_and_ends_with_the_standings(box):
    open_entry(box, "Past games")
    box.tap("host.next")
    box.tap("host.next")  # Bunte Runde
    box.tap("host.ok")
    assert box.app.mode == "replay"
    first = box.app.view()
    assert first.title == "Ann takes"
    box.tap("host.next")
    assert box.app.mode == "replay" and box.app.view().title == "Ben takes"
    box.tap("host.ok")
    third = box.app.view()
    box.tap("host.back")
    assert box.app.mode == "replay_menu"
    assert box.app.view().lines[:2] == ("Go on", "One step back")
    box.tap("host.next")
    box.tap("host.ok")  # One step back
    assert box.app.view().title == "Ben takes"
    box.tap("host.back")
    assert box.app.view().lines[box.app.cursor] == "One step back"  # where it was left
    box.tap("host.ok")
    assert box.app.view() == first
    box.tap("host.ok")
    box.tap("host.ok")
    assert box.app.view() == third
    screen = box.app.top
    screen.index = screen.last - 1
    box.tap("host.ok")
    assert box.app.view().title == "Standings" and "OK list" in box.app.view().footer
    box.tap("host.ok")
    assert box.app.mode == "tool" and box.app.view().lines[0] == "Bunte Runde"


def test_a_long_back_or_the_menu_leaves_the_replay(box):
    open_entry(box, "Past games")
    box.tap("host.ok")
    box.tap("host.ok")
    box.hold("host.back", 1.2)
    box.idle(0.5)
    assert box.app.mode == "tool"
    box.tap("host.ok")
    box.tap("host.back")
    assert box.app.mode == "replay_menu"
    while box.app.view().lines[box.app.cursor] != "Leave the replay":
        box.tap("host.next")
    box.tap("host.ok")
    assert box.app.mode == "tool"


def test_the_menu_jumps_to_the_end_and_back_to_the_start(box):
    open_entry(box, "Past games")
    box.tap("host.ok")
    box.tap("host.back")
    box.tap("host.next")
    box.tap("host.ok")  # To the end (no step back from the first frame)
    assert box.app.view().title == "The winner is" or box.app.view().title == "Shared win!"
    box.tap("host.back")
    while box.app.view().lines[box.app.cursor] != "From the start":
        box.tap("host.next")
    box.tap("host.ok")
    assert box.app.top.index == 0


def test_with_no_ended_game_the_list_says_so(fast_game_box_factory):
    box = fast_game_box_factory()
    open_entry(box, "Past games")
    assert " ".join(box.app.view().lines) == "No game has been finished yet."


def test_a_date_is_the_local_day_and_time_and_unknown_stays_unknown(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    try:
        assert date_text(None) == "Date unknown"
        assert date_text(1_780_000_000.0) == "28 May 2026, 20:26"
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_a_game_played_before_the_clock_was_synchronised_says_date_unknown(tmp_path):
    now = [1_780_000_000.0]

    def tick() -> float:
        now[0] += 60
        return now[0]

    unsynced = TimeSource(wall=tick, mono=tick, synced=lambda: False, boot_id=lambda: "b1")
    journal = Journal(tmp_path / "j.sqlite3", time_source=unsynced)
    record_game(journal, "bunte-runde", PLAYERS, 1)
    synced = Journal(tmp_path / "k.sqlite3", tick)
    record_game(synced, "bunte-runde", PLAYERS, 1)
    assert game_page(PastGames(journal).list()[0]).title == "Date unknown"
    assert game_page(PastGames(synced).list()[0]).title != "Date unknown"


def test_the_result_line_names_the_winner_a_shared_win_nobody_or_an_early_end():
    def record(status, winners):
        return type("R", (), {"status": status, "winners": winners})()

    assert result_line(record("over", ("Ann",))) == "Ann won"
    assert result_line(record("over", ("Ann", "Cleo"))) == "Ann & Cleo won"
    assert result_line(record("over", ("Maximilianne", "Konstantinos"))) == "2 share the win"
    assert result_line(record("over", ())) == "Nobody won"
    assert result_line(record("abandoned", ())) == "Ended early"


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_list_page_fits_with_the_longest_names_and_titles(language, tmp_path):
    i18n.use(language)
    journal = journal_at(tmp_path / "j.sqlite3")
    long = ["Maximilianne", "Konstantinos", "Bartholomäus", "Friederike-A"]
    for n, game in enumerate(sorted(GAMES)):
        players = long[: GAMES[game].max_players]
        record_game(journal, game, players, n)
        record_game(journal, game, players, n, finish=False)
    views = [game_page(r) for r in PastGames(journal).list()] + [past_ui.empty_view()]
    bad = [f"{v.as_text()}: {misfits(v)}" for v in views if misfits(v) or crowded(v)]
    assert not bad, "\n".join(bad)


def test_a_game_the_engine_cannot_replay_is_refused_with_a_reason_and_the_list_stays(
        box, monkeypatch):
    from spielleiter.device.modes.past import rewatch

    def broken(*args, **kwargs):
        raise RuntimeError("an engine bug")

    monkeypatch.setattr(rewatch.ReplayScreen, "__init__", broken)
    open_entry(box, "Past games")
    box.tap("host.ok")
    assert box.app.mode == "tool"
    assert " ".join(box.app.flash_view.lines) == "Cannot replay it: Not fully readable"


def test_a_damaged_game_says_so_on_its_page_without_a_clipped_line():
    record = type("R", (), {"title": "Bunte Runde", "status": "damaged", "winners": (),
                            "corrected": False, "when": None})()
    view = game_page(record)
    assert view.lines[1:] == ("Not fully readable",) and not misfits(view)
