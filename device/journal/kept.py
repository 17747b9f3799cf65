"""The table of kept results (``record_cache``): the one write of it the journal makes itself,
in the transaction of a game's last action, so an ended game is never replayed to be listed.
What goes into a row, and when a row still fits, is the past games' business (``past.results``).
"""

from __future__ import annotations

import logging
import sqlite3

from .schema import add_columns

log = logging.getLogger(__name__)

DDL = ("CREATE TABLE IF NOT EXISTS record_cache (game_id INTEGER PRIMARY KEY, key TEXT NOT NULL, "
       "result TEXT NOT NULL, rules TEXT, rechecked INTEGER NOT NULL DEFAULT 0)")
# ``rules``: the version of the engines that derived the row; ``rechecked``: a later version
# derived another result (the game says so). Columns a table of an earlier release lacks.
COLUMNS = {"rules": "TEXT", "rechecked": "INTEGER NOT NULL DEFAULT 0"}
# meta: the rules every kept result follows, noted when nothing is left to derive again
MARK = "results_rules"
INSERT = ("INSERT OR REPLACE INTO record_cache (game_id, key, result, rules, rechecked) "
          "VALUES (?, ?, ?, ?, ?)")


def keep_result(db: sqlite3.Connection, game_id: int, entry: tuple[str, ...]) -> bool:
    """Keep ``entry`` inside the caller's open write transaction, under a savepoint: whatever
    goes wrong here (a damaged table) is rolled back alone and logged, and the transaction it is
    part of (a game's last action) commits as it would have without it."""
    try:
        db.execute("SAVEPOINT kept_result")
    except sqlite3.Error as exc:
        log.warning("result of game %d not kept: %s", game_id, exc)
        return False
    try:
        db.execute(DDL)
        add_columns(db, "record_cache", COLUMNS)
        key, result, rules = (*entry, None)[:3]
        db.execute(INSERT, (game_id, key, result, rules, 0))
        db.execute("RELEASE kept_result")
        return True
    except sqlite3.Error as exc:
        log.warning("result of game %d not kept: %s", game_id, exc)
        try:
            db.execute("ROLLBACK TO kept_result")
            db.execute("RELEASE kept_result")
        except sqlite3.Error:
            pass
        return False


def unsettle(db: sqlite3.Connection) -> None:
    """Note (inside the caller's transaction) that some kept results may be missing, so the
    next look at past games derives them again (a salvage changed games)."""
    try:
        db.execute("DELETE FROM meta WHERE key=?", (MARK,))
    except sqlite3.OperationalError:
        pass


def forget(db: sqlite3.Connection, game_id: int) -> None:
    """Drop a game's kept result inside the caller's transaction (an undo: the game runs
    again, and its end keeps a new one); a journal without the table has nothing to drop."""
    try:
        db.execute("DELETE FROM record_cache WHERE game_id=?", (game_id,))
    except sqlite3.OperationalError:
        pass


__all__ = ["COLUMNS", "DDL", "INSERT", "MARK", "forget", "keep_result", "unsettle"]
