"""The room is told a finished game's date only when the box's clock was right:
the uplink's record reads the journal's time base, never the raw wall clock of a Pi without a
real-time clock (which shows the last shutdown until network time arrives)."""

from __future__ import annotations

import random

from spielleiter.device.journal.header import Header
from spielleiter.device.journal.store import Journal
from spielleiter.device.session import Session
from spielleiter.device.journal.timebase import TimeSource
from spielleiter.games import GAMES, complete
from roomkit import follower, taken

FAKE_HWCLOCK = 1_780_000_000.0  # 2026-05-28: plausible, and wrong
NETWORK_TIME = 1_800_000_000.0  # 2027-01-15T08:00:00+00:00


def finished_game(journal: Journal) -> None:
    rng = random.Random(2)
    session = Session.new(journal, Header("bunte-runde", ("Anna", "Ben"), {}, 3))
    while not session.state.is_over:
        player = rng.choice(session.state.waiting_for())
        session.apply(complete(GAMES["bunte-runde"],
                               rng.choice(session.state.legal_actions(player)), rng))


def published_record(tmp_path, pi):
    source = TimeSource(wall=lambda: pi["wall"], mono=lambda: pi["mono"],
                        synced=lambda: pi["synced"], boot_id=lambda: "boot-1")
    with Journal(tmp_path / "box" / "journal.sqlite3", time_source=source) as journal:
        finished_game(journal)
        f = follower(journal.path, tmp_path / "uplink")
        f.scan()
        return [m for m in taken(f.outbox) if m["kind"] == "game"][0]["record"]


def test_a_game_played_before_network_time_reaches_the_room_as_date_unknown(tmp_path):
    record = published_record(tmp_path, {"wall": FAKE_HWCLOCK, "mono": 40.0, "synced": False})
    assert record["started"] is None and record["ended"] is None
    assert record["duration_s"] is not None  # the seconds since boot still measure it


def test_a_game_played_with_a_synchronised_clock_keeps_its_date(tmp_path):
    record = published_record(tmp_path, {"wall": NETWORK_TIME, "mono": 40.0, "synced": True})
    assert record["started"] == "2027-01-15T08:00:00+00:00"
