"""Backups of the journal: a whole copy after each game that ended, rotated, and the way back.

``VACUUM INTO`` writes a consistent, compact copy into a file of its own (``backups/`` beside
the journal), so a damaged page or a lost log of the journal cannot take the copy with it. The
copy is fsynced and renamed into place (a power cut leaves the older copies, never half a
copy); the newest ``KEEP`` are kept. They are numbered, not dated: the box's clock may be wrong.
At start, a journal that had to be set aside (or whose main file is gone) is restored from the
newest copy that passes SQLite's ``quick_check``; what the damaged file still holds is then
salvaged over it (``journal_salvage``).
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from .sql import JournalError, UNREADABLE, why

log = logging.getLogger(__name__)

FOLDER = "backups"
KEEP = 3
_NAME = re.compile(r"journal-(\d{6,})\.sqlite3\Z")


def folder(journal: Path) -> Path:
    return journal.parent / FOLDER


def backups(journal: Path) -> list[Path]:
    """The backups of the journal at ``journal``, newest first."""
    try:
        found = [(int(m[1]), p) for p in folder(journal).iterdir()
                 if (m := _NAME.match(p.name)) and p.is_file()]
    except OSError:
        return []
    return [p for _, p in sorted(found, reverse=True)]


def fsync_path(path: Path, directory: bool = False) -> None:
    fd = os.open(path, os.O_RDONLY | (os.O_DIRECTORY if directory else 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def make(db: sqlite3.Connection, journal: Path) -> Path:
    """Write a backup of the open journal ``db`` (JournalError when it cannot be written, e.g.
    a full card; the older backups stay)."""
    target_dir = folder(journal)
    existing = backups(journal)
    number = int(_NAME.match(existing[0].name)[1]) + 1 if existing else 1  # type: ignore[index]
    target = target_dir / f"journal-{number:06d}.sqlite3"
    partial = target_dir / f".{target.name}.partial"
    try:
        target_dir.mkdir(exist_ok=True)
        partial.unlink(missing_ok=True)
        db.execute("VACUUM INTO ?", (str(partial),))
        fsync_path(partial)
        os.replace(partial, target)
        fsync_path(target_dir, directory=True)
    except (sqlite3.Error, OSError) as exc:
        try:
            partial.unlink(missing_ok=True)
        except OSError:
            pass
        reason = why(exc) if isinstance(exc, OSError) else str(exc)
        raise JournalError(f"backup not written: {reason}") from None
    for old in backups(journal)[KEEP:]:
        try:
            old.unlink()
        except OSError as exc:
            log.warning("old backup %s not removed: %s", old.name, why(exc))
    return target


def usable(path: Path) -> bool:
    """A backup SQLite can read whole (``quick_check``) that is one of our journals."""
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                return False
            app = db.execute("SELECT value FROM meta WHERE key='app'").fetchone()
            return app is not None and app[0] == "spielleiter-journal"
        finally:
            db.close()
    except (sqlite3.Error, UnicodeDecodeError, OSError):
        return False


def restore(journal: Path) -> Path | None:
    """Put the newest usable backup where the journal belongs (nothing may be there); returns
    the backup used, or None when there is none."""
    for backup in backups(journal):
        if not usable(backup):
            log.error("backup %s unusable, trying an older one", backup.name)
            continue
        partial = journal.with_name(f".{journal.name}.restoring")
        try:
            partial.write_bytes(backup.read_bytes())
            fsync_path(partial)
            os.replace(partial, journal)
            fsync_path(journal.parent, directory=True)
        except OSError as exc:
            raise JournalError(f"cannot restore {backup.name}: {why(exc)}") from None
        log.warning("journal restored from %s", backup.name)
        return backup
    return None


@dataclass(frozen=True)
class BackupAge:
    """The newest backup for the self-test: its name, its age by the file's time (None when the
    clock or the file's time cannot be trusted) and how many are kept."""

    name: str | None
    age_s: float | None
    kept: int
    games: int | None  # games in it, None when it cannot be read


def newest(journal: Path, now: float | None = None) -> BackupAge:
    found = backups(journal)
    if not found:
        return BackupAge(None, None, 0, None)
    path = found[0]
    now = time.time() if now is None else now
    try:
        age: float | None = now - path.stat().st_mtime
    except OSError:
        age = None
    if age is not None and age < 0:
        age = None  # written by a clock ahead of this one: unknown, not negative
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            games = int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        finally:
            db.close()
    except UNREADABLE:
        games = None
    return BackupAge(path.name, age, len(found), games)
