"""Opening the journal's file: checking it, moving a bad one aside (never overwriting it), the
way back from a backup, and the journal in memory when the file cannot be used at all.

``open_journal`` never raises unless told to: the box must start whatever lies at the path. In
order, it (1) moves aside whatever is not a file where SQLite keeps ``-wal`` and ``-shm``; (2)
reads the log itself (``journal_wal``) and notes what SQLite would drop, keeping a copy of a
damaged log; a log beside a main file that is gone is moved aside before SQLite could delete it;
(3) checks the main file (``quick_check``, that it is ours, its schema) and moves a bad one
aside; (4) restores the newest backup where the journal was moved aside or lost, and salvages
over it what the damaged file still holds; (5) connects and migrates. What it had to do is
returned as ``Notice``s (see ``journal.Journal.notices``).
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from . import backup as journal_backup, salvage as journal_salvage, wal as journal_wal
from .schema import APP, SCHEMA, create
from .sql import JournalError, UNREADABLE, decode, transaction, why

__all__ = ["APP", "SCHEMA", "JournalError", "Notice", "Opened", "connect", "decode",
           "open_journal", "transaction"]

log = logging.getLogger(__name__)

SQLITE_MAGIC = b"SQLite format 3\x00"
SIDECARS = ("-wal", "-shm")


@dataclass(frozen=True)
class Notice:
    """Something the table should be told: ``kind`` is ``moved-aside``, ``restored``, ``lost``,
    ``degraded``, ``not-saving``, ``tidied``, ``set-aside`` or ``calibration``; ``text`` is one
    English line for the log (screens word it from ``kind``, ``game_id``, ``pan``, ``count``
    and ``reason``)."""

    kind: str
    text: str
    reason: str = ""
    game_id: int | None = None
    pan: str | None = None
    count: int | None = None
    recovered: Any = None  # a restore: what came over from the damaged file (``Salvaged``)


@dataclass
class Opened:
    """The connection ``open_journal`` made and what it had to report on the way."""

    db: sqlite3.Connection
    notices: list[Notice] = field(default_factory=list)
    moved: str | None = None     # the move-aside line, if a bad file was moved aside
    degraded: str | None = None  # why the journal lives in memory, if it does


def open_journal(path: Path, clock: Callable[[], float], *, memory_fallback: bool = True
                 ) -> Opened:
    """Connect to the journal at ``path`` (see the module doc); a file that cannot be read,
    opened or moved gives a journal in memory (or JournalError without the fallback)."""
    notices: list[Notice] = []
    moved = None
    try:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"cannot use {path.parent}: {why(exc)}") from None
        notices += _clear_sidecars(path, clock)
        source, log_notices = _inspect_log(path, clock)
        notices += log_notices
        problem = check_existing(path)
        if problem:
            target = move_aside(path, problem, clock)
            moved = f"Journal {problem}: moved to {target.name}"
            log.error("%s", moved)
            source = target
            notices.append(Notice("moved-aside", moved, problem))
        if source is not None and not path.exists():
            notices += _restore(path, source)
        return Opened(connect(str(path), path.name), notices, moved)
    except JournalError as exc:
        if not memory_fallback:
            raise
        reason = str(exc)
        db = in_memory(path, copy=moved is None)
        text = f"Journal unusable ({reason}): playing from memory, nothing is saved"
        notices.append(Notice("degraded", text, reason))
        log.error("%s", text)
        return Opened(db, notices, moved, reason)


def _clear_sidecars(path: Path, clock: Callable[[], float]) -> list[Notice]:
    """A directory (or anything but a file) where SQLite keeps its log or index would make the
    journal unusable; it holds none of our data, so it is moved aside (kept)."""
    notices = []
    for suffix in SIDECARS:
        side = path.with_name(path.name + suffix)
        if side.is_symlink() or (os.path.lexists(side) and not side.is_file()):
            target = move_aside(side, "not a file", clock)
            text = f"{side.name} was not a file: moved to {target.name}"
            log.error("%s", text)
            notices.append(Notice("tidied", text, "not a file"))
    return notices


def _inspect_log(path: Path, clock: Callable[[], float]) -> tuple[Path | None, list[Notice]]:
    """What SQLite would drop from the log; returns a file to restore and salvage from when the
    main file is gone (the log, rebuilt into a database), and the notices."""
    wal = path.with_name(path.name + "-wal")
    shm_path = path.with_name(path.name + "-shm")
    shm = journal_wal.read_shm(shm_path)
    try:
        scan = journal_wal.scan_wal(wal)
    except OSError as exc:
        raise JournalError(f"cannot read {wal.name}: {why(exc)}") from None
    main_gone = not path.is_file() or path.stat().st_size == 0
    if main_gone and scan is not None and scan.frames:
        # SQLite would delete a log it finds beside an empty or missing main file
        base = _aside_name(path, clock)
        try:
            os.replace(wal, f"{base}-wal")
            if shm_path.is_file():
                os.replace(shm_path, f"{base}-shm")
        except OSError as exc:
            raise JournalError(f"the journal's main file is gone and its log cannot be moved "
                               f"aside: {why(exc)}") from None
        text = (f"The journal's main file is gone; its log ({scan.commits} changes) moved to "
                f"{base.name}-wal")
        log.error("%s", text)
        rebuilt = journal_wal.rebuild(scan, Path(f"{base}-wal"), base)
        return (base if rebuilt else None), [Notice("lost", text, "main file gone")]
    notices = []
    if scan is not None and scan.damaged:
        copy = _evidence(wal, clock)
        text = (f"The journal's log is damaged after change {scan.commits}: {scan.lost_commits} "
                f"later changes cannot be read (the log is kept as {copy.name})")
        notices.append(Notice("lost", text, "log damaged", count=scan.lost_commits))
    elif shm is not None and shm.unsaved and (
            (scan is None and not wal.exists())
            or (scan is not None and scan.salts == shm.salts and scan.frames < shm.frames)):
        text = (f"The journal's log is {'gone' if scan is None else 'cut short'}: "
                f"{shm.unsaved - (scan.frames if scan else 0)} pages of recent changes lost")
        notices.append(Notice("lost", text, "log gone"))
    for notice in notices:
        log.error("%s", notice.text)
    return None, notices


def _evidence(wal: Path, clock: Callable[[], float]) -> Path:
    """Copy a damaged log aside (SQLite will fold its good part into the file and reuse it)."""
    target = _aside_name(wal, clock)
    try:
        shutil.copyfile(wal, target)
    except OSError as exc:
        log.error("damaged log not copied aside: %s", why(exc))
    return target


def _restore(path: Path, source: Path) -> list[Notice]:
    """The newest backup where the journal was (if there is one), then what ``source`` (the
    file set aside, or the database rebuilt from a lost main file's log) still holds."""
    backup = journal_backup.restore(path)
    db = connect(str(path), path.name)
    try:
        salvaged = journal_salvage.salvage(db, source)
    finally:
        db.close()
    if backup is None and not salvaged.anything:
        return []
    parts = [f"from {backup.name}"] if backup is not None else []
    if salvaged.anything:
        parts.append(f"{salvaged.games} games, {salvaged.actions} actions and "
                     f"{salvaged.corrections} corrections from the damaged file")
    if salvaged.unreadable:
        parts.append("nothing newer could be read from the damaged file")
    elif salvaged.lost:
        parts.append(f"read only in part: {', '.join(salvaged.lost)}")
    text = "Journal restored " + ", then ".join(parts)
    log.warning("%s", text)
    return [Notice("restored", text, backup.name if backup else "salvage",
                   count=salvaged.actions, recovered=salvaged)]


def in_memory(path: Path, *, copy: bool) -> sqlite3.Connection:
    """Referee from memory: an in-memory journal, with the file's games when it can be read,
    and always with every table."""
    db = connect(":memory:", path.name)
    if not (copy and path.is_file()):
        return db
    # ``immutable`` reads a file whose index cannot be made (a full disk, a read-only card)
    for query in ("mode=ro", "mode=ro&immutable=1"):
        try:
            source = sqlite3.connect(f"{path.resolve().as_uri()}?{query}", uri=True)
            try:
                source.backup(db)
            finally:
                source.close()
            create(db)
            return db
        except (sqlite3.Error, UnicodeDecodeError, OSError, JournalError) as exc:
            log.warning("journal not copied into memory (%s): %s", query, exc)
    db.close()
    return connect(":memory:", path.name)


def check_existing(path: Path) -> str | None:
    """Why the file at ``path`` is not a usable journal, or None (absent or fine).
    JournalError when it cannot even be read (that is not fixed by moving it aside)."""
    try:
        if path.is_dir():
            return "a directory, not a file"
        if not path.exists() or path.stat().st_size == 0:
            return None
        with open(path, "rb") as fh:
            if fh.read(16) != SQLITE_MAGIC:
                return "not an SQLite database"
    except OSError as exc:
        raise JournalError(f"cannot read {path.name}: {why(exc)}") from None
    try:
        db = sqlite3.connect(path)
        db.text_factory = decode  # a meta value that is not UTF-8 is damage, not a crash
        try:
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                return f"damaged ({check})"
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
            if "meta" not in tables:
                return "another program's database" if tables else None
            meta = dict(db.execute("SELECT key, value FROM meta"))
            if meta.get("app") != APP:
                return "another program's database"
            if int(meta.get("schema", "0")) > SCHEMA:
                return f"a newer journal (schema {meta['schema']})"
        finally:
            db.close()
    except sqlite3.OperationalError as exc:  # locked, unreadable: moving it would not help
        raise JournalError(f"cannot read {path.name}: {exc}") from None
    except (sqlite3.DatabaseError, ValueError) as exc:
        return f"damaged ({exc})"
    return None


def _aside_name(path: Path, clock: Callable[[], float]) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(_plain_time(clock)))
    target = path.with_name(f"{path.name}.bad-{stamp}")
    n = 1
    while os.path.lexists(target) or os.path.lexists(f"{target}-wal"):
        n += 1
        target = path.with_name(f"{path.name}.bad-{stamp}-{n}")
    return target


def _plain_time(clock: Callable[[], float]) -> float:
    """The clock for a file name; any reading that cannot name a file gives 0 (the counter in
    the name keeps it unique)."""
    try:
        value = float(clock())
        time.localtime(value)
        return value
    except (OverflowError, OSError, ValueError, TypeError):
        return 0.0


def move_aside(path: Path, reason: str, clock: Callable[[], float]) -> Path:
    """Rename a bad journal (and its -wal/-shm) with a timestamp; returns where it went."""
    target = _aside_name(path, clock)
    try:
        os.replace(path, target)
        for suffix in SIDECARS:
            side = path.with_name(path.name + suffix)
            if side.is_file():
                os.replace(side, target.with_name(target.name + suffix))
    except OSError as exc:
        raise JournalError(f"journal {reason}, cannot move it aside: {why(exc)}") from None
    return target


# SQLite's page cache per connection, in KiB. Its default (2,000 KiB) fills slowly as a family's
# journal grows, so a box or simulator left running grows by it for days; the working set (the
# game being played, the newest rows) is far smaller, and the OS caches the file anyway.
CACHE_KIB = 256


def connect(where: str, name: str) -> sqlite3.Connection:
    """A connection in WAL mode with ``synchronous=FULL``, the tables made and migrated."""
    try:
        db = sqlite3.connect(where, isolation_level=None, check_same_thread=False)
    except UNREADABLE as exc:
        raise JournalError(f"cannot open {name}: {exc}") from None
    try:
        db.text_factory = decode  # a byte that is not UTF-8 must not fail the whole read
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        create(db)
    except (sqlite3.Error, JournalError) as exc:
        db.close()
        raise JournalError(f"cannot open {name}: {exc}") from None
    return db
