"""The room as a teacher sees it: a broker that is away is one line above the cards and the
boxes keep their last known state, "not heard for N min" (and the log says when it is back);
a broker that lets anyone in is said on the page; each learning card shows the last answer and
whether it was right; the class table heads the right answers "Richtig" in German."""

from __future__ import annotations

import json
import logging

import pytest

from spielleiter.device import fleet, i18n
from spielleiter.device.journal.learning import History
from spielleiter.device.room import pages, views
from spielleiter.device.room.store import Store
from spielleiter.device.room.web import RoomServer
from spielleiter.games.learning import Attempt
from roomkit import Room, TableBox, feed, follower, get, wait_for


def test_a_broker_away_is_one_line_and_the_boxes_keep_their_state(tmp_path, broker, caplog):
    caplog.set_level(logging.INFO)
    room = Room(tmp_path / "room.sqlite3", broker.port).start()
    server = RoomServer(room.store, "127.0.0.1", 0, collector=room.collector).start()
    try:
        box = TableBox(tmp_path / "box")
        box.new("bunte-runde", ("Anna", "Ben"))
        box.play(2)
        f = follower(box.path, tmp_path / "uplink")
        f.scan()
        feed(room.store, f)
        assert 'class="box live"' in get(server.url + "fragment/boxes")[2]
        wait_for(lambda: room.collector.open_broker is not None, what="the probe")
        broker.kill()
        wait_for(lambda: room.collector.trouble is not None, what="the room to notice")
        fragment = get(server.url + "fragment/boxes")[2]
        assert fragment.startswith('<p class="note trouble">The broker 127.0.0.1:')
        assert fragment.count('class="note trouble"') == 1
        assert 'class="box unheard"' in fragment and "not heard for 0 min" in fragment
        assert "offline" not in fragment and "Bunte Runde" in fragment
        broker.start()
        wait_for(room.collector.connected.is_set, what="the broker to be back")
        assert "is back" in caplog.text
        assert 'class="box live"' in get(server.url + "fragment/boxes")[2]
    finally:
        server.stop()
        room.stop()


def test_a_broker_that_lets_anyone_in_is_said_on_the_page(tmp_path, broker):
    room = Room(tmp_path / "room.sqlite3", broker.port).start()  # the test's broker is open
    server = RoomServer(room.store, "127.0.0.1", 0, collector=room.collector).start()
    try:
        wait_for(lambda: room.collector.open_broker is not None, what="the probe")
        assert room.collector.open_broker is True
        assert "lets anyone in without a password" in get(server.url)[2]
    finally:
        server.stop()
        room.stop()


def test_a_broker_with_passwords_is_not_called_open(tmp_path):
    from mosquitto import BINARY, Mosquitto
    from spielleiter.device.room.probe import anonymous_allowed
    from spielleiter.device.uplink.publisher import Broker

    if BINARY is None:
        pytest.skip("no mosquitto")
    with Mosquitto(tmp_path / "broker", anonymous=False) as closed:
        assert anonymous_allowed(Broker("127.0.0.1", closed.port)) is False


@pytest.fixture
def learning_room(tmp_path):
    store = Store(tmp_path / "room.sqlite3")
    box = TableBox(tmp_path / "box")
    history = History(box.journal)
    history.add("Ole", Attempt("grams", 2, 20.0, "23", 3.0, False))
    history.add("Mia", Attempt("grams", 2, 40.0, "40", 0.0, True))
    f = follower(box.path, tmp_path / "uplink")
    f.scan()
    feed(store, f)
    yield store
    store.close()


def test_each_learning_card_shows_the_last_answer_and_whether_it_was_right(learning_room):
    with learning_room.reader() as read:
        card = pages.box_card(views.boxes(read, 0.0)[0])
    assert "Mia" in card and 'class="answer right"' in card
    assert "Last answer 40 (truth 40.0 g): right" in card


@pytest.mark.shipped_language
def test_the_room_speaks_german_with_richtig_for_right_answers(learning_room):
    i18n.use("de")
    try:
        with learning_room.reader() as read:
            card = pages.box_card(views.boxes(read, 0.0)[0])
            table = pages.class_page(views.by_child(views.answers(read)))
        assert "Letzte Antwort 40 (tatsächlich 40,0 g): richtig" in card
        assert "<th>Richtig</th>" in table and "Rechts" not in table
    finally:
        i18n.use("en")


def test_a_state_from_an_older_room_database_does_not_take_the_page_down(tmp_path):
    """Finding 1 stayed after a restart: the bad state was in the database. It is shown as no
    game now, and an answer at a time no calendar holds is left out of the page and the CSV."""
    store = Store(tmp_path / "room.sqlite3")
    store.db.execute("INSERT INTO boxes (box, stream, status, state, heard) VALUES "
                     "('tisch-1', 's', 'online', ?, 0)", (json.dumps(
                         {"v": 1, "box": "tisch-1", "stream": "s", "n": 1, "game": "x",
                          "title": {"a": 1}, "actions": "many", "standings": 7}),))
    store.db.execute("INSERT INTO answers VALUES ('tisch-1', 's', 1, 1, 1, 1e15, '=cmd', "
                     "'=cmd', 'grams', 1, 10, '@x', 1, 0, 0)")
    server = RoomServer(store, "127.0.0.1", 0).start()
    try:
        for path in ("", "fragment/boxes", "class", "history.csv", "child?name=%3Dcmd"):
            assert get(server.url + path)[0] == 200, path
    finally:
        server.stop()
        store.close()
    assert fleet.STATE


def test_history_csv_cells_a_spreadsheet_could_run_are_written_as_text(tmp_path):
    """Names and guesses that begin with =, +, - or @ get a leading apostrophe; a plain
    number such as -2.5 stays a number."""
    import csv
    import io

    from spielleiter.device.room.web import history_csv

    store = Store(tmp_path / "room.sqlite3")
    box = TableBox(tmp_path / "box")
    history = History(box.journal)
    for child, guess in (("=HYPERLINK(\"x\")", "+1+1"), ("@SUM", "-2.5"), ("-Ana", "=1")):
        history.add(child, Attempt("grams", 1, 20.0, guess, 1.0, False))
    f = follower(box.path, tmp_path / "uplink")
    f.scan()
    feed(store, f)
    with store.reader() as read:
        rows = list(csv.DictReader(io.StringIO(history_csv(views.answers(read)))))
    store.close()
    assert [(r["child"], r["guess"]) for r in rows] == [
        ("'=HYPERLINK(\"x\")", "'+1+1"), ("'@SUM", "-2.5"), ("'-Ana", "'=1")]


@pytest.mark.shipped_language
def test_a_heavier_answer_names_the_side_chosen_and_the_side_the_scale_found_heavier():
    """A child who put 20 g left and 5 g right and said "right" read "Last answer right
    (truth 15.0 g): wrong" (an English word on the German page, a number without a side)."""
    answer = views.AnswerView("tisch-1", 0.0, "Lu", "heavier", 1, 15.0, "right", 2.0, False,
                              False)
    i18n.use("en")
    assert "Last answer “right” (the scale: left 15.0 g heavier): wrong" in pages.answer_line(
        answer)
    i18n.use("de")
    try:
        line = pages.answer_line(answer)
        same = pages.answer_line(views.AnswerView("tisch-1", 0.0, "Lu", "heavier", 1, 0.0, "same",
                                                  0.0, True, False))
    finally:
        i18n.use("en")
    assert "Letzte Antwort „rechts“ (die Waage: links 15,0 g schwerer): falsch" in line
    assert "„gleich“ (die Waage: beide gleich): richtig" in same


def test_a_room_that_stops_says_no_broker_went_away(tmp_path, broker, caplog):
    """Each stop of the room logged "broker ... went away ...: Normal disconnection"."""
    caplog.set_level(logging.INFO)
    room = Room(tmp_path / "room.sqlite3", broker.port).start()
    wait_for(room.collector.connected.is_set, what="the room to connect")
    room.stop()
    assert "went away" not in caplog.text
