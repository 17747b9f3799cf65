"""A past game's rows as the journal holds them, read without writing: a read-only connection to
a journal file, a game's header, actions' texts (parsed on first use) and times (``GameRows``),
and one effective action of it (``Step``). ``past_games`` builds records from these.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass
from typing import Any, Callable

from .corrections import Correction
from ..journal.header import Header
from ..text import InputError, loads
from ..journal.timebase import GameTime

log = logging.getLogger(__name__)


def open_read_only(path: Any) -> sqlite3.Connection:
    """A read-only connection to a journal file (never writes it; the box may run beside it).
    InputError when it cannot be opened or is not a journal."""
    from pathlib import Path

    from ..journal.file import APP, decode

    uri = f"{Path(path).resolve().as_uri()}?mode=ro"
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None)
        db.text_factory = decode
        meta = dict(db.execute("SELECT key, value FROM meta"))
    except sqlite3.Error as exc:
        raise InputError(f"cannot read {path}: {exc}") from None
    if meta.get("app") != APP:
        db.close()
        raise InputError(f"{path} is not a Spielleiter journal")
    return db


@dataclass(frozen=True)
class Step:
    """One effective action: its sequence number in the journal, the action (as corrected), when
    it was played (None: unknown) and the correction that made it so (None: as played)."""

    seq: int
    action: dict[str, Any]
    at: float | None
    correction: Correction | None

    @property
    def corrected(self) -> bool:
        return self.correction is not None


@dataclass
class GameRows:
    """A game's rows as read: the header, the actions' texts (parsed on first use, up to the
    first unreadable one, read only when needed) and its times."""

    id: int
    header: Header
    header_text: Any
    status: str
    read_texts: Callable[[], tuple[list[tuple[Any, Any]], str | None]]
    when: GameTime
    started_at: float | None
    ended_at: float | None
    _parsed: tuple[list[dict[str, Any]], str | None] | None = None
    _texts: tuple[list[tuple[Any, Any]], str | None] | None = None

    @property
    def texts(self) -> list[tuple[Any, Any]]:
        """The actions' (seq, text), read on first use: a kept result needs none of them."""
        if self._texts is None:
            self._texts = self.read_texts()
        return self._texts[0]

    @property
    def read_error(self) -> str | None:
        self.texts
        assert self._texts is not None
        return self._texts[1]

    @property
    def originals(self) -> list[dict[str, Any]]:
        return self._parse()[0]

    @property
    def error(self) -> str | None:
        return self._parse()[1]

    def _parse(self) -> tuple[list[dict[str, Any]], str | None]:
        if self._parsed is None:
            originals: list[dict[str, Any]] = []
            error = self.read_error
            for index, (seq, text) in enumerate(self.texts):
                try:
                    if seq != index:
                        raise InputError("an action is missing")
                    action = loads(text, f"action {seq}") if isinstance(text, str) else None
                    if not isinstance(action, dict):
                        raise InputError(f"action {seq} is not a JSON object")
                except InputError as exc:
                    error = str(exc)
                    break
                originals.append(action)
            self._parsed = (originals, error)
        return self._parsed


LEARNING_COLUMNS = ("id", "at", "child", "quiz", "level", "truth_g", "guess", "error", "correct",
                    "retry", "boot", "mono")


def learning_rows(db: sqlite3.Connection, have: tuple[str, ...],
                  wall_time: Callable[..., float | None]) -> list[Any]:
    """The learning station's answers (``journal.learning.Record``), oldest first, from a
    table with the columns ``have`` (none: there is no table); unreadable rows left out."""
    from ..journal.learning import parse

    if not have:
        return []
    columns = ", ".join(c if c in have else "NULL" for c in LEARNING_COLUMNS)
    try:
        rows = db.execute(f"SELECT {columns} FROM learning ORDER BY id").fetchall()
    except sqlite3.Error as exc:
        log.error("learning history unreadable: %s", exc)
        return []
    found = []
    for row in rows:
        try:
            found.append(parse(row, wall_time))
        except (ValueError, TypeError) as exc:
            log.warning("learning row %s left out: %s", row[0], exc)
    return found


def no_write() -> Any:
    raise InputError("This journal is open for reading only.")


__all__ = ["LEARNING_COLUMNS", "GameRows", "Step", "learning_rows", "no_write",
           "open_read_only"]
