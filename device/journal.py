"""The journal: every game's header and its accepted actions in SQLite, committed one by one.

The current state of a game is always the replay of its actions, so a power cut loses nothing that
was committed and undo is "delete the last action". WAL with ``synchronous=FULL`` makes each commit
durable before the screen shows it. A file that is not our journal (corrupt, or another program's
database) is moved aside with a timestamp and reported, never overwritten.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from . import DeviceError
from .replay import Header

log = logging.getLogger(__name__)

APP = "spielleiter-journal"
SCHEMA = 1
_SQLITE_MAGIC = b"SQLite format 3\x00"

_DDL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    header TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'over', 'abandoned')),
    started REAL NOT NULL,
    ended REAL
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS calibration (pan TEXT PRIMARY KEY, data TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS notes (
    id INTEGER PRIMARY KEY, at REAL NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL
);
"""


class JournalError(DeviceError, RuntimeError):
    """The journal cannot be opened or written."""


@dataclass(frozen=True)
class SavedGame:
    """A game as the journal holds it."""

    id: int
    header: Header
    actions: list[dict[str, Any]]
    status: str


class Journal:
    """The SQLite journal. ``notice`` holds a one-line report when a bad file was moved aside."""

    def __init__(self, path: Path | str, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.clock = clock
        self.notice: str | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"cannot use {self.path.parent} for the journal: {exc}") from None
        problem = self._check_existing()
        if problem:
            self._move_aside(problem)
        self._db = self._connect()

    # -- opening ---------------------------------------------------------------------------------
    def _check_existing(self) -> str | None:
        """Why the file at ``path`` is not a usable journal, or None (absent or fine)."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            return None
        with open(self.path, "rb") as fh:
            if fh.read(16) != _SQLITE_MAGIC:
                return "not an SQLite database"
        try:
            db = sqlite3.connect(self.path)
            try:
                check = db.execute("PRAGMA quick_check").fetchone()[0]
                if check != "ok":
                    return f"damaged ({check})"
                tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
                if "meta" not in tables:
                    return "another program's database" if tables else None
                meta = dict(db.execute("SELECT key, value FROM meta"))
                if meta.get("app") != APP:
                    return "another program's database"
                if int(meta.get("schema", "0")) > SCHEMA:
                    return f"a newer journal (schema {meta['schema']})"
            finally:
                db.close()
        except (sqlite3.DatabaseError, ValueError) as exc:
            return f"damaged ({exc})"
        return None

    def _move_aside(self, why: str) -> None:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.clock()))
        target = self.path.with_name(f"{self.path.name}.bad-{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = self.path.with_name(f"{self.path.name}.bad-{stamp}-{n}")
        os.replace(self.path, target)
        for suffix in ("-wal", "-shm"):
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                os.replace(side, target.with_name(target.name + suffix))
        self.notice = f"Journal {why}: moved to {target.name}"
        log.error("%s", self.notice)

    def _connect(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            with _transaction(db):
                for statement in _DDL.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute("INSERT OR IGNORE INTO meta VALUES ('app', ?)", (APP,))
                db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
        except sqlite3.Error as exc:
            raise JournalError(f"cannot open journal {self.path}: {exc}") from exc
        return db

    # -- games -----------------------------------------------------------------------------------
    def start_game(self, header: Header) -> int:
        """Record a new game; any game still running is marked abandoned."""
        now = self.clock()
        with _transaction(self._db):
            self._db.execute("UPDATE games SET status='abandoned', ended=? WHERE status='running'",
                             (now,))
            cur = self._db.execute("INSERT INTO games (game, header, started) VALUES (?, ?, ?)",
                                   (header.game, json.dumps(header.to_json()), now))
        return int(cur.lastrowid)

    def append(self, game_id: int, action: dict[str, Any], *, over: bool = False) -> int:
        """Commit one accepted action (and, with ``over``, the end of the game in the same
        transaction); returns its sequence number (0-based)."""
        now = self.clock()
        with _transaction(self._db):
            seq = self._db.execute("SELECT COUNT(*) FROM actions WHERE game_id=?",
                                   (game_id,)).fetchone()[0]
            self._db.execute("INSERT INTO actions VALUES (?, ?, ?, ?)",
                             (game_id, seq, json.dumps(action), now))
            if over:
                self._db.execute("UPDATE games SET status='over', ended=? WHERE id=?",
                                 (now, game_id))
        return int(seq)

    def undo(self, game_id: int) -> dict[str, Any] | None:
        """Remove and return the last action of the game (None if it has none)."""
        with _transaction(self._db):
            row = self._db.execute(
                "SELECT seq, action FROM actions WHERE game_id=? ORDER BY seq DESC LIMIT 1",
                (game_id,)).fetchone()
            if row is None:
                return None
            self._db.execute("DELETE FROM actions WHERE game_id=? AND seq=?", (game_id, row[0]))
            self._db.execute("UPDATE games SET status='running', ended=NULL WHERE id=?",
                             (game_id,))
        return json.loads(row[1])

    def set_status(self, game_id: int, status: str) -> None:
        with _transaction(self._db):
            self._db.execute("UPDATE games SET status=?, ended=? WHERE id=?",
                             (status, None if status == "running" else self.clock(), game_id))

    def load(self, game_id: int) -> SavedGame:
        row = self._db.execute("SELECT header, status FROM games WHERE id=?",
                               (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"no game {game_id}")
        doc = json.loads(row[0])
        header = Header(doc["game"], tuple(doc["players"]), doc["options"], doc["seed"])
        actions = [json.loads(a) for (a,) in self._db.execute(
            "SELECT action FROM actions WHERE game_id=? ORDER BY seq", (game_id,))]
        return SavedGame(game_id, header, actions, row[1])

    def latest(self) -> SavedGame | None:
        """The most recent game that is running or over (the one to show after a restart)."""
        row = self._db.execute("SELECT id FROM games WHERE status != 'abandoned' "
                               "ORDER BY id DESC LIMIT 1").fetchone()
        return self.load(row[0]) if row else None

    # -- calibration and notes -------------------------------------------------------------------
    def save_calibration(self, pan: str, data: dict[str, Any]) -> None:
        with _transaction(self._db):
            self._db.execute("INSERT OR REPLACE INTO calibration VALUES (?, ?, ?)",
                             (pan, json.dumps(data), self.clock()))

    def calibration(self, pan: str) -> dict[str, Any] | None:
        row = self._db.execute("SELECT data FROM calibration WHERE pan=?", (pan,)).fetchone()
        return json.loads(row[0]) if row else None

    def add_note(self, kind: str, data: dict[str, Any]) -> None:
        """Keep a small record (self-test results, learning-station answers)."""
        with _transaction(self._db):
            self._db.execute("INSERT INTO notes (at, kind, data) VALUES (?, ?, ?)",
                             (self.clock(), kind, json.dumps(data)))

    def notes(self, kind: str, limit: int = 100) -> list[dict[str, Any]]:
        rows = self._db.execute("SELECT data FROM notes WHERE kind=? ORDER BY id DESC LIMIT ?",
                                (kind, limit))
        return [json.loads(r[0]) for r in rows]

    def close(self) -> None:
        db, self._db = getattr(self, "_db", None), None
        if db is not None:
            db.close()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _transaction:
    """BEGIN IMMEDIATE ... COMMIT (ROLLBACK on error); SQLite failures become JournalError."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise JournalError(f"journal: {exc}") from exc

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            self.db.execute("ROLLBACK" if exc_type else "COMMIT")
        except sqlite3.Error as error:
            if exc_type is None:
                raise JournalError(f"journal: {error}") from error
        if isinstance(exc, sqlite3.Error):
            raise JournalError(f"journal: {exc}") from exc
