"""Time without a real-time clock: what the journal records about *when*, and how a date is told.

A Raspberry Pi Zero 2 W, 3 or 4 has no battery clock. Until network time arrives the wall clock
shows the last shutdown (fake-hwclock) or 1970, and it can jump at any moment. So the journal
orders everything by its own sequence, never by wall time, and each row keeps a ``Stamp``: the
journal's boot (a row of ``boots``, one per kernel boot id) and the seconds since that boot, beside
the wall clock as read. The first time the clock is seen synchronised in a boot (systemd-timesyncd
creates ``/run/systemd/timesync/synchronized``), the boot gets an anchor: that wall time and the
seconds since the boot at the same moment. Every row of that boot, earlier or later, then has a
date (``anchor_wall + mono - anchor_mono``); a boot without an anchor has none: its dates are
unknown, never guessed. Timers never use any of this: they run on the monotonic clock.
"""

from __future__ import annotations

import logging
import sqlite3
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .sql import UNREADABLE

log = logging.getLogger(__name__)

SYNCED_FLAG = Path("/run/systemd/timesync/synchronized")
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
# A wall time read before this (2025-01-01) cannot be right on this box: a row from an earlier
# release, which kept no boot, has a date only from here to the year 9999.
EARLIEST = 1_735_689_600.0
LATEST = 253_402_300_799.0  # 9999-12-31T23:59:59Z: what datetime and localtime can show


def timesyncd_synced() -> bool:
    """systemd-timesyncd's word that the clock is right (the flag exists once it synchronised)."""
    try:
        return SYNCED_FLAG.exists()
    except OSError:
        return False


def always_synced() -> bool:
    """A clock that is always right: a laptop running the simulator, a test."""
    return True


_PROCESS_BOOT = f"process-{uuid.uuid4()}"


def kernel_boot_id() -> str:
    """The kernel's id of this boot; without one (not Linux) an id for this process, so the
    seconds since boot are never compared across what may be two boots."""
    try:
        text = BOOT_ID.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return _PROCESS_BOOT
    return text or _PROCESS_BOOT


def since_boot() -> float:
    """Seconds since the boot, counting a suspend (CLOCK_BOOTTIME where there is one)."""
    try:
        return time.clock_gettime(time.CLOCK_BOOTTIME)
    except (AttributeError, OSError):
        return time.monotonic()


@dataclass(frozen=True)
class TimeSource:
    """Where the journal's times come from; every part can be replaced in tests."""

    wall: Callable[[], float] = time.time
    mono: Callable[[], float] = since_boot
    synced: Callable[[], bool] = timesyncd_synced
    boot_id: Callable[[], str] = kernel_boot_id


@dataclass(frozen=True)
class Stamp:
    """When a row was written: the journal's boot (None when it could not be recorded), the
    seconds since that boot, and the wall clock as it read then (kept, never trusted)."""

    boot: int | None
    mono: float
    wall: float


@dataclass(frozen=True)
class GameTime:
    """When a game was played: its start and end as wall times, or None when unknown (the clock
    was not synchronised in that boot); ``duration_s`` from the monotonic clock when start and
    end fell in one boot (known even without a date); ``synced`` whether the clock was
    synchronised when it began (None for a game from before the boots were kept)."""

    started: float | None
    ended: float | None
    duration_s: float | None
    synced: bool | None


def plausible(wall: Any) -> float | None:
    """``wall`` as a date this box can have seen and every screen can show, or None."""
    if isinstance(wall, bool) or not isinstance(wall, (int, float)):
        return None
    if not EARLIEST <= wall <= LATEST:  # also refuses NaN (and a huge int before float())
        return None
    return float(wall)


class TimeBase:
    """The journal's ``boots`` table: stamps for new rows and the wall time of any row.

    ``db`` is a callable returning the journal's current connection (it is replaced when the
    file is written again); ``write`` opens a write transaction on it. Nothing is written until
    the first stamp: a tool that only reads the journal leaves it as it was.
    """

    def __init__(self, db: Callable[[], sqlite3.Connection], write: Callable[[], Any],
                 source: TimeSource) -> None:
        self._db, self._write, self.source = db, write, source
        self._boot: int | None = None
        self._anchored = False
        self._anchors: dict[int, tuple[float, float] | None] = {}

    # -- writing ---------------------------------------------------------------------------------
    def stamp(self) -> Stamp:
        """A stamp for a row written now. Records this boot (once) and its anchor (once the
        clock is synchronised); if that cannot be written the stamp has no boot."""
        mono, wall = self._read()
        try:
            if self._boot is None:
                self._register(mono, wall)
            if not self._anchored:
                self.check_sync((mono, wall))
        except Exception as exc:  # noqa: BLE001 - a row without its boot still orders by sequence
            log.warning("boot not recorded: %s", exc)
        return Stamp(self._boot, mono, wall)

    def _read(self) -> tuple[float, float]:
        """(seconds since boot, wall time) read together; one reading when a test's clock
        stands for both."""
        wall = self.source.wall()
        return (wall if self.source.mono is self.source.wall else self.source.mono()), wall

    def check_sync(self, reading: tuple[float, float] | None = None) -> bool:
        """Anchor this boot if the clock is synchronised now (``reading``: the clocks as just
        read); True once it is anchored."""
        if self._anchored or self._boot is None:
            return self._anchored
        if not self.source.synced():
            return False
        mono, wall = reading or self._read()
        with self._write():
            self._db().execute("UPDATE boots SET synced_wall=?, synced_mono=? WHERE id=? AND "
                               "synced_wall IS NULL", (wall, mono, self._boot))
        self._anchored = True
        self._anchors.pop(self._boot, None)
        log.info("clock synchronised: boot %d has dates", self._boot)
        return True

    def _register(self, mono: float, wall: float) -> None:
        boot_id = self.source.boot_id()
        with self._write():
            db = self._db()
            db.execute("INSERT OR IGNORE INTO boots (boot_id, wall, mono) VALUES (?, ?, ?)",
                       (boot_id, wall, mono))
            boot, synced = db.execute("SELECT id, synced_wall FROM boots WHERE boot_id=?",
                                      (boot_id,)).fetchone()
        self._boot, self._anchored = int(boot), synced is not None

    def forget(self) -> None:
        """The connection changed (the file was written again): read the boots afresh."""
        self._boot, self._anchored = None, False
        self._anchors.clear()

    def current_boot(self) -> int | None:
        """This boot's row in ``boots`` (None before anything was written in this boot); reads
        only."""
        if self._boot is not None:
            return self._boot
        try:
            row = self._db().execute("SELECT id FROM boots WHERE boot_id=?",
                                     (self.source.boot_id(),)).fetchone()
        except UNREADABLE:
            return None
        return None if row is None else int(row[0])

    def clock_right(self) -> bool:
        """The wall clock can be believed now (synchronised in this boot)."""
        try:
            return self._anchored or bool(self.source.synced())
        except Exception:  # noqa: BLE001 - a probe that fails says nothing
            return False

    @property
    def anchored(self) -> bool:
        """The clock has been seen synchronised in this boot (this boot's rows have dates)."""
        return self._anchored

    @property
    def boot(self) -> int | None:
        """This boot's row, once a stamp recorded it."""
        return self._boot

    # -- reading ---------------------------------------------------------------------------------
    def wall_time(self, boot: Any, mono: Any, recorded: Any) -> float | None:
        """The wall time of a row, or None when it is not known (its boot never saw a
        synchronised clock). A row from before the boots were kept (``boot`` None) has the time
        it recorded, if that is a date this box can have seen."""
        if boot is None:
            return plausible(recorded)
        anchor = self._anchor(boot)
        if anchor is None or isinstance(mono, bool) or not isinstance(mono, (int, float)):
            return None
        return plausible(anchor[0] + (mono - anchor[1]))

    def _anchor(self, boot: Any) -> tuple[float, float] | None:
        if not isinstance(boot, int):
            return None
        if boot in self._anchors:
            return self._anchors[boot]
        try:
            row = self._db().execute("SELECT synced_wall, synced_mono FROM boots WHERE id=?",
                                     (boot,)).fetchone()
        except UNREADABLE as exc:
            log.warning("boots unreadable: %s", exc)
            return None
        anchor = None
        if row is not None and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                   for v in row):
            anchor = (float(row[0]), float(row[1]))
        if anchor is not None or boot != self._boot:  # only this boot may still get one
            self._anchors[boot] = anchor
        return anchor

    def game_time(self, started: Any, boot: Any, mono: Any, synced: Any, ended: Any,
                  ended_boot: Any, ended_mono: Any) -> GameTime:
        """A ``games`` row's times (see ``GameTime``)."""
        duration = None
        if boot is not None and boot == ended_boot and _seconds(mono) and _seconds(ended_mono) \
                and ended_mono >= mono:
            duration = float(ended_mono - mono)
        elif boot is None and ended_boot is None:  # an earlier release's row: its wall times
            start, end = plausible(started), plausible(ended)
            if start is not None and end is not None and end >= start:
                duration = end - start
        return GameTime(self.wall_time(boot, mono, started),
                        self.wall_time(ended_boot, ended_mono, ended) if ended is not None
                        else None, duration, None if synced is None else bool(synced))


def _seconds(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
