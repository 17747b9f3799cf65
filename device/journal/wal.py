"""Reading SQLite's write-ahead log and its index without SQLite, to see what SQLite would drop.

SQLite reads the ``-wal`` file up to the first frame whose checksum fails and silently ignores
everything after it: one damaged frame loses every action committed after it, without a word.
Between checkpoints most of a family's recent play lives only there. So at start the journal
reads the log itself (the format: sqlite.org/fileformat2.html, "The Write-Ahead Log"): a frame
that fails the running checksum but checks against the stored checksum of the frame before it
was written whole, so a commit there is a commit SQLite will not read (``WalScan.lost_commits``;
a torn last frame of an unfinished transaction is not counted). The ``-shm`` index, which
survives a power cut, says how many frames were committed: a log that is gone while the index
still counts frames not yet copied into the main file is a loss too (``ShmHeader``).
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from pathlib import Path

MAGIC = (0x377F0682, 0x377F0683)  # checksums in little / big-endian words
WAL_VERSION = 3007000
HEADER = 32
FRAME_HEADER = 24
_MASK = 0xFFFFFFFF


def checksum(data: bytes | memoryview, big: bool, s1: int = 0, s2: int = 0) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes), continuing from (s1, s2)."""
    words = struct.unpack(f"{'>' if big else '<'}{len(data) // 4}I", data)
    it = iter(words)
    for a, b in zip(it, it):
        s1 = (s1 + a + s2) & _MASK
        s2 = (s2 + b + s1) & _MASK
    return s1, s2


@dataclass(frozen=True)
class WalScan:
    """What a ``-wal`` file holds: ``frames`` SQLite will use (up to its last good commit,
    ``commits`` of them), and ``lost_commits`` written after those that it will not read."""

    page_size: int
    salts: bytes
    frames: int
    commits: int
    lost_commits: int
    lost_frames: int
    pages: dict[int, int]  # page number -> file offset of its newest usable frame

    @property
    def damaged(self) -> bool:
        return self.lost_commits > 0


def scan_wal(path: Path) -> WalScan | None:
    """Scan a ``-wal`` file; None when it is absent, empty or has no valid header (then SQLite
    reads none of it either)."""
    try:
        data = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
    if len(data) < HEADER:
        return None
    magic, version, page_size, _seq = struct.unpack_from(">4I", data, 0)
    if magic not in MAGIC or version != WAL_VERSION or page_size < 512 or \
            page_size > 65536 or page_size & (page_size - 1):
        return None
    big = magic & 1 == 1
    if checksum(data[:24], big) != struct.unpack_from(">2I", data, 24):
        return None
    salts = data[16:24]
    size = FRAME_HEADER + page_size
    running = struct.unpack_from(">2I", data, 24)
    frames = commits = 0
    pages: dict[int, int] = {}
    pending: dict[int, int] = {}
    offset, index = HEADER, 0
    broken = False
    tail: list[tuple[bool, bool]] = []  # after the break: (a commit frame, written whole)
    previous = running
    while offset + size <= len(data):
        pgno, commit = struct.unpack_from(">2I", data, offset)
        stored = struct.unpack_from(">2I", data, offset + 16)
        if data[offset + 8:offset + 16] != salts or pgno == 0:
            break  # a frame of an earlier log generation: the end of this one
        body = memoryview(data)[offset + FRAME_HEADER:offset + size]
        head = data[offset:offset + 8]
        if not broken:
            running = checksum(body, big, *checksum(head, big, *running))
            if running == stored:
                pending[pgno] = offset
                if commit:
                    frames, commits = index + 1, commits + 1
                    pages.update(pending)
                    pending.clear()
            else:
                broken = True
        if broken:
            whole = checksum(body, big, *checksum(head, big, *previous)) == stored
            tail.append((bool(commit), whole))
        previous = stored
        offset += size
        index += 1
    # A commit after the break was acknowledged if it was written whole, or if more frames
    # followed it (only the very last frame can be torn by a power cut mid-write).
    lost_commits = sum(1 for i, (commit, whole) in enumerate(tail)
                       if commit and (whole or i < len(tail) - 1))
    lost_frames = len(tail) if lost_commits else 0
    return WalScan(page_size, salts, frames, commits, lost_commits, lost_frames, pages)


@dataclass(frozen=True)
class ShmHeader:
    """The part of the ``-shm`` index that counts frames: ``frames`` committed to the log,
    ``backfilled`` of them copied into the main file, and the log's salts."""

    frames: int
    backfilled: int
    salts: bytes

    @property
    def unsaved(self) -> int:
        """Frames whose changes exist only in the log."""
        return max(0, self.frames - self.backfilled)


def read_shm(path: Path) -> ShmHeader | None:
    """The index's header, or None when there is none or its two copies disagree (SQLite
    rebuilds such an index from the log)."""
    try:
        if not path.is_file():
            return None
        with open(path, "rb") as fh:
            data = fh.read(136)
    except OSError:
        return None
    if len(data) < 136 or data[0:48] != data[48:96]:
        return None
    version, = struct.unpack_from("=I", data, 0)
    if version != WAL_VERSION or data[12] != 1:
        return None
    frames, = struct.unpack_from("=I", data, 16)
    backfilled, = struct.unpack_from("=I", data, 96)
    return ShmHeader(frames, backfilled, bytes(data[32:40]))


def rebuild(scan: WalScan, wal: Path, out: Path) -> bool:
    """Write the pages the log holds into a new database file at ``out`` (for a main file that
    is gone); True when the log held page 1, without which SQLite cannot read it at all."""
    if 1 not in scan.pages:
        return False
    data = wal.read_bytes()
    with open(out, "wb") as fh:
        for pgno, offset in sorted(scan.pages.items()):
            fh.seek((pgno - 1) * scan.page_size)
            fh.write(data[offset + FRAME_HEADER:offset + FRAME_HEADER + scan.page_size])
        fh.flush()
        os.fsync(fh.fileno())
    return True
