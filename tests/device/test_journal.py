"""Journal: committed actions, undo, resume, and bad files moved aside, never overwritten."""

from __future__ import annotations

import sqlite3

import pytest

from spielleiter.device.journal.store import Journal
from spielleiter.device.journal.header import Header

HEADER = Header("tatort-tonne", ("a", "b"), {}, 7)


def test_actions_are_kept_in_order_and_survive_reopening(tmp_path):
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        game = journal.start_game(HEADER)
        journal.append(game, {"n": 1})
        journal.append(game, {"n": 2})
    with Journal(path) as journal:
        saved = journal.latest()
        assert saved.header == HEADER and saved.actions == [{"n": 1}, {"n": 2}]
        assert journal.notice is None


def test_undo_removes_the_last_action_durably(tmp_path):
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        game = journal.start_game(HEADER)
        journal.append(game, {"n": 1})
        journal.append(game, {"n": 2})
        assert journal.undo(game) == {"n": 2}
    with Journal(path) as journal:
        assert journal.latest().actions == [{"n": 1}]
        assert journal.undo(game) == {"n": 1}
        assert journal.undo(game) is None


def test_a_new_game_abandons_the_running_one(tmp_path):
    with Journal(tmp_path / "j.sqlite3") as journal:
        first = journal.start_game(HEADER)
        second = journal.start_game(HEADER)
        assert journal.latest().id == second
        assert journal.load(first).status == "abandoned"


def test_journal_uses_wal_and_full_sync(tmp_path):
    with Journal(tmp_path / "j.sqlite3") as journal:
        assert journal.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert journal.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_the_journals_page_cache_is_bounded_so_a_box_left_running_does_not_grow(tmp_path):
    # benchmarks/sim_memory.py: with SQLite's default 2,000 KiB the simulator grew for hours
    from spielleiter.device.journal.file import CACHE_KIB
    with Journal(tmp_path / "j.sqlite3") as journal:
        assert journal.db.execute("PRAGMA cache_size").fetchone()[0] == -CACHE_KIB
        assert CACHE_KIB <= 512


def test_a_corrupt_file_is_moved_aside_and_reported(tmp_path):
    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"this is not a database at all" * 100)
    with Journal(path) as journal:
        assert journal.notice and "not an SQLite database" in journal.notice
        assert journal.latest() is None
    aside = list(tmp_path.glob("j.sqlite3.bad-*"))
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is not")


def test_a_damaged_sqlite_file_is_moved_aside(tmp_path):
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        game = journal.start_game(HEADER)
        for n in range(200):
            journal.append(game, {"n": n, "pad": "x" * 200})
    data = bytearray(path.read_bytes())
    for page in range(1, 6):  # scribble over the b-tree page headers of the tables
        data[page * 4096:page * 4096 + 64] = b"\xa5" * 64
    path.write_bytes(bytes(data))
    with Journal(path) as journal:
        assert journal.notice and "moved to" in journal.notice
    assert list(tmp_path.glob("j.sqlite3.bad-*"))


def test_another_programs_database_is_moved_aside_not_overwritten(tmp_path):
    path = tmp_path / "j.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.execute("INSERT INTO recipes VALUES ('pancakes')")
    db.commit()
    db.close()
    with Journal(path) as journal:
        assert "another program's database" in journal.notice
    aside = next(tmp_path.glob("j.sqlite3.bad-*"))
    assert sqlite3.connect(aside).execute("SELECT name FROM recipes").fetchone() == ("pancakes",)


def test_calibration_and_notes_are_kept(tmp_path):
    with Journal(tmp_path / "j.sqlite3") as journal:
        journal.save_calibration("left", {"offset": 1, "scale": 2.5})
        journal.add_note("selftest", {"ok": True})
        assert journal.calibration("left") == {"offset": 1, "scale": 2.5}
        assert journal.calibration("right") is None
        assert journal.notes("selftest") == [{"ok": True}]


def test_a_game_from_a_newer_version_is_set_aside_once_not_at_every_start(tmp_path):
    from spielleiter.device.session import Session

    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        game = journal.start_game(Header("chess", ("a", "b"), {}, 1))
        assert Session.resume(journal) is None
        [notice] = journal.notices
        assert notice.kind == "set-aside" and notice.game_id == game
        assert "unknown game 'chess'" in notice.text
        assert journal.load(game).status == "damaged"   # kept, not deleted
    with Journal(path) as journal:
        assert Session.resume(journal) is None
        assert journal.notices == []                     # reported once, not at every start


def test_the_last_action_can_end_the_game_in_the_same_commit(tmp_path):
    with Journal(tmp_path / "j.sqlite3") as journal:
        game = journal.start_game(HEADER)
        journal.append(game, {"n": 1}, over=True)
        saved = journal.load(game)
        assert saved.status == "over" and saved.actions == [{"n": 1}]


def test_text_that_is_not_valid_unicode_is_never_written(tmp_path):
    from spielleiter.device.journal.store import JournalError

    with Journal(tmp_path / "j.sqlite3") as journal:
        with pytest.raises(JournalError, match="not valid Unicode"):
            journal.start_game(Header("tatort-tonne", ("\ud800x", "b"), {}, 7))
        assert journal.db.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)
        game = journal.start_game(HEADER)
        for bad in ({"player": "\udfff"}, {"grams": float("nan")}):
            with pytest.raises(JournalError, match="not saved"):
                journal.append(game, bad)
        assert journal.load(game).actions == []


def test_a_session_refuses_a_header_with_a_lone_surrogate_before_recording_it(tmp_path):
    from spielleiter.device.replay import ReplayError
    from spielleiter.device.session import Session

    with Journal(tmp_path / "j.sqlite3") as journal:
        with pytest.raises(ReplayError, match="not valid Unicode"):
            Session.new(journal, Header("tatort-tonne", ("a", "b", "\ud800"), {}, 7))
        assert journal.latest() is None


def test_undo_rebuilds_the_state_and_the_last_events_through_replay(tmp_path):
    from spielleiter.device.session import Session

    with Journal(tmp_path / "j.sqlite3") as journal:
        session = Session.new(journal, Header("tatort-tonne", ("a", "b", "c"), {}, 7))
        first = session.apply({"type": "choose", "player": "a", "card": "accuse"})
        session.apply({"type": "choose", "player": "b", "card": "steal"})
        assert session.undo() == {"type": "choose", "player": "b", "card": "steal"}
        assert [e.to_json() for e in session.last_events] == [e.to_json() for e in first]
        assert session.state.to_json() == Session.resume(journal).state.to_json()
