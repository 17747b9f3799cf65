"""Wake the uplink when the box writes its journal, instead of asking SQLite many times a second.

Linux's inotify on the journal's folder (through ctypes: standard library only) reports every
write to the journal's files (``journal.sqlite3``, its ``-wal``, ``-shm``, ``-journal``); a thread
blocked in ``select`` turns them into a flag and a call of ``wake``. So a commit is seen at once,
and an idle uplink turns a few times a second for its timers rather than twenty. Where inotify
cannot be had (another system, no folder yet, the kernel's watch limit reached) ``start`` says so
and the uplink polls ``data_version`` as before.
"""

from __future__ import annotations

import ctypes
import functools
import logging
import os
import select
import struct
import threading
from pathlib import Path
from typing import Callable

log = logging.getLogger(__name__)

IN_MODIFY, IN_CLOSE_WRITE, IN_MOVED_FROM, IN_MOVED_TO = 0x2, 0x8, 0x40, 0x80
IN_CREATE, IN_DELETE, IN_Q_OVERFLOW = 0x100, 0x200, 0x4000
IN_NONBLOCK, IN_CLOEXEC = os.O_NONBLOCK, 0o2000000
MASK = IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
EVENT = struct.Struct("iIII")  # wd, mask, cookie, len; then len bytes of name


@functools.cache
def _libc() -> ctypes.CDLL | None:
    """The C library's inotify calls, looked up once (the process's own symbols: no search)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None
    return libc if hasattr(libc, "inotify_init1") and hasattr(libc, "inotify_add_watch") else None


class JournalWatch:
    """Calls ``wake`` (from its own thread) whenever a file of the journal at ``path`` is written,
    created, moved or deleted; ``touched`` says whether that happened since it was last asked."""

    def __init__(self, path: Path | str, wake: Callable[[], None]) -> None:
        self.path = Path(path)
        self._wake = wake
        self._touched = threading.Event()
        self._fd: int | None = None
        self._stop_r, self._stop_w = -1, -1
        self._thread: threading.Thread | None = None

    @property
    def watching(self) -> bool:
        return self._thread is not None

    def start(self) -> bool:
        """Begin watching; False (and nothing running) when inotify cannot watch the folder."""
        libc = _libc()
        if libc is None:
            return False
        fd = libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        if fd < 0:
            log.info("no inotify (%s): polling the journal", os.strerror(ctypes.get_errno()))
            return False
        folder = str(self.path.parent).encode()
        if libc.inotify_add_watch(fd, folder, MASK) < 0:
            log.info("cannot watch %s (%s): polling the journal", self.path.parent,
                     os.strerror(ctypes.get_errno()))
            os.close(fd)
            return False
        self._fd = fd
        self._stop_r, self._stop_w = os.pipe()
        self._thread = threading.Thread(target=self._run, name=f"watch {self.path.name}",
                                        daemon=True)
        self._thread.start()
        return True

    def touched(self) -> bool:
        """Whether the journal's files changed since the last call (cleared by asking)."""
        if self._touched.is_set():
            self._touched.clear()
            return True
        return False

    def _run(self) -> None:
        fd, name = self._fd, self.path.name.encode()
        assert fd is not None
        while True:
            ready, _, _ = select.select([fd, self._stop_r], [], [])
            if self._stop_r in ready:
                return
            try:
                data = os.read(fd, 64 * 1024)
            except BlockingIOError:
                continue
            if self._ours(data, name):
                self._touched.set()
                self._wake()

    @staticmethod
    def _ours(data: bytes, name: bytes) -> bool:
        """Whether any event in ``data`` is about one of the journal's files (or lost count)."""
        at = 0
        while at + EVENT.size <= len(data):
            _wd, mask, _cookie, size = EVENT.unpack_from(data, at)
            at += EVENT.size
            event_name = data[at:at + size].rstrip(b"\0")
            at += size
            if mask & IN_Q_OVERFLOW or event_name.startswith(name):
                return True
        return False

    def stop(self) -> None:
        thread, self._thread = self._thread, None
        if thread is not None:
            os.write(self._stop_w, b"x")
            thread.join()
            for fd in (self._fd, self._stop_r, self._stop_w):
                if fd is not None:
                    os.close(fd)
            self._fd = None


__all__ = ["JournalWatch"]
