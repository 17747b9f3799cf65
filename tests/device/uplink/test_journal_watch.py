"""The uplink wakes when the box writes its journal (inotify on the journal's folder) instead of
asking SQLite many times a second; without inotify it polls as before. No broker: the loop's
turns are called directly, the publisher never connects."""

from __future__ import annotations

import threading

import pytest

from spielleiter.device.uplink import watch as watch_mod
from spielleiter.device.uplink.follower import Identity
from spielleiter.device.uplink.publisher import Broker
from spielleiter.device.uplink.service import Timing, Uplink
from spielleiter.device.uplink.watch import EVENT, IN_MODIFY, IN_Q_OVERFLOW, JournalWatch
from roomkit import TableBox

needs_inotify = pytest.mark.skipif(watch_mod._libc() is None, reason="no inotify here")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def uplink(box: TableBox, tmp_path, clock: Clock) -> Uplink:
    # nothing listens on port 9 of the loopback, and the publisher is never started
    return Uplink(box.path, tmp_path / "uplink", Identity("tisch-1", "Tisch 1"),
                  Broker("127.0.0.1", 9), timing=Timing(), clock=clock)


def event(name: bytes, mask: int = IN_MODIFY) -> bytes:
    padded = name + b"\0" * (16 - len(name) % 16)
    return EVENT.pack(1, mask, 0, len(padded)) + padded


def test_only_the_journals_own_files_wake_the_uplink():
    name = b"journal.sqlite3"
    assert JournalWatch._ours(event(b"journal.sqlite3-wal"), name)
    assert JournalWatch._ours(event(b"outbox.sqlite3") + event(b"journal.sqlite3"), name)
    assert not JournalWatch._ours(event(b"outbox.sqlite3") + event(b"config.toml"), name)
    assert JournalWatch._ours(EVENT.pack(-1, IN_Q_OVERFLOW, 0, 0), name)  # events were lost


@needs_inotify
def test_a_commit_by_the_box_wakes_the_watch(tmp_path):
    box = TableBox(tmp_path / "box")
    box.new()
    woke = threading.Event()
    watch = JournalWatch(box.path, woke.set)
    assert watch.start()
    try:
        assert not watch.touched()
        box.play(1)
        assert woke.wait(10)
        assert watch.touched()
        assert not watch.touched()  # asking clears it
    finally:
        watch.stop()
        box.close()
    assert not watch.watching


@needs_inotify
def test_a_watched_idle_uplink_does_not_ask_sqlite_and_a_write_is_seen(tmp_path):
    box = TableBox(tmp_path / "box")
    box.new()
    clock = Clock()
    up = uplink(box, tmp_path, clock)
    asked = []
    changed = up.reader.changed
    up.reader.changed = lambda: asked.append(1) or changed()  # type: ignore[method-assign]
    assert up.watch.start()
    try:
        up.step()  # the first look
        first = up.outbox.last_n
        assert first > 0 and up._wait_s() == up.timing.idle_s
        for _ in range(5):
            clock.now += 0.5
            up.step()
        assert asked == []
        box.play(2)
        assert up.wake.wait(10)
        up.step()
        assert up.outbox.last_n > first
        assert up._wait_s() == up.timing.poll_s  # asking again for a while after a write
        clock.now += up.timing.settle_s
        assert up._wait_s() == up.timing.idle_s
    finally:
        up.watch.stop()
        up.close()
        box.close()


def test_without_inotify_the_uplink_polls_and_sees_every_commit(tmp_path, monkeypatch):
    monkeypatch.setattr(watch_mod, "_libc", lambda: None)
    box = TableBox(tmp_path / "box")
    box.new()
    clock = Clock()
    up = uplink(box, tmp_path, clock)
    try:
        assert not up.watch.start()
        up.step()
        first = up.outbox.last_n
        box.play(2)
        clock.now += up.timing.poll_s
        up.step()  # no rescan due (rescan_s): data_version told it
        assert up.outbox.last_n > first
        assert up._wait_s() == up.timing.poll_s
    finally:
        up.close()
        box.close()


def room_says_have(up: Uplink, n: int) -> None:
    """The room's ``have`` for the uplink's stream, as paho hands it over, of messages the
    uplink handed to the broker (no broker here: as if it had)."""
    import json

    up.publisher.sent_up_to = max(up.publisher.sent_up_to, n)

    from paho.mqtt.client import MQTTMessage

    message = MQTTMessage(topic=b"spielleiter/tisch-1/have")
    message.payload = json.dumps({"stream": up.outbox.stream, "n": n}).encode()
    up.publisher._on_message(up.publisher.client, None, message)


def test_a_held_back_trim_wakes_the_loop_when_it_falls_due(tmp_path):
    """What the room confirmed within trim_s of the last trim leaves the outbox trim_s after it:
    the loop sleeps until then, not a whole idle turn (or poll) past it."""
    box = TableBox(tmp_path / "box")
    box.new()
    clock = Clock()
    up = Uplink(box.path, tmp_path / "uplink", Identity("tisch-1", "Tisch 1"),
                Broker("127.0.0.1", 9), timing=Timing(poll_s=5.0, idle_s=5.0, trim_s=1.0),
                clock=clock)
    try:
        up.step()
        room_says_have(up, up.outbox.last_n)
        up.step()  # the first trim: at once
        assert up.outbox.count() == 0 and up._wait_s() == 5.0
        box.play(2)
        clock.now += 0.25
        up.step()
        sent = up.outbox.last_n
        assert up.outbox.count() > 0
        room_says_have(up, sent)
        up.step()  # 0.25 s after the last trim: held back ...
        assert up.outbox.count() > 0
        assert up._wait_s() == pytest.approx(0.75)  # ... until it falls due
        clock.now += up._wait_s()
        up.step()
        assert up.outbox.count() == 0 and up._wait_s() == 5.0
    finally:
        up.close()
        box.close()
