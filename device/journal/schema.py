"""The journal's tables and their migrations, one transaction each, so a file made by any earlier
release opens (tested with a journal made by release 0.1.0 in ``tests/device/data``).

Schema 1: games, actions, calibration, notes. 2: a game's status may be ``damaged``. 3: the time
base (``boots``; each game, action and note keeps its boot and the seconds since it, a game also
whether the clock was synchronised when it began and when it ended) and ``snapshots`` (a game's
whole state every so many actions, so a long game resumes and undoes without replaying it all).
The roster and the learning station's history keep their own tables and add their columns the
same way (``add_columns``).
"""

from __future__ import annotations

import logging
import sqlite3

from .sql import transaction

log = logging.getLogger(__name__)

APP = "spielleiter-journal"
SCHEMA = 3

GAMES = """CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    header TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'over', 'abandoned', 'damaged')),
    started REAL NOT NULL,
    ended REAL,
    boot INTEGER,
    mono REAL,
    synced INTEGER,
    ended_boot INTEGER,
    ended_mono REAL
)"""
TABLES = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS boots (
    id INTEGER PRIMARY KEY,
    boot_id TEXT NOT NULL UNIQUE,
    wall REAL NOT NULL,
    mono REAL NOT NULL,
    synced_wall REAL,
    synced_mono REAL
)""",
    GAMES,
    """CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    boot INTEGER,
    mono REAL,
    PRIMARY KEY (game_id, seq)
)""",
    """CREATE TABLE IF NOT EXISTS snapshots (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    engine TEXT NOT NULL,
    state TEXT NOT NULL,
    digest TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
)""",
    "CREATE TABLE IF NOT EXISTS calibration (pan TEXT PRIMARY KEY, data TEXT NOT NULL, "
    "at REAL NOT NULL)",
    """CREATE TABLE IF NOT EXISTS notes (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    boot INTEGER,
    mono REAL
)""",
)
# Columns schema 3 added to tables an earlier release made.
STAMPED = {"games": {"boot": "INTEGER", "mono": "REAL", "synced": "INTEGER",
                     "ended_boot": "INTEGER", "ended_mono": "REAL"},
           "actions": {"boot": "INTEGER", "mono": "REAL"},
           "notes": {"boot": "INTEGER", "mono": "REAL"}}


def create(db: sqlite3.Connection) -> None:
    """Make the tables and bring an older file up to ``SCHEMA`` (one transaction per step)."""
    with transaction(db):
        for statement in TABLES:
            db.execute(statement)
        db.execute("INSERT OR IGNORE INTO meta VALUES ('app', ?)", (APP,))
        db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
    migrate(db)


def migrate(db: sqlite3.Connection) -> None:
    """Schema 1 to 2 (rebuild ``games`` so its status may be 'damaged': SQLite cannot alter a
    CHECK constraint in place), then 2 to 3 (the stamp columns). A failure leaves the file as
    it was."""
    row = db.execute("SELECT sql FROM sqlite_master WHERE type='table' AND name='games'"
                     ).fetchone()
    if row is None:
        return
    if "'damaged'" not in row[0]:
        db.execute("PRAGMA foreign_keys=OFF")
        try:
            with transaction(db):
                db.execute(GAMES.replace("IF NOT EXISTS games", "games_v2"))
                db.execute("INSERT INTO games_v2 (id, game, header, status, started, ended) "
                           "SELECT id, game, header, status, started, ended FROM games")
                db.execute("DROP TABLE games")
                db.execute("ALTER TABLE games_v2 RENAME TO games")
                db.execute("UPDATE meta SET value='2' WHERE key='schema'")
        finally:
            db.execute("PRAGMA foreign_keys=ON")
        log.info("journal migrated to schema 2")
    with transaction(db):
        added = sum(add_columns(db, table, columns) for table, columns in STAMPED.items())
        for statement in TABLES:  # boots and snapshots, new in schema 3
            db.execute(statement)
        db.execute("UPDATE meta SET value=? WHERE key='schema' AND CAST(value AS INTEGER) < ?",
                   (str(SCHEMA), SCHEMA))
    if added:
        log.info("journal migrated to schema %d", SCHEMA)


def add_columns(db: sqlite3.Connection, table: str, columns: dict[str, str]) -> int:
    """Add the ``columns`` (name: type) a table lacks; returns how many were added. Inside the
    caller's transaction."""
    have = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
    missing = [(name, kind) for name, kind in columns.items() if name not in have]
    for name, kind in missing:
        db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
    return len(missing)
