"""Opening the journal's file: checking it, moving a bad one aside (never overwriting it), the
schema and its migration, and the journal in memory when the file cannot be used at all.

``open_journal`` never raises unless told to: the box must start whatever lies at the path. What
it had to do is returned as ``Notice``s (see ``journal.Journal.notices``).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import DeviceError

log = logging.getLogger(__name__)

APP = "spielleiter-journal"
SCHEMA = 2  # 2: a game's status may be 'damaged' (schema 1 files are migrated on opening)
SQLITE_MAGIC = b"SQLite format 3\x00"

DDL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    header TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'over', 'abandoned', 'damaged')),
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
class Notice:
    """Something the table should be told once at start: ``kind`` is ``moved-aside``,
    ``degraded``, ``set-aside`` or ``calibration``; ``text`` is one English line for the log
    (screens may word it from ``kind``, ``game_id``, ``pan`` and ``reason``)."""

    kind: str
    text: str
    reason: str = ""
    game_id: int | None = None
    pan: str | None = None


@dataclass
class Opened:
    """The connection ``open_journal`` made and what it had to report on the way."""

    db: sqlite3.Connection
    notices: list[Notice] = field(default_factory=list)
    moved: str | None = None     # the move-aside line, if a bad file was moved aside
    degraded: str | None = None  # why the journal lives in memory, if it does


def open_journal(path: Path, clock: Callable[[], float], *, memory_fallback: bool = True
                 ) -> Opened:
    """Connect to the journal at ``path``; a bad file is moved aside first; a file that cannot
    be read, opened or moved gives a journal in memory (or JournalError without the fallback)."""
    notices: list[Notice] = []
    moved = None
    try:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"cannot use {path.parent}: {why(exc)}") from None
        problem = check_existing(path)
        if problem:
            moved = move_aside(path, problem, clock)
            notices.append(Notice("moved-aside", moved, problem))
        return Opened(connect(str(path), path.name), notices, moved)
    except JournalError as exc:
        if not memory_fallback:
            raise
        reason = str(exc)
        db = in_memory(path, copy=moved is None)
        text = f"Journal unusable ({reason}): playing from memory, nothing is saved"
        notices.append(Notice("degraded", text, reason))
        log.error("%s", text)
        return Opened(db, notices, moved, reason)


def in_memory(path: Path, *, copy: bool) -> sqlite3.Connection:
    """Referee from memory: an in-memory journal, with the file's games when it can be read."""
    db = connect(":memory:", path.name)
    if copy and path.is_file():
        try:
            source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
            try:
                source.backup(db)
            finally:
                source.close()
            db.text_factory = decode
            migrate(db)
        except (sqlite3.Error, OSError, JournalError) as exc:
            log.warning("journal not copied into memory: %s", exc)
            db.close()
            db = connect(":memory:", path.name)
    return db


def check_existing(path: Path) -> str | None:
    """Why the file at ``path`` is not a usable journal, or None (absent or fine).
    JournalError when it cannot even be read (that is not fixed by moving it aside)."""
    try:
        if path.is_dir():
            return "a directory, not a file"
        if not path.exists() or path.stat().st_size == 0:
            return None
        with open(path, "rb") as fh:
            if fh.read(16) != SQLITE_MAGIC:
                return "not an SQLite database"
    except OSError as exc:
        raise JournalError(f"cannot read {path.name}: {why(exc)}") from None
    try:
        db = sqlite3.connect(path)
        db.text_factory = decode  # a meta value that is not UTF-8 is damage, not a crash
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
    except sqlite3.OperationalError as exc:  # locked, unreadable: moving it would not help
        raise JournalError(f"cannot read {path.name}: {exc}") from None
    except (sqlite3.DatabaseError, ValueError) as exc:
        return f"damaged ({exc})"
    return None


def move_aside(path: Path, reason: str, clock: Callable[[], float]) -> str:
    """Rename a bad journal (and its -wal/-shm) with a timestamp; returns the line to report."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(clock()))
    target = path.with_name(f"{path.name}.bad-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.bad-{stamp}-{n}")
    try:
        os.replace(path, target)
        for suffix in ("-wal", "-shm"):
            side = path.with_name(path.name + suffix)
            if side.exists():
                os.replace(side, target.with_name(target.name + suffix))
    except OSError as exc:
        raise JournalError(f"journal {reason}, cannot move it aside: {why(exc)}") from None
    text = f"Journal {reason}: moved to {target.name}"
    log.error("%s", text)
    return text


def connect(where: str, name: str) -> sqlite3.Connection:
    """A connection in WAL mode with ``synchronous=FULL``, the tables made and migrated."""
    try:
        db = sqlite3.connect(where, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise JournalError(f"cannot open {name}: {exc}") from None
    try:
        db.text_factory = decode  # a byte that is not UTF-8 must not fail the whole read
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        with transaction(db):
            for statement in DDL.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute("INSERT OR IGNORE INTO meta VALUES ('app', ?)", (APP,))
            db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
        migrate(db)
    except (sqlite3.Error, JournalError) as exc:
        db.close()
        raise JournalError(f"cannot open {name}: {exc}") from None
    return db


def migrate(db: sqlite3.Connection) -> None:
    """Schema 1 to 2: rebuild ``games`` so its status may be 'damaged' (SQLite cannot alter a
    CHECK constraint in place). One transaction: a failure leaves the file as it was."""
    row = db.execute("SELECT sql FROM sqlite_master WHERE type='table' AND name='games'"
                     ).fetchone()
    if row is None or "'damaged'" in row[0]:
        return
    start = DDL.index("CREATE TABLE IF NOT EXISTS games")
    games = DDL[start:DDL.index(";", start)]
    db.execute("PRAGMA foreign_keys=OFF")
    try:
        with transaction(db):
            db.execute(games.replace("IF NOT EXISTS games", "games_v2"))
            db.execute("INSERT INTO games_v2 SELECT id, game, header, status, started, ended "
                       "FROM games")
            db.execute("DROP TABLE games")
            db.execute("ALTER TABLE games_v2 RENAME TO games")
            db.execute("UPDATE meta SET value=? WHERE key='schema'", (str(SCHEMA),))
    finally:
        db.execute("PRAGMA foreign_keys=ON")
    log.info("journal migrated to schema %d", SCHEMA)


class transaction:
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


def why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def decode(raw: bytes) -> str:
    """SQLite text to str; bytes that are not UTF-8 become lone surrogates, which the journal's row reader
    refuses, instead of failing the whole query."""
    return raw.decode("utf-8", "surrogateescape")
