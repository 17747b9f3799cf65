"""The family's statistics on the box: from the home menu, a person or a game, then one number
a page, big, like the learning station's results; every page fits in both languages."""

from __future__ import annotations

import pytest

from spielleiter.device import i18n
from spielleiter.device.past.statistics import FamilyStats, GameStats, PlayerStats
from spielleiter.device.journal.learning import History
from spielleiter.device.past.games import PastGames
from spielleiter.device.screen.render import crowded, misfits
from spielleiter.device.modes.statistics.pages import (
    duration_text, empty_view, game_pages, player_pages
)
from spielleiter.games import GAMES
from spielleiter.games.learning import Attempt
from pastkit import journal_at, record_game

PLAYERS = ["Ann", "Ben", "Cleo"]


def open_stats(box) -> None:
    while box.app.view().lines[box.app.cursor] != "Statistics":
        box.tap("host.next")
    box.tap("host.ok")


@pytest.fixture
def box(fast_game_box_factory):
    box = fast_game_box_factory()
    for seed in (1, 2, 3):
        record_game(box.app.journal, "bunte-runde", PLAYERS, seed)
    record_game(box.app.journal, "tatort-tonne", PLAYERS, 4, finish=False)
    return box


def test_statistics_offers_each_person_then_each_game_from_the_home_menu(box):
    open_stats(box)
    view = box.app.view()
    assert view.title == "Statistics"
    assert set(view.lines) == {"Ann", "Ben", "Cleo", "Bunte Runde"}
    assert view.lines[-1] == "Bunte Runde"  # people first; an abandoned game counts nowhere
    box.tap("host.back")
    assert box.app.mode == "home"


def test_a_persons_pages_show_one_number_each_and_ok_turns_them(box):
    open_stats(box)
    stats = FamilyStats.build(PastGames(box.app.journal).list())
    person = stats.players[0]
    box.tap("host.ok")
    first = box.app.view()
    assert (first.title, first.lines, first.big) == (person.name, ("games played",), "3")
    box.tap("host.ok")
    assert (box.app.view().lines, box.app.view().big) == (("games won",), str(person.wins))
    box.tap("host.ok")
    assert box.app.view().lines == ("won at Bunte Runde",)
    assert box.app.view().big == f"{person.won.get('bunte-runde', 0)} of 3"
    for _ in range(5):
        if box.app.view().footer == "OK back":
            break
        box.tap("host.ok")
    assert box.app.view().footer == "OK back"
    box.tap("host.ok")
    assert box.app.view().title == "Statistics"


def test_a_games_pages_say_how_often_how_long_and_who_wins_most(box):
    open_stats(box)
    for _ in range(3):
        box.tap("host.next")
    box.tap("host.ok")
    pages = [box.app.view()]
    while box.app.view().footer != "OK back":
        box.tap("host.ok")
        pages.append(box.app.view())
    assert (pages[0].lines, pages[0].big) == (("times played",), "3")
    assert pages[1].lines == ("usually lasts",)
    assert any(line.startswith(("wins most", "win most")) for p in pages for line in p.lines)


def test_a_childs_learning_answers_are_on_the_same_page_set_as_their_games(tmp_path):
    journal = journal_at(tmp_path / "j.sqlite3")
    record_game(journal, "bunte-runde", ["Mia", "Ben"], 1)
    history = History(journal)
    history.add("mia", Attempt("heavier", 1, 100.0, "left", 0.0, True))
    history.add("Mia", Attempt("heavier", 1, 100.0, "right", 0.0, False))
    past = PastGames(journal)
    stats = FamilyStats.build(past.list(), past.learning())
    mia = stats.player("Mia")
    pages = player_pages(mia, {"bunte-runde": "Bunte Runde"})
    assert pages[-1].lines == ("right answers",) and pages[-1].big == "1 of 2"


def test_with_no_finished_game_statistics_says_so(fast_game_box_factory):
    box = fast_game_box_factory()
    open_stats(box)
    assert box.app.view() == empty_view()


def test_a_duration_reads_in_minutes_and_long_ones_in_hours():
    assert duration_text(25 * 60 + 10) == "25 min"
    assert duration_text(20) == "1 min"
    assert duration_text(135 * 60) == "2 h 15 min"


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_statistics_page_fits_with_long_names_and_big_numbers(language):
    i18n.use(language)
    long = "Maximilianne"
    played = {name: 123 for name in GAMES}
    person = PlayerStats(long, 1234, 567, played, {n: 99 for n in GAMES},
                         "2026-11-30T18:00:00+00:00", 9, 12, 1500, 1234)
    unknown = PlayerStats("Bartholomäus", 3, 0, {"bunte-runde": 3}, {}, None, 3, 0)
    titles = {n: i.title for n, i in GAMES.items()}
    views = player_pages(person, titles) + player_pages(unknown, titles) + [empty_view()]
    for name, info in GAMES.items():
        views += game_pages(GameStats(name, info.title, 1234, 2 * 3600 + 59 * 60, (long,), 999))
        views += game_pages(GameStats(name, info.title, 1, 30, (long, "Konstantinos"), 1))
        views += game_pages(GameStats(name, info.title, 2, None, (), 0))
    bad = [f"{v.as_text()}: {misfits(v) or 'crowded'}" for v in views
           if misfits(v) or crowded(v)]
    assert not bad, "\n\n".join(bad)
