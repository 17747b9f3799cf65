"""Store and forward through a real Mosquitto: a broker killed mid-game and started again, a box
off the network for a long time, an uplink killed mid-publish, a room that listened late, twenty
boxes at once. Each time the room ends with every action of every box, in order, once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

from roomkit import (Room, RunningUplink, TableBox, published_actions, wait_for)


def complete(room: Room, box: TableBox, box_id: str) -> bool:
    return room.actions(box_id) == published_actions(box)


def arrived(room: Room, box_id: str, expected: list[tuple[int, int, str]]):
    """``complete`` for a box that plays no more: its redacted actions replayed once, not on
    every look while the room catches up."""
    return lambda: room.actions(box_id) == expected


def contiguous(numbers: list[int]) -> bool:
    return numbers == list(range(1, len(numbers) + 1))


def test_the_broker_killed_mid_game_and_started_again_loses_nothing(tmp_path, broker):
    room = Room(tmp_path / "room.sqlite3", broker.port).start()
    box = TableBox(tmp_path / "box", seed=3)
    box.new("bunte-runde", ("Anna", "Ben", "Cem"))
    uplink = RunningUplink(box.path, tmp_path / "uplink", "tisch-1", broker.port).start()
    try:
        box.play(5)
        wait_for(lambda: complete(room, box, "tisch-1"), what="the first actions")
        broker.kill()  # mid-game, without a word
        box.play(20)
        wait_for(lambda: uplink.pending() >= 20, what="the outbox to fill")
        broker.start()
        wait_for(lambda: complete(room, box, "tisch-1"), what="every action after the restart")
        wait_for(lambda: uplink.pending() == 0, what="the outbox to drain")
        assert contiguous(room.numbers("tisch-1"))
        assert room.read("SELECT status FROM boxes") == [("online",)]
    finally:
        uplink.stop()
        room.stop()


def test_a_box_off_the_network_for_a_week_sends_it_all_in_order(tmp_path, broker):
    """A week of club evenings with the broker away: many games and answers wait in the
    outbox, then arrive in order with nothing missing."""
    from spielleiter.device.journal.learning import History
    from spielleiter.games.learning import Attempt

    room = Room(tmp_path / "room.sqlite3", broker.port).start()
    broker.kill()
    box = TableBox(tmp_path / "box", seed=5)
    history = History(box.journal)
    uplink = RunningUplink(box.path, tmp_path / "uplink", "club-2", broker.port).start()
    try:
        for evening in range(7):
            for game in ("tatort-tonne", "bunte-runde", "tatort-tonne"):
                box.new(game, ("Anna", "Ben", "Cem"), seed=evening)
                box.finish()
            for i in range(20):
                history.add("Mia", Attempt("grams", 1 + i % 3, 20.0, "21", 1.0, i % 2 == 0))
        wait_for(lambda: uplink.pending() > 300, what="a week in the outbox")
        broker.start()
        wait_for(arrived(room, "club-2", published_actions(box)), timeout=60, what="the week")
        wait_for(lambda: uplink.pending() == 0, what="the outbox to drain")
        assert contiguous(room.numbers("club-2"))
        assert room.read("SELECT COUNT(*) FROM answers") == [(140,)]
        assert room.read("SELECT COUNT(*) FROM records") == [(21,)]
    finally:
        uplink.stop()
        room.stop()


UPLINK = """
import sys
from pathlib import Path
sys.path.insert(0, {tests!r})
from roomkit import RunningUplink
RunningUplink(Path({journal!r}), Path({state!r}), "tisch-9", {port}).uplink.run()
"""


def test_an_uplink_killed_mid_publish_starts_again_and_duplicates_are_dropped(tmp_path, broker):
    room = Room(tmp_path / "room.sqlite3", broker.port).start()
    box = TableBox(tmp_path / "box", seed=9)
    box.new("currency-torraku", ("Anna", "Ben", "Cem"))
    script = UPLINK.format(tests=str(os.path.dirname(os.path.dirname(os.path.dirname(
        __file__)))), journal=str(box.path), state=str(tmp_path / "uplink"), port=broker.port)

    def uplink() -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.DEVNULL)

    proc = uplink()
    try:
        box.play(200)
        wait_for(lambda: room.numbers("tisch-9"), what="the first messages")
        proc.send_signal(signal.SIGKILL)  # a power cut while it publishes
        proc.wait(timeout=10)
        box.play(50)
        proc = uplink()
        wait_for(lambda: complete(room, box, "tisch-9"), timeout=60, what="every action")
        assert contiguous(room.numbers("tisch-9"))
        kept = room.read("SELECT COUNT(*) FROM actions WHERE box = 'tisch-9'")[0][0]
        assert kept == len(published_actions(box))  # a twin is never kept twice
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        room.stop()


def test_a_room_that_listens_late_still_gets_everything(tmp_path, broker):
    """The boxes played before the room's laptop ever connected: their uplinks keep every
    message until the room says it has it."""
    box = TableBox(tmp_path / "box")
    box.new()
    uplink = RunningUplink(box.path, tmp_path / "uplink", "tisch-1", broker.port).start()
    try:
        box.finish()
        wait_for(lambda: uplink.uplink.publisher.sent_up_to >= len(published_actions(box)),
                 what="the uplink to publish into the void")
        room = Room(tmp_path / "room.sqlite3", broker.port).start()
        try:
            wait_for(lambda: complete(room, box, "tisch-1"), what="the resend")
            wait_for(lambda: uplink.pending() == 0, what="the outbox to drain")
            assert contiguous(room.numbers("tisch-1"))
        finally:
            room.stop()
    finally:
        uplink.stop()


def test_twenty_boxes_at_once_each_arrive_whole(tmp_path, broker):
    room = Room(tmp_path / "room.sqlite3", broker.port).start()
    boxes, uplinks = [], []
    games = ("tatort-tonne", "bunte-runde", "currency-torraku")
    try:
        for i in range(20):
            box = TableBox(tmp_path / f"box{i}", seed=i)
            box.new(games[i % 3], ("Anna", "Ben", "Cem"), seed=i)
            boxes.append(box)
            uplinks.append(RunningUplink(box.path, tmp_path / f"uplink{i}", f"tisch-{i}",
                                         broker.port, name=f"Tisch {i}").start())
        for _ in range(4):
            for box in boxes:
                box.play(3)
        for box in boxes:
            box.finish()
        for i, box in enumerate(boxes):
            wait_for(arrived(room, f"tisch-{i}", published_actions(box)), timeout=60,
                     what=f"box {i}")
            assert contiguous(room.numbers(f"tisch-{i}"))
        assert len(room.read("SELECT box FROM records")) == 20
        states = [json.loads(s) for (s,) in room.read("SELECT state FROM boxes ORDER BY box")]
        assert sorted(s["name"] for s in states) == sorted(f"Tisch {i}" for i in range(20))
        wait_for(lambda: all(u.pending() == 0 for u in uplinks), what="every outbox")
    finally:
        for uplink in uplinks:
            uplink.stop()
        room.stop()
