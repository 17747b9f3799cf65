"""The box's journal, read beside the running box and never written.

The box keeps its journal in WAL mode, which lets a reader look while the box writes. Under its
unit the uplink sees ``/var/lib/spielleiter`` read-only (``ProtectSystem=strict``), so it can
neither create nor write the ``-wal`` and ``-shm`` files: SQLite then opens the ``-shm`` read-only
and keeps the WAL index in the uplink's own memory. That works while the box runs (its
connection keeps both files); with the box stopped and its last connection closed, the files are
gone and the journal cannot be opened until the box starts again (``open`` says so and is tried
again later). ``readonly_shm=1`` asks SQLite for the same read-only ``-shm`` everywhere, so a
developer's machine and the tests read exactly as the box does.

Each look is one read transaction (``snapshot``): a consistent view of every table, held only for
the moment it takes, so the box's checkpoints are never held up.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..journal.file import APP, decode
from ..journal.timebase import GameTime, TimeBase, TimeSource
from ..exc import DeviceError

log = logging.getLogger(__name__)


class JournalUnavailable(DeviceError, OSError):
    """The journal cannot be read now (absent, the box stopped, not our journal)."""


@dataclass(frozen=True)
class GameRow:
    id: int
    game: Any
    header: Any      # the header's JSON text as stored (checked by the follower)
    status: str
    started: float | None
    ended: float | None


@dataclass(frozen=True)
class ActionRow:
    seq: int
    text: Any
    at: float | None

    @property
    def digest(self) -> str:
        return digest(self.text, self.at)


def digest(*parts: Any) -> str:
    """A short fingerprint of a row: what was published is recognised without keeping it."""
    return hashlib.blake2b(repr(parts).encode("utf-8", "surrogateescape"),
                           digest_size=8).hexdigest()


class JournalReader:
    """A read-only connection to the journal at ``path``; reopened when the file is replaced."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._db: sqlite3.Connection | None = None
        self._identity: tuple[int, int] | None = None
        self._version: int | None = None

    # -- the file --------------------------------------------------------------------------------
    def file_identity(self) -> tuple[int, int] | None:
        """(device, inode) of the file at the path now: a journal moved aside and started anew
        is another file (None when there is none)."""
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_dev, st.st_ino

    @property
    def is_open(self) -> bool:
        return self._db is not None

    @property
    def identity(self) -> tuple[int, int] | None:
        """The identity of the file the open connection reads."""
        return self._identity

    def open(self) -> None:
        """Connect (again, if the file at the path was replaced); JournalUnavailable if not now."""
        now = self.file_identity()
        if self._db is not None and now == self._identity:
            return
        self.close()
        if now is None:
            raise JournalUnavailable(f"no journal at {self.path} yet")
        uri = f"{self.path.resolve().as_uri()}?mode=ro&readonly_shm=1"
        try:
            db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise JournalUnavailable(f"cannot open {self.path}: {exc}") from None
        db.text_factory = decode
        try:
            meta = dict(db.execute("SELECT key, value FROM meta"))
        except sqlite3.Error as exc:
            db.close()
            raise JournalUnavailable(f"cannot read {self.path} ({exc}); is the box running?"
                                     ) from None
        if meta.get("app") != APP:
            db.close()
            raise JournalUnavailable(f"{self.path} is not a Spielleiter journal")
        self._db, self._identity, self._version = db, now, None

    def changed(self) -> bool:
        """Whether the box committed anything since the last call (cheap: one pragma)."""
        db = self._need()
        try:
            version = db.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error as exc:
            self.close()
            raise JournalUnavailable(f"journal: {exc}") from None
        changed, self._version = version != self._version, version
        return changed

    def snapshot(self) -> "_Snapshot":
        """``with reader.snapshot():`` every query inside sees the same moment of the journal."""
        return _Snapshot(self)

    def _need(self) -> sqlite3.Connection:
        if self._db is None:
            raise JournalUnavailable("the journal is not open")
        return self._db

    def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._need().execute(sql, args).fetchall()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):  # the box has not used that store yet
                return []
            raise JournalUnavailable(f"journal: {exc}") from None
        except sqlite3.Error as exc:
            raise JournalUnavailable(f"journal: {exc}") from None

    # -- games -----------------------------------------------------------------------------------
    def games_since(self, low: int) -> list[GameRow]:
        """Every game with id ``low`` or above, and any older one running, oldest first."""
        return [GameRow(*row) for row in self._rows(
            "SELECT id, game, header, status, started, ended FROM games "
            "WHERE id >= ? OR status = 'running' ORDER BY id", (low,))]

    def game_time(self, game_id: int) -> GameTime | None:
        """The game's dates through the journal's time base (``timebase``: a boot's rows have
        dates only once its clock was seen synchronised); None when the journal keeps no time
        base. A fresh ``TimeBase`` each time: a boot may be anchored between two looks."""
        try:
            row = self._need().execute(
                "SELECT started, boot, mono, synced, ended, ended_boot, ended_mono FROM games "
                "WHERE id=?", (game_id,)).fetchone()
        except sqlite3.Error:
            return None
        if row is None:
            return None
        db = self._need()
        times = TimeBase(lambda: db, _no_write, TimeSource(boot_id=lambda: ""))
        return times.game_time(*row)

    def corrections_after(self, top: int) -> list[tuple[int, int]]:
        """(id, game id) of every correction after row ``top`` (none before the first)."""
        return [(row[0], row[1]) for row in self._rows(
            "SELECT id, game_id FROM corrections WHERE id > ? ORDER BY id", (top,))]

    def corrected(self, game_id: int) -> bool:
        """Whether the game has a correction after the game."""
        return bool(self._rows("SELECT 1 FROM corrections WHERE game_id = ? LIMIT 1",
                               (game_id,)))

    @property
    def db(self) -> sqlite3.Connection:
        """The open read-only connection (JournalUnavailable when there is none)."""
        return self._need()

    def actions(self, game_id: int, from_seq: int = 0) -> list[ActionRow]:
        """The game's actions from ``from_seq`` on, in order."""
        return [ActionRow(*row) for row in self._rows(
            "SELECT seq, action, at FROM actions WHERE game_id = ? AND seq >= ? ORDER BY seq",
            (game_id, from_seq))]

    # -- the learning station --------------------------------------------------------------------
    LEARNING = ("SELECT id, at, child, quiz, level, truth_g, guess, error, correct, retry "
                "FROM learning")

    def learning_after(self, top: int) -> list[tuple[Any, ...]]:
        """Answers with an id above ``top``, oldest first (the history's row layout)."""
        return self._rows(self.LEARNING + " WHERE id > ? ORDER BY id", (top,))

    def learning_upto(self, top: int) -> list[tuple[Any, ...]]:
        return self._rows(self.LEARNING + " WHERE id <= ? ORDER BY id", (top,))

    def learning_row(self, row_id: int) -> tuple[Any, ...] | None:
        rows = self._rows(self.LEARNING + " WHERE id = ?", (row_id,))
        return rows[0] if rows else None

    def learning_count_upto(self, top: int) -> int:
        rows = self._rows("SELECT COUNT(*) FROM learning WHERE id <= ?", (top,))
        return int(rows[0][0]) if rows else 0

    def close(self) -> None:
        db, self._db, self._identity = self._db, None, None
        if db is not None:
            db.close()


class _Snapshot:
    def __init__(self, reader: JournalReader) -> None:
        self.reader = reader

    def __enter__(self) -> JournalReader:
        try:
            self.reader._need().execute("BEGIN")
        except sqlite3.Error as exc:
            self.reader.close()
            raise JournalUnavailable(f"journal: {exc}") from None
        return self.reader

    def __exit__(self, *exc: object) -> None:
        db = self.reader._db
        if db is not None:
            try:
                db.execute("COMMIT")
            except sqlite3.Error:
                self.reader.close()


def _no_write() -> Any:
    raise JournalUnavailable("the uplink never writes the journal")


def learning_digest(row: tuple[Any, ...]) -> str:
    """The fingerprint of one learning row (its id and everything it says)."""
    return digest(*row)


__all__ = ["ActionRow", "GameRow", "JournalReader", "JournalUnavailable", "digest",
           "learning_digest"]
