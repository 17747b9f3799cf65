"""A journal made by release 0.1.0 (schema 2, ``tests/device/data``, made by the script beside
it) opens with everything in it: games, the running game, the roster in its order, the learning
station's answers, calibration and settings; it is migrated to schema 3 in place."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from spielleiter.device.journal import settings as settings_store
from spielleiter.device.journal.learning import History
from spielleiter.device.journal.store import Journal
from spielleiter.device.journal.roster import Roster
from spielleiter.device.session import Session

NAME = "journal.sqlite3"
RELEASE = Path(__file__).parent / "data" / "journal-0.1.0.sqlite3"


@pytest.fixture
def old(tmp_path) -> Path:
    shutil.copy(RELEASE, tmp_path / NAME)
    return tmp_path


def test_a_release_0_1_0_journal_keeps_every_game_and_resumes_the_running_one(old):
    with Journal(old / NAME) as journal:
        assert journal.notices == [] and journal.degraded is None
        session = Session.resume(journal)
        assert (session.game_id, session.header.game, len(session.actions)) == (
            4, "tante-trudels-troedel", 9)
        statuses = journal.db.execute("SELECT id, status FROM games ORDER BY id").fetchall()
        assert statuses == [(1, "over"), (2, "abandoned"), (3, "over"), (4, "running")]
        assert journal.calibration("left") == {"offset": 8123.0, "counts_per_g": 412.5}
        saved = settings_store.load(journal)
        assert (saved.language, saved.pace) == ("de", "relaxed")
    db = sqlite3.connect(old / NAME)
    assert db.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == ("3",)
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []


def test_a_release_0_1_0_roster_and_history_read_in_their_order(old):
    with Journal(old / NAME) as journal:
        roster = Roster(journal)
        assert roster.names() == ["Zoe", "Anna", "Ben", "Cleo"]
        roster.add("Mia")
        assert roster.names()[-1] == "Mia"
        history = History(journal)
        assert [r.child for r in history.records()] == ["Zoe"] * 5 + ["Anna"]
        assert history.summary("Zoe").total == 5 and history.summary("Zoe").best_streak == 5


def test_a_release_0_1_0_journal_plays_on_undoes_and_backs_up(old):
    with Journal(old / NAME) as journal:
        session = Session.resume(journal)
        undone = session.undo()
        assert undone is not None and len(session.actions) == 8
        session.apply(undone)
        session.abandon()                       # a game's end: checkpoint and a backup
        assert list((old / "backups").glob("journal-*.sqlite3"))
    with Journal(old / NAME) as journal:
        assert Session.resume(journal).game_id == 3  # the newest game still running or over


def test_a_box_starts_on_a_release_0_1_0_journal(box_factory, old):
    box = box_factory(state_dir=old)
    assert box.app.mode == "game" and box.app.session.game_id == 4
