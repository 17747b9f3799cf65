"""Journals of many games for tests and benchmarks: the real games of a journal copied with SQL
(headers, actions, kept results), as a box meets them after years of play."""

from __future__ import annotations

import sqlite3


def copy_games(db: sqlite3.Connection, total: int) -> None:
    """Copy the journal's ended games (with their actions and kept results) until it holds
    ``total`` ended games; in one transaction."""
    cols = [r[1] for r in db.execute("PRAGMA table_info(games)") if r[1] != "id"]
    acols = [r[1] for r in db.execute("PRAGMA table_info(actions)") if r[1] != "game_id"]
    kcols = [r[1] for r in db.execute("PRAGMA table_info(record_cache)") if r[1] != "game_id"]
    ended = [r[0] for r in db.execute(
        "SELECT id FROM games WHERE status IN ('over', 'abandoned', 'damaged') ORDER BY id")]
    have = len(ended)
    assert have, "nothing to copy"
    db.execute("BEGIN IMMEDIATE")
    n = 0
    while have < total:
        source = ended[n % len(ended)]
        n += 1
        new = db.execute(f"INSERT INTO games ({', '.join(cols)}) SELECT {', '.join(cols)} "
                         "FROM games WHERE id=?", (source,)).lastrowid
        db.execute(f"INSERT INTO actions (game_id, {', '.join(acols)}) SELECT ?, "
                   f"{', '.join(acols)} FROM actions WHERE game_id=?", (new, source))
        if kcols:
            db.execute(f"INSERT INTO record_cache (game_id, {', '.join(kcols)}) SELECT ?, "
                       f"{', '.join(kcols)} FROM record_cache WHERE game_id=?", (new, source))
        have += 1
    db.execute("COMMIT")
