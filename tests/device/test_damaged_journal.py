"""A journal whose SQLite structure is intact but whose rows are not, or a journal
that cannot be opened at all, never stops the box from starting.

Each case writes the damage with sqlite3 directly (as a bad SD card or a hand edit would), then
opens the Journal, resumes a Session, and builds a whole simulated box on the same directory.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

import pytest

from spielleiter.device.journal.header import Header
from spielleiter.device.journal.store import Journal, JournalError
from spielleiter.device.session import Session

NAME = "journal.sqlite3"  # the file name the box uses (device/box.py)
HEADER = Header("tatort-tonne", ("Alexandra", "Melanie", "Ulrike"), {}, 7)
FIRST = {"type": "choose", "player": "Melanie", "card": "accuse"}


def journal_with_a_game(state: Path) -> int:
    """A good journal with one running game of one action; returns the game's id."""
    with Journal(state / NAME) as journal:
        game = journal.start_game(HEADER)
        journal.append(game, FIRST)
    return game


def scribble(state: Path, sql: str, *params) -> None:
    """Damage rows directly with sqlite3, leaving the database structure intact."""
    db = sqlite3.connect(state / NAME)
    db.execute(sql, params)
    db.commit()
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()


def raw_header(state: Path, game: int) -> bytes:
    db = sqlite3.connect(state / NAME)
    try:
        return db.execute("SELECT CAST(header AS BLOB) FROM games WHERE id=?", (game,)).fetchone()[0]
    finally:
        db.close()


DAMAGED_GAMES = {
    "header_not_json": ("UPDATE games SET header=?", '{"game": "tatort-tonne", "players" [',
                        "malformed JSON"),
    "header_not_utf8": ("UPDATE games SET header=CAST(? AS TEXT)",
                        b'{"game": "tatort-tonne", "players": ["Al\x83x", "B"], "seed": 1}',
                        "not UTF-8"),
    "players_missing": ("UPDATE games SET header=?", '{"game": "tatort-tonne", "seed": 1}',
                        "'players' must be a list"),
    "players_an_integer": ("UPDATE games SET header=?",
                           '{"game": "tatort-tonne", "players": 3, "seed": 1}',
                           "'players' must be a list"),
    "header_a_lone_surrogate": ("UPDATE games SET header=?",
                                '{"game": "tatort-tonne", "players": ["\\ud800x", "B"]}',
                                "not valid Unicode"),
    "action_not_json": ("UPDATE actions SET action=?", '{"type": "choose", "player"', "action 0"),
    "action_an_integer_column": ("UPDATE actions SET action=?", 42, "action 0"),
    "action_refused_by_the_engine": ("UPDATE actions SET action=?",
                                     '{"type": "choose", "player": "Zoe", "card": "accuse"}',
                                     "no player 'Zoe'"),
}


@pytest.mark.parametrize("case", DAMAGED_GAMES)
def test_a_game_with_a_damaged_row_is_set_aside_kept_and_reported(tmp_path, case):
    sql, value, reason = DAMAGED_GAMES[case]
    game = journal_with_a_game(tmp_path)
    scribble(tmp_path, sql, value)
    before = raw_header(tmp_path, game)
    with Journal(tmp_path / NAME) as journal:
        assert journal.degraded is None
        assert Session.resume(journal) is None
        [notice] = journal.notices
        assert notice.kind == "set-aside" and notice.game_id == game
        assert reason in notice.reason and notice.text.startswith(f"Game {game} set aside: ")
        status = journal.db.execute("SELECT status FROM games WHERE id=?", (game,)).fetchone()[0]
        assert status == "damaged"
        # the box goes on: a new game starts and is saved next to the damaged one
        session = Session.new(journal, HEADER)
        session.apply(FIRST)
        assert session.game_id != game
    assert raw_header(tmp_path, game) == before  # kept as it was, not deleted or rewritten
    with Journal(tmp_path / NAME) as journal:
        assert Session.resume(journal).actions == [FIRST]
        assert journal.notices == []  # reported once, not at every start


@pytest.mark.parametrize("case", DAMAGED_GAMES)
def test_a_box_starts_on_a_journal_with_a_damaged_game(box_factory, tmp_path, case):
    sql, value, _reason = DAMAGED_GAMES[case]
    state = tmp_path / "state"
    game = journal_with_a_game(state)
    scribble(state, sql, value)
    box = box_factory(state_dir=state)
    assert box.app.session is None
    assert [n.game_id for n in box.journal.notices] == [game]
    box.runtime.pump()  # the loop runs: the box answers


def test_an_older_good_game_is_not_lost_behind_a_damaged_one(tmp_path):
    with Journal(tmp_path / NAME) as journal:
        old = journal.start_game(HEADER)
        journal.append(old, FIRST)
        journal.set_status(old, "over")
        new = journal.start_game(HEADER)
    scribble(tmp_path, "UPDATE games SET header='{' WHERE id=?", new)
    with Journal(tmp_path / NAME) as journal:
        session = Session.resume(journal)
        assert session.game_id == old and session.actions == [FIRST]
        assert [n.game_id for n in journal.notices] == [new]


@pytest.mark.parametrize("data, reason", [
    ("{'offset': 1", "malformed JSON"),
    ("[1, 2, 3]", "not a JSON object"),
    ('{"name": "\\udfff"}', "not valid Unicode"),
])
def test_a_damaged_calibration_reads_as_uncalibrated_with_a_notice(tmp_path, data, reason):
    with Journal(tmp_path / NAME) as journal:
        journal.save_calibration("left", {"offset": 1, "scale": 2.5})
        journal.save_calibration("right", {"offset": 2, "scale": 3.5})
    scribble(tmp_path, "UPDATE calibration SET data=? WHERE pan='left'", data)
    with Journal(tmp_path / NAME) as journal:
        assert journal.calibration("left") is None
        assert journal.calibration("right") == {"offset": 2, "scale": 3.5}
        assert journal.calibration("left") is None
        [notice] = journal.notices  # once, however often it is read
        assert notice.kind == "calibration" and notice.pan == "left" and reason in notice.reason
        assert "uncalibrated" in notice.text


@pytest.mark.parametrize("data", ["{'offset': 1", "[1, 2, 3]"])
def test_a_box_starts_on_a_damaged_calibration(box_factory, tmp_path, data):
    state = tmp_path / "state"
    with Journal(state / NAME) as journal:
        journal.save_calibration("left", {"offset": 1, "scale": 2.5})
    scribble(state, "UPDATE calibration SET data=?", data)
    box = box_factory(state_dir=state)
    assert any(n.kind == "calibration" and n.pan == "left" for n in box.journal.notices)


def test_an_unreadable_note_is_left_out(tmp_path):
    with Journal(tmp_path / NAME) as journal:
        journal.add_note("selftest", {"ok": True})
        journal.add_note("selftest", {"ok": False})
    scribble(tmp_path, "UPDATE notes SET data='{' WHERE id=1")
    with Journal(tmp_path / NAME) as journal:
        assert journal.notes("selftest") == [{"ok": False}]


# -- a journal that cannot be opened or moved aside ----------------------------------------------
def deny(monkeypatch, path: Path) -> None:
    """Make ``path`` unreadable: chmod 000, and (root ignores permissions) refuse opening it as
    the kernel refuses the service's user."""
    path.chmod(0)
    real_open, real_connect = open, sqlite3.connect

    def guarded_open(file, *args, **kwargs):
        if Path(str(file)) == path:
            raise PermissionError(errno.EACCES, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    def guarded_connect(where, *args, **kwargs):
        if str(path) in str(where):
            raise sqlite3.OperationalError("unable to open database file")
        return real_connect(where, *args, **kwargs)

    monkeypatch.setattr("builtins.open", guarded_open)
    monkeypatch.setattr(sqlite3, "connect", guarded_connect)


def read_only_directory(monkeypatch, directory: Path) -> None:
    """chmod 555 on the state directory, and (root ignores it) refuse renames inside it."""
    directory.chmod(0o555)
    real_replace = os.replace

    def guarded_replace(src, dst, *args, **kwargs):
        if Path(src).parent == directory:
            raise PermissionError(errno.EACCES, "Permission denied", str(src))
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", guarded_replace)


def play_from_memory(journal: Journal) -> None:
    session = Session.new(journal, HEADER)
    session.apply(FIRST)
    assert Session.resume(journal).actions == [FIRST]


def test_an_unreadable_journal_is_reported_and_the_box_plays_from_memory(tmp_path, monkeypatch):
    journal_with_a_game(tmp_path)
    deny(monkeypatch, tmp_path / NAME)
    with Journal(tmp_path / NAME) as journal:
        assert journal.degraded and "Permission denied" in journal.degraded
        assert [n.kind for n in journal.notices] == ["degraded"]
        play_from_memory(journal)
    monkeypatch.undo()
    (tmp_path / NAME).chmod(0o600)
    assert not list(tmp_path.glob("*.bad-*"))  # nothing moved: fixing the permissions is enough
    with Journal(tmp_path / NAME) as journal:
        assert journal.degraded is None and Session.resume(journal).actions == [FIRST]


def test_a_damaged_file_in_a_read_only_directory_gives_a_journal_in_memory(tmp_path,
                                                                             monkeypatch):
    (tmp_path / NAME).write_bytes(b"not a database" * 100)
    read_only_directory(monkeypatch, tmp_path)
    try:
        with Journal(tmp_path / NAME) as journal:
            assert "cannot move it aside" in journal.degraded
            assert "not an SQLite database" in journal.degraded
            play_from_memory(journal)
    finally:
        tmp_path.chmod(0o755)
    assert (tmp_path / NAME).read_bytes().startswith(b"not a database")  # untouched


def test_a_journal_path_that_is_a_directory_is_moved_aside(tmp_path):
    (tmp_path / NAME).mkdir()
    (tmp_path / NAME / "keep.txt").write_text("mine")
    with Journal(tmp_path / NAME) as journal:
        assert journal.degraded is None and "a directory" in journal.notice
        assert [n.kind for n in journal.notices] == ["moved-aside"]
        play_from_memory(journal)
    [aside] = tmp_path.glob(f"{NAME}.bad-*")
    assert (aside / "keep.txt").read_text() == "mine"


def test_a_directory_that_cannot_be_moved_gives_a_journal_in_memory(tmp_path, monkeypatch):
    (tmp_path / NAME).mkdir()
    read_only_directory(monkeypatch, tmp_path)
    try:
        with Journal(tmp_path / NAME) as journal:
            assert "a directory" in journal.degraded
            play_from_memory(journal)
    finally:
        tmp_path.chmod(0o755)


def test_a_journal_that_opens_only_for_reading_keeps_its_game_in_memory(tmp_path, monkeypatch):
    from spielleiter.device.journal import file as journal_file

    game = journal_with_a_game(tmp_path)
    real = journal_file.connect

    def read_only(where, name):
        if where != ":memory:":
            raise JournalError("cannot open journal.sqlite3: attempt to write a readonly database")
        return real(where, name)

    monkeypatch.setattr(journal_file, "connect", read_only)
    with Journal(tmp_path / NAME) as journal:
        assert "readonly" in journal.degraded
        session = Session.resume(journal)
        assert session.game_id == game and session.actions == [FIRST]


def test_tools_can_refuse_a_journal_in_memory(tmp_path, monkeypatch):
    journal_with_a_game(tmp_path)
    deny(monkeypatch, tmp_path / NAME)
    with pytest.raises(JournalError, match="Permission denied"):
        Journal(tmp_path / NAME, memory_fallback=False)


@pytest.mark.parametrize("case", ["unreadable", "damaged_in_a_read_only_directory",
                                  "a_directory_in_a_read_only_directory", "a_directory"])
def test_a_box_starts_when_its_journal_cannot_be_used(box_factory, tmp_path, monkeypatch, case):
    state = tmp_path / "state"
    state.mkdir()
    if case == "unreadable":
        journal_with_a_game(state)
        deny(monkeypatch, state / NAME)
    elif case.startswith("damaged"):
        (state / NAME).write_bytes(b"garbage" * 200)
    else:
        (state / NAME).mkdir()
    if case.endswith("read_only_directory"):
        read_only_directory(monkeypatch, state)
    try:
        box = box_factory(state_dir=state)
        box.runtime.pump()
        if case == "a_directory":  # moved aside: the box keeps a journal file again
            assert box.journal.degraded is None and box.journal.notices[0].kind == "moved-aside"
        else:
            assert box.journal.degraded and box.journal.notices[-1].kind == "degraded"
    finally:
        state.chmod(0o755)


def test_a_schema_1_journal_is_migrated_and_keeps_its_games(tmp_path):
    db = sqlite3.connect(tmp_path / NAME)
    db.executescript("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta VALUES ('app', 'spielleiter-journal'), ('schema', '1');
        CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, header TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'running'
                CHECK (status IN ('running', 'over', 'abandoned')),
            started REAL NOT NULL, ended REAL);
        CREATE TABLE actions (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
            action TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (game_id, seq));
        INSERT INTO games VALUES (1, 'tatort-tonne',
            '{"game": "tatort-tonne", "players": ["a", "b", "c"], "options": {}, "seed": 7}',
            'over', 0, 1);
        INSERT INTO actions VALUES (1, 0, '{"type": "choose", "player": "b", "card": "accuse"}', 1);
        INSERT INTO games VALUES (2, 'tatort-tonne', '{"game": "tatort-tonne"}', 'running', 2, NULL);
    """)
    db.commit()
    db.close()
    with Journal(tmp_path / NAME) as journal:
        session = Session.resume(journal)  # game 2 is set aside: 'damaged' needs schema 2 (now 3)
        assert session.game_id == 1 and len(session.actions) == 1
        assert journal.load(1).status == "over"
        assert journal.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == ("3",)
        assert journal.db.execute("PRAGMA foreign_key_check").fetchall() == []
    assert sqlite3.connect(tmp_path / NAME).execute(
        "SELECT status FROM games WHERE id=2").fetchone() == ("damaged",)


def test_a_game_this_box_has_no_mode_for_is_set_aside(tmp_path):
    with Journal(tmp_path / NAME) as journal:
        game = journal.start_game(HEADER)
        assert Session.resume(journal, playable={"bunte-runde"}) is None
        [notice] = journal.notices
        assert notice.game_id == game and "cannot referee tatort-tonne" in notice.reason


def test_a_box_starts_on_a_journal_game_it_has_no_mode_for(box_factory, tmp_path, monkeypatch):
    from spielleiter.device.modes import GAME_MODES

    state = tmp_path / "state"
    journal_with_a_game(state)
    monkeypatch.delitem(GAME_MODES, "tatort-tonne")  # as for an engine whose mode is not in yet
    box = box_factory(state_dir=state)
    assert box.app.session is None and box.journal.notices
    assert "Game 1 set aside" in box.last_view.lines


def test_notices_are_taken_once_each(tmp_path):
    game = journal_with_a_game(tmp_path)
    scribble(tmp_path, "UPDATE games SET header='{'")
    with Journal(tmp_path / NAME) as journal:
        journal.save_calibration("left", {"offset": 1})
        Session.resume(journal)
        assert [n.game_id for n in journal.take_notices()] == [game]
        assert journal.take_notices() == []
        journal.db.execute("UPDATE calibration SET data='[]'")
        assert journal.calibration("left") is None
        assert [n.kind for n in journal.take_notices()] == ["calibration"]
        assert len(journal.notices) == 2  # the history stays
