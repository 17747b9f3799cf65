"""One box a state directory: a second ``spielleiter sim`` (or ``run``) on the same journal
would referee the same game twice, each from its own memory, so it is refused at start.

An ``flock`` on ``box.lock`` in the state directory: the kernel drops it with the process, so a
crash or a power cut never leaves a stale lock, and a box that cannot make the file at all (a
full or read-only disk) starts without it rather than not at all (the box always starts).
"""

from __future__ import annotations

import fcntl
import logging
import os
from pathlib import Path

from .. import DeviceError

log = logging.getLogger(__name__)

LOCK_NAME = "box.lock"


class StateDirInUse(DeviceError, RuntimeError):
    """Another box runs on this state directory."""


class InstanceLock:
    """Held from ``acquire`` until ``close``; ``StateDirInUse`` names the other box's pid."""

    def __init__(self, state_dir: Path) -> None:
        self.path = Path(state_dir) / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> "InstanceLock":
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except PermissionError:  # another user's lock file (a sudo run made it): flock
            try:                 # holds on a descriptor opened for reading too
                fd = os.open(self.path, os.O_RDONLY)
            except OSError as exc:
                log.warning("no lock on %s (%s): starting without it", self.path.parent, exc)
                return self
        except OSError as exc:
            log.warning("no lock on %s (%s): starting without it", self.path.parent, exc)
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
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        except OSError:
            pass  # the pid is only for the message; the lock holds without it
        self._fd = fd
        return self

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        return int(text) if text.isdigit() else None
    except OSError:
        return None


__all__ = ["InstanceLock", "LOCK_NAME", "StateDirInUse"]
