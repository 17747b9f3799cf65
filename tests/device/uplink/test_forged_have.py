"""The uplink believes only the ``have`` it can check: a forged, retained confirmation far beyond
what the box ever sent, or too big for any stream, neither empties the outbox nor stops the
uplink, and a room that starts later still gets every game."""

from __future__ import annotations

import json
import logging

import paho.mqtt.client as mqtt

from spielleiter.device import fleet
from spielleiter.device.uplink.outbox import Outbox
from roomkit import Room, RunningUplink, TableBox, published_actions, wait_for


def forge(port: int, box: str, payloads: list[dict]) -> None:
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="forger")
    client.connect("127.0.0.1", port)
    client.loop_start()
    for doc in payloads:
        client.publish(fleet.topic(box, fleet.HAVE), json.dumps(doc), qos=1,
                       retain=True).wait_for_publish(timeout=10)
    client.disconnect()
    client.loop_stop()


def test_a_forged_have_is_ignored_and_logged_and_the_room_gets_everything_later(
        tmp_path, broker, caplog):
    caplog.set_level(logging.WARNING)
    box = TableBox(tmp_path / "box", seed=4)
    box.new("bunte-runde", ("Anna", "Ben"))
    box.finish()
    outbox = Outbox(tmp_path / "uplink", "tisch-1")  # the stream the uplink will publish
    stream = outbox.stream
    outbox.close()
    # too big for SQLite's integer (an OverflowError at every start), then far beyond
    forge(broker.port, "tisch-1", [{"stream": stream, "n": 2**70}])
    uplink = RunningUplink(box.path, tmp_path / "uplink", "tisch-1", broker.port).start()
    try:
        wait_for(lambda: "that no stream can have" in caplog.text, what="the first forgery")
        forge(broker.port, "tisch-1", [{"stream": stream, "n": 10**6}])
        wait_for(lambda: "but only" in caplog.text, what="the second forgery")
        made = uplink.uplink.outbox.last_n
        assert made > 5 and uplink.pending() == made  # nothing left the outbox
        assert uplink.thread.is_alive()
        room = Room(tmp_path / "room.sqlite3", broker.port).start()
        try:
            expected = published_actions(box)
            wait_for(lambda: room.actions("tisch-1") == expected, what="every action")
            wait_for(lambda: room.read("SELECT COUNT(*) FROM records")[0][0] == 1,
                     what="the finished game")
            wait_for(lambda: uplink.pending() == 0, what="the outbox to drain on the truth")
        finally:
            room.stop()
    finally:
        uplink.stop()
