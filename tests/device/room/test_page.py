"""The room's page over HTTP: the boxes live (whose turn, standings, stale and offline marked),
the finished games, the class's plots per quiz, one child's page and the class's CSV; a box's
words are shown as text, never as markup."""

from __future__ import annotations

import csv
import io
import json

import pytest

from spielleiter.device.journal.learning import History
from spielleiter.device.room.store import Store
from spielleiter.device.room.web import RoomServer
from spielleiter.games.learning import Attempt
from roomkit import TableBox, feed, follower, get


@pytest.fixture
def room(tmp_path):
    store = Store(tmp_path / "room.sqlite3", clock=lambda: now[0])
    now = [1_800_000_000.0]
    server = RoomServer(store, "127.0.0.1", 0, stale_s=180, clock=lambda: now[0]).start()
    yield store, server, now
    server.stop()
    store.close()


def play_box(tmp_path, name: str, game: str, players, finish: bool = False):
    box = TableBox(tmp_path / name)
    box.new(game, players)
    box.finish() if finish else box.play(4)
    return box, follower(box.path, tmp_path / f"{name}-uplink", name)


def test_every_box_live_with_whose_turn_and_the_standings(tmp_path, room):
    store, server, now = room
    box, f = play_box(tmp_path, "tisch-1", "bunte-runde", ("Anna", "Ben"))
    f.scan()
    feed(store, f)
    status, kind, page = get(server.url)
    assert status == 200 and kind.startswith("text/html")
    waiting = ", ".join(box.session.state.waiting_for())
    assert "Bunte Runde" in page and f"Waiting for {waiting}" in page
    assert 'class="box live"' in page
    standings = [player for _r, player, _s in box.session.state.standings()]
    fragment = get(server.url + "fragment/boxes")[2]
    assert fragment.index(standings[0]) < fragment.index(standings[1])
    now[0] += 3600  # an hour without a word: stale
    assert 'class="box stale"' in get(server.url + "fragment/boxes")[2]
    store.ingest("spielleiter/tisch-1/status", b"offline")
    assert 'class="box offline"' in get(server.url + "fragment/boxes")[2]


def test_finished_games_are_listed_with_their_winners(tmp_path, room):
    store, server, _now = room
    box, f = play_box(tmp_path, "tisch-2", "tatort-tonne", ("Anna", "Ben", "Cem"), finish=True)
    f.scan()
    feed(store, f)
    page = get(server.url)[2]
    winners = ", ".join(box.session.state.winners())
    assert "Finished games" in page and f"Over; won: {winners}" in page
    assert page.count("<tr>") == 2  # the head and one game


def answers(box: TableBox) -> History:
    history = History(box.journal)
    for day in range(5):
        for i in range(8):
            attempt = Attempt("grams", 1 + min(day, 4), 20.0, str(20 + i % 3), i % 3,
                              i % 3 == 0)
            history.add("Mia", attempt)
            history.add("Ole", Attempt("heavier", 1, 5.0, "left", 0.0, True))
    return history


def test_the_class_page_plots_each_child_per_quiz_and_the_child_page_too(tmp_path, room):
    store, server, _now = room
    box, f = play_box(tmp_path, "lern-1", "bunte-runde", ("Anna", "Ben"))
    answers(box)
    f.scan()
    feed(store, f)
    page = get(server.url + "class")[2]
    assert page.count('<svg class="spark"') == 2  # Mia in grams, Ole in heavier
    assert 'data-quiz="grams"' in page and 'data-quiz="heavier"' in page
    assert "How many grams?" in page and "Which is heavier?" in page
    mia = get(server.url + "child?name=mia")[2]  # names compare without regard to case
    assert '<svg class="plot"' in mia and "level 5" in mia
    assert mia.count('class="wrong"') == 1 and mia.count('class="right"') == 1


def test_the_history_csv_holds_the_whole_class(tmp_path, room):
    store, server, _now = room
    box, f = play_box(tmp_path, "lern-1", "bunte-runde", ("Anna", "Ben"))
    answers(box)
    f.scan()
    feed(store, f)
    status, kind, text = get(server.url + "history.csv")
    assert status == 200 and kind.startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 80 and {r["child"] for r in rows} == {"Mia", "Ole"}
    assert list(rows[0])[:4] == ["box", "time", "child", "quiz"]
    assert {r["box"] for r in rows} == {"lern-1"}


def test_a_box_cannot_put_markup_on_the_page(tmp_path, room):
    store, server, _now = room
    box, f = play_box(tmp_path, "tisch-1", "bunte-runde", ("<b>Anna</b>", "Ben"))
    f.scan()
    feed(store, f)
    History(box.journal).add("<script>x</script>", Attempt("grams", 1, 2.0, "2", 0.0, True))
    f.scan()
    feed(store, f)
    for path in ("", "class", "child?name=%3Cscript%3Ex%3C/script%3E"):
        page = get(server.url + path)[2]
        assert "<b>Anna" not in page and "<script>x" not in page
    assert get(server.url + "nothing")[0] == 404


def test_malformed_messages_are_left_out_and_counted(room):
    store, _server, _now = room
    for topic, payload in [("spielleiter/tisch-1/events", b"not json"),
                           ("spielleiter/tisch-1/events", b'{"box": "other"}'),
                           ("spielleiter/tisch-1/learning", json.dumps(
                               {"v": 1, "box": "tisch-1", "stream": "s", "n": 1, "journal": 1,
                                "kind": "answer", "child": 5}).encode()),
                           ("spielleiter/tisch-1/status", b"\xff"),
                           ("elsewhere/topic", b"{}")]:
        assert store.ingest(topic, payload) == 0
    assert store.rejected == 4
