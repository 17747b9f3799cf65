"""The table of kept results (``record_cache``): the one write of it the journal makes itself,
in the transaction of a game's last action, so an ended game is never replayed to be listed.
What goes into a row, and when a row still fits, is the past games' business (``past.results``).
"""

from __future__ import annotations

import logging
import sqlite3

log = logging.getLogger(__name__)

DDL = ("CREATE TABLE IF NOT EXISTS record_cache (game_id INTEGER PRIMARY KEY, key TEXT NOT NULL, "
       "result TEXT NOT NULL)")


def keep_result(db: sqlite3.Connection, game_id: int, entry: tuple[str, str]) -> bool:
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
        db.execute("INSERT OR REPLACE INTO record_cache VALUES (?, ?, ?)", (game_id, *entry))
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


__all__ = ["DDL", "keep_result"]
