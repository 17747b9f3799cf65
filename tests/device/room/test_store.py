"""The room's store: a message kept once however often it comes, the same page whatever order
the messages arrive in (undos and cleared answers included), and a new stream of a box (its
uplink lost its own state and sent everything again) replacing the old one."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spielleiter.device.journal.learning import History
from spielleiter.device.room import views
from spielleiter.device.room.store import Store
from spielleiter.games.learning import Attempt
from roomkit import TableBox, follower, taken


def scenario(tmp_path) -> list[tuple[str, bytes]]:
    """Messages of a box with a game that saw undos and a child whose answers were cleared."""
    box = TableBox(tmp_path / "box", seed=2)
    box.new("bunte-runde", ("Anna", "Ben"))
    history = History(box.journal)
    f = follower(box.path, tmp_path / "uplink")
    out = []

    def look():
        f.scan()
        out.extend((m["topic"], json.dumps({k: v for k, v in m.items() if k != "topic"}).encode())
                   for m in taken(f.outbox))

    box.play(4)
    look()
    box.session.undo()
    box.play(2)
    look()
    history.add("Ole", Attempt("grams", 1, 20.0, "20", 0.0, True))
    history.add("Mia", Attempt("grams", 1, 20.0, "22", 2.0, False))
    look()
    history.clear("Mia")
    history.add("Mia", Attempt("order", 2, 50.0, "1,2,3", 0.0, True))
    box.finish()
    look()
    return out


def page(store: Store) -> tuple:
    with store.reader() as read:
        return (views.actions(read, "tisch-1"),
                [(a.child, a.quiz, a.correct) for a in views.answers(read)],
                [(g["game_id"], g["winners"]) for g in views.games(read)], store.have())


@pytest.fixture(scope="module")
def messages(tmp_path_factory):
    return scenario(tmp_path_factory.mktemp("scenario"))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_order_and_any_repeats_give_the_same_page(messages, data):
    expected_store = Store(":memory:")
    expected_store.ingest_many(messages)
    expected = page(expected_store)
    shuffled = data.draw(st.permutations(messages))
    repeats = data.draw(st.lists(st.sampled_from(messages), max_size=10))
    store = Store(":memory:")
    arriving = shuffled + repeats
    for start in range(0, len(arriving), 3):  # in small batches, as they come
        store.ingest_many(arriving[start:start + 3])
    assert page(store) == expected
    actions, answers, games, _have = expected
    assert [seq for _j, _g, seq, _a in actions] == list(range(len(actions)))
    assert ("Mia", "grams", False) not in answers and ("Mia", "order", True) in answers
    assert len(games) == 1


def test_a_new_stream_of_a_box_replaces_the_old(tmp_path):
    box = TableBox(tmp_path / "box")
    box.new()
    box.play(3)
    store = Store(":memory:")
    first = follower(box.path, tmp_path / "uplink-1")
    first.scan()
    store.ingest_many([(m["topic"], json.dumps(m).encode()) for m in taken(first.outbox)])
    box.play(2)
    again = follower(box.path, tmp_path / "uplink-2")  # its state lost: everything again
    again.scan()
    store.ingest_many([(m["topic"], json.dumps(m).encode()) for m in taken(again.outbox)])
    with store.reader() as read:
        shown = views.actions(read, "tisch-1")
    assert [seq for _j, _g, seq, _a in shown] == [0, 1, 2, 3, 4]  # once each, the new stream


def test_the_room_says_a_held_back_have_when_it_falls_due(tmp_path):
    """The room's ``have`` goes at most every have_s; one held back goes have_s after the last,
    so the writer waits for messages only until then (not have_s after the last message)."""
    import time

    from spielleiter.device.room.collector import Collector
    from spielleiter.device.uplink.publisher import Broker

    store = Store(tmp_path / "room.sqlite3")
    collector = Collector(store, Broker("127.0.0.1", 9), session="t", have_s=1.0)
    try:
        assert collector._have_due_in() == 1.0  # nothing held back: a quiet wait
        collector._due = {("tisch-1", "s")}
        collector._said = time.monotonic() - 0.75
        assert collector._have_due_in() <= 0.25
        collector._said = time.monotonic() - 3.0
        assert collector._have_due_in() == 0.0
    finally:
        store.close()


def test_a_broker_that_cannot_be_reached_is_said_on_the_page_and_in_the_log(tmp_path, caplog):
    """A mistyped --broker looked exactly like a quiet room ("No box has reported yet")."""
    import socket

    from spielleiter.device.room.collector import Collector
    from spielleiter.device.room.web import RoomServer
    from spielleiter.device.uplink.publisher import Broker

    with socket.socket() as closed:  # a port nobody listens on: refused at once, no network
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    store = Store(tmp_path / "room.sqlite3")
    collector = Collector(store, Broker("127.0.0.1", port), session="t")
    server = RoomServer(store, "127.0.0.1", 0, collector=collector)
    try:
        collector.start()
        assert collector.troubled.wait(10), "paho never said the connection failed"
        assert collector.trouble == ("unreachable", "") and not collector.connected.is_set()
        _status, _kind, page = server.page("/", {})
        assert f"The broker 127.0.0.1:{port} cannot be reached: trying again." in page
        assert "No box has reported yet." in page
        _status, _kind, fragment = server.page("/fragment/boxes", {})
        assert "cannot be reached" in fragment
        assert f"broker 127.0.0.1:{port} cannot be reached" in caplog.text
    finally:
        collector.stop()
        server.httpd.server_close()
        store.close()


def test_a_room_without_trouble_shows_no_broker_note():
    from spielleiter.device.room import pages

    assert pages.broker_note(None, "x:1") == ""
    assert "refused the room: not authorised" in pages.broker_note(("refused", "not authorised"),
                                                                   "x:1")


def test_a_port_that_is_no_broker_is_said_on_the_page(tmp_path):
    """A web server at --broker (or a TLS port without --tls) takes the connection and drops it:
    the room says no MQTT answer came, not 'No box has reported yet' alone."""
    import socket
    import threading

    from spielleiter.device.room.collector import Collector
    from spielleiter.device.room.web import RoomServer
    from spielleiter.device.uplink.publisher import Broker

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def not_a_broker() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                conn.recv(64)
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")

    threading.Thread(target=not_a_broker, daemon=True).start()
    store = Store(tmp_path / "room.sqlite3")
    collector = Collector(store, Broker("127.0.0.1", port), session="t")
    server = RoomServer(store, "127.0.0.1", 0, collector=collector)
    try:
        collector.start()
        assert collector.troubled.wait(10)
        assert collector.trouble is not None and collector.trouble[0] == "unanswered"
        _status, _kind, page = server.page("/", {})
        assert f"127.0.0.1:{port} gives no MQTT answer: is it the broker?" in page
    finally:
        collector.stop()
        server.httpd.server_close()
        store.close()
        listener.close()
