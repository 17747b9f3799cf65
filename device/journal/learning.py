"""The learning station's memory: every attempt of every child, in the journal database.

One row per scored answer (child, quiz, level, truth, guess, error, correct, whether it was a try
again, and when), written through the journal's ``write`` so a power cut keeps every answer the
screen has shown. Rows are ordered by their id, never by time. A child's levels are not stored
apart: they are the fold of the child's attempts (``games.learning.levels``), so clearing a
child's history starts the child afresh. A row that cannot be read back (wrong types, not a
number, text that is not UTF-8) is left out and logged; a row whose time is not a date the box
can have seen (a clock that was not synchronised, a damaged number such as 1e18) is kept with its
time unknown: the answer still counts. Nothing here stops the box.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Callable, Iterator

from ...games import learning
from ...games.learning import Attempt
from .roster import identity
from .schema import add_columns
from .sql import transaction
from ..text import bad_char
from .timebase import plausible

if TYPE_CHECKING:
    from .store import Journal

log = logging.getLogger(__name__)

DDL = """CREATE TABLE IF NOT EXISTS learning (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    child TEXT NOT NULL,
    quiz TEXT NOT NULL,
    level INTEGER NOT NULL,
    truth_g REAL,
    guess TEXT,
    error REAL,
    correct INTEGER NOT NULL,
    retry INTEGER NOT NULL DEFAULT 0,
    boot INTEGER,
    mono REAL
)"""
SESSION_S = 12 * 3600.0  # undated answers of this boot younger than this count as today's
COLUMNS = ("time", "child", "quiz", "level", "truth_g", "guess", "error", "correct", "retry")


@dataclass(frozen=True)
class Record:
    """One attempt as kept: who, when (epoch seconds; None when the time is not known) and the
    scored ``attempt``."""

    at: float | None
    child: str
    attempt: Attempt
    boot: int | None = None   # the journal's boot and seconds since it (timebase.Stamp)
    mono: float | None = None

    def iso_time(self) -> str:
        """The time in ISO 8601, UTC (``2026-11-30T14:05:09+00:00``); "" when unknown."""
        if self.at is None:
            return ""
        return datetime.fromtimestamp(self.at, timezone.utc).isoformat(timespec="seconds")

    def row(self) -> dict[str, Any]:
        """The record under ``COLUMNS`` (CSV, the link)."""
        a = self.attempt
        return {"time": self.iso_time(), "child": self.child, "quiz": a.quiz, "level": a.level,
                "truth_g": a.truth_g, "guess": a.guess, "error": a.error,
                "correct": int(a.correct), "retry": int(a.retry)}


@dataclass(frozen=True)
class Summary:
    """What a child's results screen shows."""

    child: str
    today: int          # answers today
    today_right: int    # good answers today
    trend: str          # "up", "down", "steady" or "new"
    best_streak: int
    levels: dict[str, int]
    total: int


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not abs(value) < 1e300 or not math.isfinite(value):  # a huge int cannot be a float
        raise ValueError(f"{what} is not a number")
    return float(value)


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or bad_char(value):
        raise ValueError(f"{what} is not text")
    return value


def parse(row: tuple[Any, ...], when: Callable[[Any, Any, Any], float | None] | None = None
          ) -> Record:
    """A row back into a Record; ValueError saying what is wrong with a damaged one. ``when``
    turns (boot, mono, recorded time) into a wall time or None (the journal's time base; without
    it the recorded time, if plausible)."""
    _, at, child, quiz, level, truth_g, guess, error, correct, retry, *stamp = row
    boot, mono = (stamp + [None, None])[:2]
    quiz = _text(quiz, "quiz")
    if quiz not in learning.QUIZZES:
        raise ValueError(f"unknown quiz {quiz!r}")
    level_n = _number(level, "level")
    if level_n != int(level_n) or not learning.MIN_LEVEL <= level_n <= learning.MAX_LEVEL:
        raise ValueError(f"level {level!r}")
    if correct not in (0, 1) or retry not in (0, 1):
        raise ValueError("correct/retry is not 0 or 1")
    attempt = Attempt(quiz, int(level_n), _number(truth_g, "truth_g"), _text(guess, "guess"),
                      _number(error, "error"), bool(correct), bool(retry))
    wall = when(boot, mono, at) if when is not None else plausible(at)
    stamped = isinstance(boot, int) and isinstance(mono, (int, float)) and math.isfinite(mono)
    return Record(wall, _text(child, "child"), attempt, boot if stamped else None,
                  float(mono) if stamped else None)


class History:
    """Every attempt in the journal database; names compare without regard to case."""

    def __init__(self, journal: "Journal") -> None:
        self.journal = journal
        try:
            with transaction(journal.db):
                journal.db.execute(DDL)
                add_columns(journal.db, "learning", {"boot": "INTEGER", "mono": "REAL"})
                journal.db.execute("CREATE INDEX IF NOT EXISTS learning_child ON learning "
                                   "(child COLLATE NOCASE, id)")
        except Exception as exc:  # a read-only or damaged file: the history is just empty
            log.error("learning history unavailable: %s", exc)

    def add(self, child: str, attempt: Attempt) -> Record:
        """Keep ``attempt`` under ``child``; JournalError when it cannot be saved."""
        at = self.journal.stamp()
        with self.journal.write():
            self.journal.db.execute(
                "INSERT INTO learning (at, child, quiz, level, truth_g, guess, error, correct, "
                "retry, boot, mono) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (at.wall, child, attempt.quiz, attempt.level, attempt.truth_g, attempt.guess,
                 attempt.error, int(attempt.correct), int(attempt.retry), at.boot, at.mono))
        return Record(self.journal.times.wall_time(at.boot, at.mono, at.wall), child, attempt,
                      at.boot, at.mono)

    def records(self, child: str | None = None) -> list[Record]:
        """Attempts oldest first (one child's, or everyone's); damaged rows are left out."""
        return list(self._read(child))

    def _read(self, child: str | None) -> Iterator[Record]:
        sql = ("SELECT id, at, child, quiz, level, truth_g, guess, error, correct, retry, boot, "
               "mono FROM learning")
        args: tuple[Any, ...] = ()
        wanted = None if child is None else identity(child)
        try:
            rows = self.journal.db.execute(sql + " ORDER BY id", args).fetchall()
        except Exception as exc:
            log.error("learning history unreadable: %s", exc)
            return
        when = self.journal.times.wall_time
        for row in rows:
            if wanted is not None and (not isinstance(row[2], str) or identity(row[2]) != wanted):
                continue
            try:
                yield parse(row, when)
            except (ValueError, TypeError) as exc:
                log.warning("learning row %s left out: %s", row[0], exc)

    def children(self) -> list[str]:
        """The names with attempts, in the order they first played."""
        seen: dict[str, str] = {}
        for record in self._read(None):
            seen.setdefault(identity(record.child), record.child)
        return list(seen.values())

    def levels(self, child: str) -> dict[str, int]:
        """The child's level in each quiz (1 for a quiz never tried)."""
        return learning.levels(r.attempt for r in self._read(child))

    def summary(self, child: str, now: float | None = None) -> Summary:
        """Today, the trend, the best streak, the levels. Today's answers: those dated on the
        local calendar day of ``now``, and those of this boot's last ``SESSION_S`` (a box that
        never sees network time has no dates, but knows this sitting)."""
        records = self.records(child)
        times = self.journal.times
        if now is None:
            now = self.journal.clock() if times.clock_right() else None
        now = plausible(now)
        day = time.localtime(now)[:3] if now is not None else None
        sitting: list[Any] = []  # this boot and its seconds now, read only when needed

        def today(r: Record) -> bool:
            if r.at is not None and day is not None:
                return time.localtime(r.at)[:3] == day
            if r.boot is None or r.mono is None:
                return False
            if not sitting:
                sitting.extend((times.current_boot(), times.source.mono()))
            return r.boot == sitting[0] and 0 <= sitting[1] - r.mono <= SESSION_S

        todays = [r for r in records if today(r)]
        attempts = [r.attempt for r in records]
        return Summary(child, len(todays), sum(r.attempt.correct for r in todays),
                       learning.trend(attempts), learning.best_streak(attempts),
                       learning.levels(attempts), len(records))

    def clear(self, child: str) -> int:
        """Forget every attempt of ``child`` (Settings, a parent's or teacher's choice); returns
        how many rows went. JournalError when it cannot be saved (then nothing went)."""
        with self.journal.write():
            cursor = self.journal.db.execute("DELETE FROM learning WHERE child = ? COLLATE NOCASE",
                                             (child,))
        return cursor.rowcount


__all__ = ["COLUMNS", "History", "Record", "Summary", "parse"]
