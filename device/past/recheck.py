"""Kept results brought up to date off the event loop: after an update of the rules, and for
games that never had one kept (a journal of an earlier release, an abandoned game).

Past games and statistics read the kept rows whatever rules made them (``results``), so nothing
waits for this. ``recheck`` replays the games whose row is missing or of other rules, a batch at
a time, on its own connection (SQLite's WAL lets it read beside the box, and each batch is one
short write), and keeps each result by today's rules. Where the same actions now give another
result, the row is marked ``rechecked`` and the game shows "result re-checked". A game that
changed meanwhile (an undo on the box) is left for its own end to keep. When nothing is left,
``meta`` notes the rules every result now follows (``MARK``), so asking whether a recheck is
needed costs one row, not a look at every game.

``Rechecker`` runs it in a process of its own (``python -m spielleiter.device.past.recheck
JOURNAL``, scheduled only when the CPU would idle, its writes without an fsync each): a thread would share the interpreter's lock and its garbage
collector with the box's loop, and a collection over the replays' objects held the loop for
30-100 ms on a laptop, several times that on a Pi. A box started again simply carries on where
it stopped.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from ..journal.kept import COLUMNS, DDL, MARK
from ..journal.schema import add_columns
from ..journal.sql import decode
from . import results as cache
from .games import PastGames

log = logging.getLogger(__name__)

BATCH = 25  # games replayed between two short writes
ENDED = "('over', 'abandoned', 'damaged')"


@dataclass
class Progress:
    """How far a recheck is: ``done`` of ``total`` games, ``changed`` gave another result."""

    done: int = 0
    total: int = 0
    changed: int = 0
    finished: bool = False


def stale(db: sqlite3.Connection, rules: str) -> list[int]:
    """Ended games without corrections whose kept result is missing or of other rules, oldest
    first (a corrected game is replayed when shown, never kept)."""
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    skip = "AND g.id NOT IN (SELECT game_id FROM corrections)" if "corrections" in tables else ""
    return [r[0] for r in db.execute(
        f"SELECT g.id FROM games g LEFT JOIN record_cache k ON k.game_id=g.id WHERE g.status IN "
        f"{ENDED} AND (k.game_id IS NULL OR k.rules IS NULL OR k.rules<>?) {skip} ORDER BY g.id",
        (rules,))]


def connect(path: Path) -> sqlite3.Connection:
    """A connection of the recheck's own to the journal file (waits briefly for the box's
    writes; never holds the file longer than one batch's write)."""
    db = sqlite3.connect(str(path), isolation_level=None, timeout=5.0, check_same_thread=False)
    db.text_factory = decode
    # derived rows: a power cut may lose the last batch (it is derived again), so no fsync per
    # batch competes with the box's own commits for the card
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(DDL)
        add_columns(db, "record_cache", COLUMNS)
        db.execute("COMMIT")
    except sqlite3.Error:
        db.execute("ROLLBACK")
        raise
    return db


def recheck(path: Path, *, stop: threading.Event | None = None,
            progress: Progress | None = None,
            on_batch: Callable[[Progress], None] | None = None, pause_s: float = 0.0
            ) -> Progress:
    """Bring every kept result of the journal at ``path`` up to date (see the module doc).
    ``pause_s``: a rest after each game."""
    progress = progress if progress is not None else Progress()
    rules = cache.rules()
    db = connect(path)
    try:
        past = PastGames(db)
        ids = stale(db, rules)
        progress.total = len(ids)
        for first in range(0, len(ids), BATCH):
            if stop is not None and stop.is_set():
                return progress
            rows = []
            for game_id in ids[first:first + BATCH]:
                try:
                    rows.append((game_id, *past.derive(game_id)))
                except Exception as exc:  # noqa: BLE001 - one game's engine bug skips one game
                    log.warning("result of game %d not re-checked: %s", game_id, exc)
                if pause_s:
                    time.sleep(pause_s)
            progress.changed += _write(db, rows, rules)
            progress.done = min(len(ids), first + BATCH)
            if on_batch is not None:
                on_batch(progress)
        if not stale(db, rules):
            _mark(db, rules)
        progress.finished = True
        if progress.total:
            log.info("kept results re-checked: %d games, %d with another result",
                     progress.total, progress.changed)
        return progress
    finally:
        db.close()


def _mark(db: sqlite3.Connection, rules: str) -> None:
    try:
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (MARK, rules))
    except sqlite3.Error as exc:
        log.warning("re-check not noted: %s", exc)


def _write(db: sqlite3.Connection, rows: list[tuple[int, str, str, int]], rules: str) -> int:
    """Keep ``rows`` (id, key, result, actions) in one short write; how many changed."""
    changed = 0
    db.execute("BEGIN IMMEDIATE")
    try:
        for game_id, key, text, count in rows:
            now = db.execute(f"SELECT (SELECT status FROM games WHERE id=?) IN {ENDED}, "
                             "(SELECT COUNT(*) FROM actions WHERE game_id=?)",
                             (game_id, game_id)).fetchone()
            if not now[0] or now[1] != count:
                continue  # undone (or played on) meanwhile: its own end keeps its result
            old = db.execute("SELECT key, result, rechecked FROM record_cache WHERE game_id=?",
                             (game_id,)).fetchone()
            moved = (old is not None and old[0] == key
                     and cache.restore(str(old[1])) != cache.restore(text))
            changed += moved
            marked = moved or bool(old is not None and old[0] == key and old[2])
            db.execute("INSERT OR REPLACE INTO record_cache (game_id, key, result, rules, "
                       "rechecked) VALUES (?, ?, ?, ?, ?)", (game_id, key, text, rules,
                                                             int(marked)))
        db.execute("COMMIT")
    except sqlite3.Error as exc:
        db.execute("ROLLBACK")
        log.warning("re-checked results not kept: %s", exc)
        return 0
    return changed


class Rechecker:
    """``recheck`` in a process of its own (see the module doc): ``running`` while it works,
    ``close`` stops it (a write it was making is rolled back by SQLite; the next start carries
    on)."""

    NICE = 19

    def __init__(self, process: "subprocess.Popen[bytes]") -> None:
        self.process = process

    @classmethod
    def start(cls, path: Path) -> "Rechecker":
        return cls(subprocess.Popen(
            [sys.executable, "-m", __name__, str(path)], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, preexec_fn=_idle_priority))

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    @property
    def returncode(self) -> int | None:
        return self.process.poll()

    def join(self, timeout: float | None = None) -> None:
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            pass

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(1.0)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_if_needed(journal: object) -> Rechecker | None:
    """A ``Rechecker`` for the box's journal when a kept result may be missing or of other
    rules (None for a journal in memory, or when all are up to date): what Past games and
    Statistics start when they open."""
    path = getattr(journal, "path", None)
    db = getattr(journal, "db", None)
    if getattr(journal, "degraded", None) or path is None or db is None:
        return None
    if not Path(path).is_file() or not needed(db):
        return None
    try:  # asked once after an update (or the first time): nothing stale, nothing to start
        if not stale(db, cache.rules()):
            with journal.write():  # type: ignore[attr-defined]
                _mark(db, cache.rules())
            return None
    except Exception as exc:  # noqa: BLE001 - a journal that cannot say: let the process try
        log.debug("recheck not ruled out: %s", exc)
    return Rechecker.start(Path(path))


def _idle_priority() -> None:
    """The recheck runs only when the CPU would idle (``SCHED_IDLE``), else at the lowest
    priority: the box's loop is never kept waiting by it."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(Rechecker.NICE)


def needed(db: sqlite3.Connection) -> bool:
    """Whether any ended game may wait for its result to be (re-)derived: one row of ``meta``
    (a game that ended since keeps its result by today's rules)."""
    try:
        row = db.execute("SELECT value FROM meta WHERE key=?", (MARK,)).fetchone()
    except sqlite3.Error:
        return False
    return row is None or row[0] != cache.rules()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m spielleiter.device.past.recheck JOURNAL``: what ``Rechecker`` runs."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        sys.stderr.write("usage: python -m spielleiter.device.past.recheck JOURNAL\n")
        return 2
    logging.basicConfig(level=logging.INFO, format="recheck: %(message)s")
    try:
        recheck(Path(args[0]))
    except (sqlite3.Error, OSError) as exc:
        log.warning("kept results not re-checked: %s", exc)
        return 1
    return 0


__all__ = ["BATCH", "MARK", "Progress", "Rechecker", "main", "needed", "recheck", "stale",
           "start_if_needed"]


if __name__ == "__main__":
    raise SystemExit(main())
