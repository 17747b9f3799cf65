"""Keeping the journal's file safe while the box runs: that it is still there, checkpoints and
backups.

- The file: SQLite keeps writing into a file that was deleted (the state directory removed, a
  card remounted) and every commit still succeeds, so the box would go on acknowledging moves a
  restart cannot find. Before every write the path is checked against the file the connection
  holds (one ``stat``); when it is gone or another file, what the connection holds is written
  to the path again (SQLite's backup API) and the journal goes on there. When even that fails,
  writes are refused (``JournalError``: the move is not taken) and ``not-saving`` says so.
- Checkpoints: a box is switched off at the plug, so without them most of a family's history
  would sit in the ``-wal`` log (SQLite checkpoints only at about 4 MB). The log is copied into
  the main file and truncated after every game that ends and after ``IDLE_S`` without a write.
- Backups: after every game that ends (``journal_backup``), after the checkpoint.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from pathlib import Path
from typing import Any, Callable

from . import backup as journal_backup
from .file import Notice, connect
from .sql import JournalError, transaction, why

log = logging.getLogger(__name__)

IDLE_S = 120.0  # a checkpoint once the journal has not been written for this long


class FileCare:
    """What keeps the journal's file (see the module doc): the connection to it, at ``path``.

    ``report`` hears what went wrong with the file (the journal's notices); ``sync_clock`` notes
    the clock's synchronisation on an idle ``tick``; ``in_memory``: the journal lives in memory
    only, so there is no file to check, checkpoint or back up. The box sets ``idle_clock`` (its
    loop's monotonic clock) and ``after_write`` (which arms its idle ``tick``).
    """

    def __init__(self, path: Path, db: sqlite3.Connection, *, report: Callable[[Notice], None],
                 sync_clock: Callable[[], object], in_memory: bool = False) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = db
        self._report, self._sync_clock = report, sync_clock
        self.idle_clock: Callable[[], float] = time.monotonic
        self.after_write: Callable[[], None] | None = None
        self._identity = None if in_memory else self._stat()
        self._lost: str | None = None          # why the file cannot be written, if so
        self._dirty_since: float | None = None  # monotonic time of the first unsaved write
        self._last_write = 0.0
        self.last_maintenance: dict[str, float] = {}  # seconds the last checkpoint/backup took
        self.backup_error: str | None = None

    @property
    def db(self) -> sqlite3.Connection:
        """The open connection (another one after the file was written again)."""
        assert self._db is not None, "the journal is closed"
        return self._db

    def close(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            db.close()

    def _stat(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_dev, st.st_ino

    # -- every write ---------------------------------------------------------------------------
    def write(self) -> Any:
        """A write transaction on the journal, after making sure its file is still the one the
        connection writes (JournalError: nothing can be saved, nothing was written)."""
        self._ensure_file()
        assert self._db is not None, "the journal is closed"
        return _Write(self, transaction(self._db))

    def _written(self) -> None:
        self._last_write = self.idle_clock()
        if self._dirty_since is None:
            self._dirty_since = self._last_write
        if self.after_write is not None:
            self.after_write()

    def _ensure_file(self) -> None:
        if self._identity is None:  # in memory: nothing to check
            return
        if self._stat() == self._identity:
            self._lost = None
            return
        try:
            self._write_again()
        except JournalError as exc:
            if self._lost is None:
                text = f"The journal's file is gone and cannot be written again: {exc}"
                self._report(Notice("not-saving", text, str(exc)))
                log.error("%s", text)
            self._lost = str(exc)
            raise JournalError(f"not saved: {exc}") from None

    def _write_again(self) -> None:
        """Write what the connection holds where the journal belongs, and go on there."""
        assert self._db is not None
        path = self.path
        partial = path.with_name(f".{path.name}.rewriting")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if os.path.lexists(path):  # another file took its place: keep it, aside
                os.replace(path, path.with_name(f"{path.name}.replaced-{os.getpid()}-"
                                                f"{time.monotonic_ns()}"))
            for suffix in ("-wal", "-shm"):
                side = path.with_name(path.name + suffix)
                if os.path.lexists(side):
                    os.replace(side, path.with_name(f"{side.name}.stale-{time.monotonic_ns()}"))
            target = sqlite3.connect(partial)
            try:
                self._db.backup(target)
            finally:
                target.close()
            journal_backup.fsync_path(partial)
            os.replace(partial, path)
            journal_backup.fsync_path(path.parent, directory=True)
            db = connect(str(path), path.name)
        except (OSError, sqlite3.Error, JournalError) as exc:
            reason = why(exc) if isinstance(exc, OSError) else str(exc)
            raise JournalError(f"{path}: {reason}") from None
        old, self._db = self._db, db
        old.close()
        self._identity = self._stat()
        text = f"The journal's file was gone while the box ran; written again at {path}"
        self._report(Notice("rewritten", text))
        log.error("%s", text)

    # -- checkpoints and backups ---------------------------------------------------------------
    def checkpoint(self) -> tuple[int, int, int] | None:
        """Copy the log into the main file and truncate it: (busy, log frames, copied frames),
        or None in memory or when it failed (logged; the log keeps everything)."""
        if self._identity is None or self._db is None:
            return None
        started = time.perf_counter()
        try:
            row = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error as exc:
            log.warning("checkpoint failed: %s", exc)
            return None
        self.last_maintenance["checkpoint_s"] = time.perf_counter() - started
        self._dirty_since = None
        return int(row[0]), int(row[1]), int(row[2])

    def backup(self) -> Path | None:
        """A backup of the journal now (None in memory or when it could not be written: the
        reason is in ``backup_error``)."""
        if self._identity is None or self._db is None:
            return None
        started = time.perf_counter()
        try:
            made = journal_backup.make(self._db, self.path)
        except JournalError as exc:
            self.backup_error = str(exc)
            log.error("%s", exc)
            return None
        self.backup_error = None
        self.last_maintenance["backup_s"] = time.perf_counter() - started
        return made

    def game_ended(self) -> None:
        """A game ended (over or abandoned): checkpoint, then a backup."""
        self.checkpoint()
        self.backup()

    def tick(self) -> None:
        """Called by the box ``IDLE_S`` after the last write: the file still there (written
        again if not), the clock's synchronisation noted, and a checkpoint once the journal has
        been idle that long."""
        if self._identity is not None and self._stat() != self._identity:
            try:
                self._ensure_file()
            except JournalError:
                pass  # the notice says it; the next write tries again
        try:
            self._sync_clock()
        except JournalError as exc:
            log.warning("clock synchronisation not recorded: %s", exc)
        if self._dirty_since is not None and self.idle_clock() - self._last_write >= IDLE_S:
            self.checkpoint()


class _Write:
    """A write transaction that tells the journal when it committed."""

    def __init__(self, care: FileCare, inner: transaction) -> None:
        self.care, self.inner = care, inner

    def __enter__(self) -> None:
        self.inner.__enter__()

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.inner.__exit__(exc_type, exc, tb)  # raises JournalError when the commit failed
        if exc_type is None:
            self.care._written()
