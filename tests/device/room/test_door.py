"""The room's door against a real Mosquitto: arbitrary JSON of every shape, on every topic of a
box, never takes the page down, never changes another box, and leaves the box its last good
state; an oversized message is refused before it is read; refusals are counted per box and
logged with their reason, not once per message."""

from __future__ import annotations

import json
import re

import paho.mqtt.client as mqtt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spielleiter.device import fleet
from spielleiter.device.room import schema
from spielleiter.device.room.web import RoomServer
from roomkit import Room, TableBox, follower, get, taken, wait_for

NOW = 1_800_000_000.0
PAGES = ("", "fragment/boxes", "class", "history.csv", "child?name=Ole")

leaves = (st.none() | st.booleans() | st.integers() | st.integers(-3, 3)
          | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30)
          | st.sampled_from(["tisch-1", "tisch-2", "=1+1", "Anna", "accuse", ""]))
values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=16)


def known_keys() -> list[str]:
    keys = set(schema.ENVELOPE["properties"]) | set(schema.STATE["properties"])
    for body in schema.BODIES.values():
        keys |= set(body["properties"])
    keys |= set(schema.RECORD["properties"])
    return sorted(keys)


def shaped(stream: str):
    """Documents that look like ours: the envelope mostly right, any field anything."""
    envelope = st.fixed_dictionaries({
        "v": st.just(1) | values, "box": st.just("tisch-1") | values,
        "stream": st.just(stream) | values,
        "n": st.integers(0, 40) | st.integers() | values,
        "journal": st.just(1) | values,
        "kind": st.sampled_from(sorted({k for _t, k in schema.BODIES})) | values})
    extra = st.dictionaries(st.sampled_from(known_keys()), values, max_size=6)
    return st.tuples(envelope, extra).map(lambda pair: {**pair[0], **pair[1]})


def mutated(good: list[dict]):
    """One of the box's own good messages with some fields made anything (the shapes the page
    code reads: a list where a number goes, a text where a list goes)."""
    return st.tuples(st.sampled_from(good), st.dictionaries(
        st.sampled_from(known_keys()), values, min_size=1, max_size=3)).map(
        lambda pair: {**pair[0], **pair[1]})


def payloads(stream: str, good: list[dict]):
    return (values.map(lambda v: json.dumps(v).encode())
            | shaped(stream).map(lambda v: json.dumps(v).encode())
            | mutated(good).map(lambda v: json.dumps(v).encode())
            | st.binary(max_size=40) | st.sampled_from([b"online", b"offline", b"", b"null"]))


class Sender:
    """A client of its own that publishes as anyone on an open broker may."""

    def __init__(self, port: int) -> None:
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="stranger")
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def send(self, messages: list[tuple[str, bytes]]) -> None:
        infos = [self.client.publish(topic, payload, qos=1) for topic, payload in messages]
        for info in infos:
            info.wait_for_publish(timeout=10)

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def card(fragment: str, box: str) -> str:
    """A box's card, less the count of messages refused (which says what the door did)."""
    found = re.search(rf'<section class="box [a-z]+" data-box="{box}">.*?</section>', fragment)
    assert found, f"no card for {box}"
    return re.sub(r'<p class="note refused">[^<]*</p>', "", found.group(0))


@pytest.fixture
def door(tmp_path, broker):
    """A room on the broker with two good boxes: tisch-1 (to be attacked) and tisch-2."""
    room = Room(tmp_path / "room.sqlite3", broker.port)
    room.store.clock = lambda: NOW
    room.start()
    server = RoomServer(room.store, "127.0.0.1", 0, clock=lambda: NOW,
                        collector=room.collector).start()
    sender = Sender(broker.port)
    streams, docs = {}, {}
    good = []
    for box_id, game in (("tisch-1", "bunte-runde"), ("tisch-2", "tatort-tonne")):
        box = TableBox(tmp_path / box_id)
        box.new(game, ("Anna", "Ben", "Cem"))
        box.play(5)
        f = follower(box.path, tmp_path / f"{box_id}-uplink", box_id)
        f.scan()
        streams[box_id] = f.outbox.stream
        docs[box_id] = [*taken(f.outbox), {"topic": fleet.topic(box_id, fleet.STATE), **f.live()}]
        good += [(m.pop("topic"), json.dumps(m).encode()) for m in docs[box_id]]
        good.append((fleet.topic(box_id, fleet.STATUS), b"online"))
    expected = room.collector.stored + len(good)
    sender.send(good)
    wait_for(lambda: room.collector.stored >= expected, what="the good messages")
    yield room, server, sender, streams, docs["tisch-1"]
    sender.stop()
    server.stop()
    room.stop()


def test_arbitrary_json_on_every_topic_of_a_box_never_takes_the_page_down(door):
    room, server, sender, streams, good = door
    before = get(server.url + "fragment/boxes")[2]
    bystander = card(before, "tisch-2")
    actions = room.actions("tisch-2")

    @settings(max_examples=60, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(st.lists(st.tuples(st.sampled_from(fleet.TOPICS), payloads(streams["tisch-1"], good)),
                    min_size=1, max_size=3))
    def attack(messages):
        expected = room.collector.stored + len(messages)
        sender.send([(fleet.topic("tisch-1", name), payload) for name, payload in messages])
        wait_for(lambda: room.collector.stored >= expected, what="the messages to be judged")
        for path in PAGES:
            status, _kind, body = get(server.url + path)
            assert status == 200, (path, body[:300])
        fragment = get(server.url + "fragment/boxes")[2]
        assert card(fragment, "tisch-2") == bystander  # the other box is unchanged
        assert card(fragment, "tisch-1")  # and the attacked one still has its card

    attack()
    assert room.store.rejected > 0
    assert room.actions("tisch-2") == actions


def test_a_state_of_the_wrong_shape_leaves_the_last_good_state_shown(door):
    room, server, sender, _streams, _good = door
    shown = card(get(server.url + "fragment/boxes")[2], "tisch-1")
    assert "Bunte Runde" in shown
    state = json.loads(room.read("SELECT state FROM boxes WHERE box = 'tisch-1'")[0][0])
    wrong = [{**state, "actions": "many"}, {**state, "standings": 7}, {**state, "winners": 3},
             {**state, "title": {"a": 1}}, {**state, "players": "Anna"}]
    expected = room.collector.stored + len(wrong)
    sender.send([(fleet.topic("tisch-1", fleet.STATE), json.dumps(w).encode()) for w in wrong])
    wait_for(lambda: room.collector.stored >= expected, what="the wrong states")
    assert card(get(server.url + "fragment/boxes")[2], "tisch-1") == shown
    assert room.store.refused["tisch-1"] == len(wrong)


def test_an_oversized_message_is_refused_unread_and_the_page_stays_small(door):
    room, server, sender, _streams, _good = door
    size_before = len(get(server.url)[2])
    state = json.loads(room.read("SELECT state FROM boxes WHERE box = 'tisch-1'")[0][0])
    huge = json.dumps({**state, "title": "x" * 2_000_000}).encode()
    expected = room.collector.stored + 1
    sender.send([(fleet.topic("tisch-1", fleet.STATE), huge)])
    wait_for(lambda: room.collector.stored >= expected, what="the huge state")
    assert room.store.refused["tisch-1"] == 1
    page = get(server.url)[2]
    assert len(page) < size_before + 100 and "1 message refused (see the log)" in page
    assert "x" * 100 not in room.read("SELECT state FROM boxes WHERE box = 'tisch-1'")[0][0]


def test_refusals_are_logged_once_per_box_with_the_reason_then_counted(tmp_path, caplog):
    from spielleiter.device.room.store import Store

    store = Store(tmp_path / "room.sqlite3")
    for box in ("tisch-1", "tisch-2"):
        store.ingest(f"spielleiter/{box}/status", b"online")
    for _ in range(15):
        store.ingest("spielleiter/tisch-1/state", b'{"v": 1, "box": "tisch-1"}')
    store.ingest("spielleiter/tisch-2/events", b"[]")
    lines = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(lines) == 3, lines  # tisch-1's 1st and 10th, tisch-2's 1st
    assert "required property" in lines[0] and "tisch-1" in lines[0]
    assert store.refused == {"tisch-1": 15, "tisch-2": 1}
    store.close()


def test_the_schemas_in_the_docs_are_the_ones_the_room_checks():
    from pathlib import Path

    shipped = Path(__file__).resolve().parents[3] / "docs" / "room-schema.json"
    assert json.loads(shipped.read_text()) == json.loads(json.dumps(schema.documents())), \
        "docs/room-schema.json: spielleiter room --schema > docs/room-schema.json"
