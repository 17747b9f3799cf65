"""Someone else speaking for a box (any client of an anonymous broker): a state with a huge
number no longer silences the real box, a state cannot make another stream the box's, a message
far past the box's stream and a new stream far along are refused, and a finished game's record
that names another box is refused; the page shows a record under the box it came from."""

from __future__ import annotations

import json

import pytest

from spielleiter.device import fleet
from spielleiter.device.room import views
from spielleiter.device.room.store import JUMP, Store
from roomkit import TableBox, feed, follower, taken


@pytest.fixture
def room(tmp_path):
    store = Store(tmp_path / "room.sqlite3")
    box = TableBox(tmp_path / "box", seed=1)
    box.new("bunte-runde", ("Anna", "Ben"))
    box.play(3)
    f = follower(box.path, tmp_path / "uplink")
    f.scan()
    feed(store, f)
    yield store, box, f
    store.close()


def state_of(store: Store) -> dict:
    return json.loads(store.db.execute("SELECT state FROM boxes WHERE box='tisch-1'"
                                       ).fetchone()[0])


def send(store: Store, name: str, doc: dict) -> int:
    return store.ingest(fleet.topic("tisch-1", name), json.dumps(doc).encode())


def test_a_forged_state_with_a_huge_number_is_refused_and_the_box_still_heard(room):
    store, box, f = room
    live = f.live()
    assert send(store, fleet.STATE, {**live, "n": 10**15, "players": ["Mallory"]}) == 0
    assert send(store, fleet.STATE, {**live, "n": live["n"] + JUMP + 1}) == 0
    # a forged state within reach is shown until the box's next word, never longer
    assert send(store, fleet.STATE, {**live, "players": ["Mallory"]}) == 1
    box.play(2)
    f.scan()
    feed(store, f)
    assert state_of(store)["players"] == ["Anna", "Ben"]


def test_a_state_of_another_stream_does_not_take_the_box_over(room):
    store, _box, f = room
    assert send(store, fleet.STATE, {**f.live(), "stream": "forged", "n": 1}) == 0
    assert store.db.execute("SELECT stream FROM boxes").fetchone()[0] == f.outbox.stream


def test_a_message_far_past_the_stream_or_a_new_stream_far_along_is_refused(room):
    store, box, f = room
    box.play(1)
    f.scan()
    message = taken(f.outbox)[-1]
    message.pop("topic")
    assert send(store, fleet.EVENTS, {**message, "n": message["n"] + JUMP + 1}) == 0
    assert send(store, fleet.EVENTS, {**message, "stream": "forged", "n": JUMP + 1}) == 0
    assert store.db.execute("SELECT stream FROM boxes").fetchone()[0] == f.outbox.stream
    assert send(store, fleet.EVENTS, message) == 1  # the real one still arrives
    assert store.refused["tisch-1"] == 2


def test_a_record_naming_another_box_is_refused(room):
    store, box, f = room
    box.finish()
    f.scan()
    messages = taken(f.outbox)
    record = {k: v for k, v in next(m for m in messages if m["kind"] == "game").items()
              if k != "topic"}
    forged = {**record,
              "record": {**record["record"], "box": {"id": "tisch-9", "name": "Tisch 9"}}}
    assert send(store, fleet.GAMES, forged) == 0
    for m in messages:
        topic = m.pop("topic")
        store.ingest(topic, json.dumps(m).encode())
    with store.reader() as read:
        assert [g["box"] for g in views.games(read)] == ["Tisch-1"]


def test_invented_boxes_beyond_what_a_room_shows_are_refused_and_counted_together(tmp_path):
    from spielleiter.device.room.store import MAX_BOXES, STRANGERS

    store = Store(tmp_path / "room.sqlite3")
    for i in range(MAX_BOXES + 44):
        store.ingest(fleet.topic(f"fake-{i}", fleet.STATUS), b"online")
    store.ingest(fleet.topic("fake-999", fleet.EVENTS), b"[1]")
    assert store.db.execute("SELECT COUNT(*) FROM boxes").fetchone()[0] == MAX_BOXES
    assert store.refused == {STRANGERS: 45}
    store.close()
