"""One box a state directory: a second ``spielleiter sim`` (or ``run``) on the same journal
would referee the same game twice, each from its own memory, so it is refused at start.

An ``flock`` on ``box.lock`` in the state directory: the kernel drops it with the process, so a
crash or a power cut never leaves a stale lock. The file is opened without following a link
(``O_NOFOLLOW``): a link there is never written through (the pid would overwrite its target)
and, like a directory or anything else that is not a plain file, it is moved aside
(``box.lock.bad-N``) and a plain file made in its place. Where no file can be made there, the
state directory itself is locked; where not even that works (a file system without locks), the
box starts without it rather than not at all (the box always starts).
"""

from __future__ import annotations

import fcntl
import logging
import os
import stat
from pathlib import Path

from ..exc import StateDirInUse

log = logging.getLogger(__name__)

LOCK_NAME = "box.lock"


class InstanceLock:
    """Held from ``acquire`` until ``close``; ``StateDirInUse`` names the other box's pid."""

    def __init__(self, state_dir: Path) -> None:
        self.path = Path(state_dir) / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> "InstanceLock":
        fd = self._open()
        if fd is None:
            return self
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            other = _read_pid(fd)
            os.close(fd)
            who = f" (pid {other})" if other else ""
            raise StateDirInUse(f"another Spielleiter{who} is running on {self.path.parent}: "
                                "quit it first, or give this one another --state-dir") from None
        except OSError as exc:  # a file system without locks: start all the same
            log.warning("cannot lock %s (%s): starting without it", self.path, exc)
            os.close(fd)
            return self
        if stat.S_ISREG(os.fstat(fd).st_mode):
            try:
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
            except OSError:
                pass  # the pid is only for the message; the lock holds without it
        self._fd = fd
        return self

    def _open(self) -> int | None:
        """A descriptor to lock: the plain file ``box.lock`` (whatever else was there moved
        aside first), else the state directory; None (logged) when neither can be opened."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            log.warning("no lock on %s (%s): starting without it", self.path.parent, exc)
            return None
        for attempt in range(2):
            fd = _plain(self.path)
            if fd is not None:
                return fd
            if attempt == 0 and not _move_aside(self.path):
                break
        log.warning("%s cannot be a lock file: locking the state directory itself",
                    self.path)
        try:
            return os.open(self.path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as exc:
            log.warning("no lock on %s (%s): starting without it", self.path.parent, exc)
            return None

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None


def _plain(path: Path) -> int | None:
    """``path`` opened as a plain file, never through a link and never blocking (a FIFO);
    None when what is there is not one (or cannot be opened)."""
    flags = os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    for mode in (os.O_RDWR, os.O_RDONLY):  # another user's file (a sudo run made it):
        try:                               # flock holds on a descriptor for reading too
            fd = os.open(path, mode | flags, 0o644)
        except PermissionError:
            continue
        except OSError:  # a link (ELOOP), a directory (EISDIR), ...
            return None
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return fd
        os.close(fd)
        return None
    return None


def _move_aside(path: Path) -> bool:
    """Rename whatever is at ``path`` (kept, never deleted) so a plain file can take its name."""
    for n in range(1, 100):
        target = path.with_name(f"{path.name}.bad-{n}")
        if os.path.lexists(target):
            continue
        try:
            os.rename(path, target)
        except FileNotFoundError:
            return True  # gone meanwhile (another box moved it): try again
        except OSError as exc:
            log.warning("%s not moved aside: %s", path, exc)
            return False
        log.warning("%s was not a plain file: moved to %s", path, target.name)
        return True
    return False


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        return int(text) if text.isdigit() else None
    except OSError:
        return None


__all__ = ["InstanceLock", "LOCK_NAME", "StateDirInUse"]
