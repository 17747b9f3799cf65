"""Salvage: what a damaged journal file still holds, copied over a journal restored from backup.

The damaged file is newer than any backup, so what it holds wins where it can be read: a table
read to its end replaces the backup's (deletions made since, such as a child's cleared answers,
stay deleted); a table that breaks off mid-way only adds the rows read before the break. Actions
are read game by game, so damage in one game does not cost the others. Games are never removed
(nothing removes a game). Snapshots and kept results of every game that changed are dropped:
resuming replays them, and past games derive their results again. Corrections made after a game
come over like the games' own rows (their table made first when the backup predates the first
one); what could not be read is counted, so the table is told what was lost, not only what came
back.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .kept import forget, unsettle
from .sql import UNREADABLE, JournalError, decode, transaction

log = logging.getLogger(__name__)

# table -> its key columns; games first (actions refer to them), actions handled per game
TABLES = {"boots": ("id",), "games": ("id",), "calibration": ("pan",), "notes": ("id",),
          "roster": ("name",), "learning": ("id",), "corrections": ("id",)}
# tables that may be missing from an older backup: made there as the damaged file defines them
MADE_IF_MISSING = ("corrections",)
NEVER_REMOVED = {"boots", "games"}


@dataclass
class Salvaged:
    """What came over from the damaged file."""

    games: int = 0     # games the backup did not have
    actions: int = 0   # actions the backup did not have
    corrections: int = 0  # corrections the backup did not have
    broken: int = 0    # tables or games that could only be read in part
    lost: tuple[str, ...] = ()  # what could be read only in part: "games", "corrections", ...
    unreadable: bool = False    # the damaged file could not be read at all

    @property
    def anything(self) -> bool:
        return bool(self.games or self.actions or self.corrections)


def open_read_only(path: Path) -> sqlite3.Connection | None:
    """The damaged file opened for reading only (with its log, if SQLite can use it), or None."""
    for query in ("mode=ro", "mode=ro&immutable=1"):
        try:
            db = sqlite3.connect(f"{path.resolve().as_uri()}?{query}", uri=True)
            db.text_factory = decode
            db.execute("SELECT name FROM sqlite_master").fetchall()
            return db
        except (sqlite3.Error, UnicodeDecodeError, OSError) as exc:
            log.info("salvage: %s with %s: %s", path.name, query, exc)
    return None


def _rows(db: sqlite3.Connection, sql: str, args: tuple[Any, ...] = ()) -> tuple[list[Any], bool]:
    """The rows a query yields before the file breaks off, and whether it reached the end."""
    rows: list[Any] = []
    try:
        for row in db.execute(sql, args):
            rows.append(row)
    except (sqlite3.Error, ValueError) as exc:
        log.warning("salvage: read broke off after %d rows: %s", len(rows), exc)
        return rows, False
    return rows, True


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    try:
        return [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
    except UNREADABLE:
        return []


def salvage(dst: sqlite3.Connection, source: Path) -> Salvaged:
    """Copy what ``source`` still holds into ``dst`` (see the module doc)."""
    result = Salvaged()
    src = open_read_only(source)
    if src is None:
        return Salvaged(unreadable=True)
    try:
        with transaction(dst):
            for table in MADE_IF_MISSING:
                _make(dst, src, table)
            for table, key in TABLES.items():
                _table(dst, src, table, key, result)
            _actions(dst, src, result)
            unsettle(dst)
    except (sqlite3.Error, UnicodeDecodeError, JournalError) as exc:  # the file gave out
        log.error("salvage from %s abandoned: %s", source.name, exc)
        return Salvaged(broken=1, unreadable=True)
    finally:
        src.close()
    log.warning("salvaged from %s: %d games, %d actions, %d corrections (%d parts read only in "
                "part)", source.name, result.games, result.actions, result.corrections,
                result.broken)
    return result


def _make(dst: sqlite3.Connection, src: sqlite3.Connection, table: str) -> None:
    """Make ``table`` in ``dst`` as ``src`` defines it, when ``dst`` lacks it."""
    if _columns(dst, table):
        return
    try:
        row = src.execute("SELECT sql FROM sqlite_master WHERE type='table' AND name=?",
                          (table,)).fetchone()
    except UNREADABLE:
        return
    if row is None or not isinstance(row[0], str) or not row[0].upper().startswith(
            f"CREATE TABLE {table.upper()}") and "IF NOT EXISTS" not in row[0].upper():
        return
    try:
        dst.execute(row[0])
    except sqlite3.Error as exc:
        log.warning("salvage: table %s not made: %s", table, exc)


def _table(dst: sqlite3.Connection, src: sqlite3.Connection, table: str, key: tuple[str, ...],
           result: Salvaged) -> None:
    have = _columns(dst, table)
    columns = [c for c in _columns(src, table) if c in have]
    if not columns or not all(k in columns for k in key):
        return
    names = ", ".join(columns)
    rows, whole = _rows(src, f"SELECT {names} FROM {table}")
    result.broken += not whole
    if not whole:
        result.lost += (table,)
    if table in ("games", "corrections"):
        known = {r[0] for r in dst.execute(f"SELECT id FROM {table}")}
        new = sum(1 for r in rows if r[columns.index("id")] not in known)
        if table == "games":
            result.games += new
        else:
            result.corrections += new
    if whole and table not in NEVER_REMOVED:
        dst.execute(f"DELETE FROM {table}")
    updates = ", ".join(f"{c}=excluded.{c}" for c in columns if c not in key)
    conflict = f"ON CONFLICT({', '.join(key)}) DO UPDATE SET {updates}" if updates \
        else "ON CONFLICT DO NOTHING"
    for row in rows:
        _insert(dst, f"INSERT INTO {table} ({names}) VALUES ({{marks}}) {conflict}", row, table)


def _actions(dst: sqlite3.Connection, src: sqlite3.Connection, result: Salvaged) -> None:
    have = _columns(dst, "actions")
    columns = [c for c in _columns(src, "actions") if c in have]
    if not {"game_id", "seq", "action"} <= set(columns):
        return
    names = ", ".join(columns)
    games, _ = _rows(src, "SELECT id FROM games ORDER BY id")
    known = {r[0] for r in dst.execute("SELECT id FROM games")}
    for (game,) in games:
        if game not in known:
            continue
        rows, whole = _rows(src, f"SELECT {names} FROM actions WHERE game_id=? ORDER BY seq",
                            (game,))
        result.broken += not whole
        if not whole and "actions" not in result.lost:
            result.lost += ("actions",)
        before = dst.execute("SELECT COUNT(*) FROM actions WHERE game_id=?", (game,)).fetchone()[0]
        if whole:
            dst.execute("DELETE FROM actions WHERE game_id=?", (game,))
        for row in rows:
            _insert(dst, f"INSERT OR IGNORE INTO actions ({names}) VALUES ({{marks}})", row,
                    "actions")
        after = dst.execute("SELECT COUNT(*) FROM actions WHERE game_id=?", (game,)).fetchone()[0]
        result.actions += max(0, after - before)
        if after != before or whole:
            dst.execute("DELETE FROM snapshots WHERE game_id=?", (game,))
            forget(dst, game)  # its kept result is derived again (past games' recheck)


def _insert(dst: sqlite3.Connection, sql: str, row: tuple[Any, ...], table: str) -> None:
    """Insert a row as read. Text that was not UTF-8 in the damaged file (read as lone
    surrogates) goes back as the same bytes, still text, for the journal's readers to refuse
    as they always do; a row the schema refuses (a bad status) is left out."""
    values, marks = [], []
    for value in row:
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                values.append(value.encode("utf-8", "surrogateescape"))
                marks.append("CAST(? AS TEXT)")
                continue
        values.append(value)
        marks.append("?")
    try:
        dst.execute(sql.format(marks=", ".join(marks)), values)
    except (sqlite3.Error, ValueError, OverflowError) as exc:
        log.warning("salvage: a %s row left out: %s", table, exc)
