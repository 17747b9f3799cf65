"""The uplink's loop: look at the journal when the box committed, drain the outbox, keep the
retained status and state, ping systemd's watchdog.

One thread does all of it; paho's network thread and the journal's watch (``watch``: inotify)
only wake it. A look happens when SQLite's ``data_version`` says another connection committed
(asked every ``poll_s`` for ``settle_s`` after the watch saw the journal's files written, or
always where there is no watch), and every ``rescan_s`` anyway. Woken by nothing, a watched
uplink turns every ``idle_s`` for its timers. Nothing here can stop the box: the uplink only
reads its journal, and when the journal or the broker cannot be reached it says so in the log
and tries again.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..service.notify import Notifier
from .discovery import discovery
from .follower import Identity, Follower
from .outbox import Outbox
from .publisher import Broker, Publisher
from .reader import JournalReader, JournalUnavailable
from .watch import JournalWatch

log = logging.getLogger(__name__)

TRIM_S = 1.0  # what the room keeps leaves the outbox at most this often (one write each)
STATE_S = 0.5  # the retained live state at most this often (the page looks every 2 s)


@dataclass(frozen=True)
class Timing:
    poll_s: float = 0.05      # unwatched: how often data_version is asked (a commit is seen
    #                           within this)
    idle_s: float = 0.25      # watched: a turn when nothing woke the loop (the live state,
    #                           trimming, sending again are due at most this late)
    settle_s: float = 1.0     # watched: data_version asked every poll_s this long after a
    #                           write (SQLite marks the commit in -shm through mmap, which
    #                           inotify does not report, just after the -wal write it does)
    rescan_s: float = 5.0     # a full look even when nothing seems to have changed
    retry_s: float = 5.0      # after the journal could not be read
    heartbeat_s: float = 60.0  # status "online" again, so the room can tell a quiet box
    resend_s: float = 10.0    # sent, not confirmed by the room and no word for this long: again
    resend_max_s: float = 600.0  # ... doubling up to this while no room answers
    resend_window: int = 200  # how many go again at a time
    trim_s: float = TRIM_S    # what the room keeps leaves the outbox at most this often


class Uplink:
    """The box's journal at ``journal``, its own state in ``state_dir``, one broker."""

    def __init__(self, journal: Path, state_dir: Path, box: Identity, broker: Broker, *,
                 timing: Timing = Timing(), notifier: Notifier | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.box = box
        self.timing = timing
        self.clock = clock
        self.notifier = notifier
        self.wake = threading.Event()
        self.stopping = threading.Event()
        self.reader = JournalReader(journal)
        self.watch = JournalWatch(journal, self.wake.set)
        self.outbox = Outbox(state_dir, box.id)
        self.follower = Follower(self.reader, self.outbox, box)
        self.publisher = Publisher(broker, box.id, wake=self.wake.set,
                                   discovery=discovery(box.id, box.name, box.homeassistant))
        self._journal_problem: str | None = None
        self._state_due = False
        self._state_at = -STATE_S
        self._next_scan = 0.0
        self._ask_until = 0.0  # data_version is asked until then (after the watch saw a write)
        self._next_beat = 0.0
        self._next_ping = 0.0
        self.room_have = 0          # the room keeps this stream up to here
        self._trimmed, self._trimmed_at = 0, 0.0  # ... and the outbox was emptied up to here
        self._resent_to: int | None = None  # the end of the window sent again, if catching up
        self._quiet_since = clock()
        self._resend_s = timing.resend_s
        self._doubted = 0  # the last ``have`` beyond what was sent (said once)
        self._sent_saved, self._sent_at = 0, -timing.trim_s  # the sent mark, as last saved

    def run(self) -> None:
        """Until ``stop``: the loop of the module doc."""
        self.publisher.start()
        if self.notifier is not None:
            self.notifier.ready(f"uplink for {self.box.id}")
        self.watch.start()
        try:
            while not self.stopping.is_set():
                self.step()
                self.wake.wait(self._wait_s())
                self.wake.clear()
        finally:
            self.watch.stop()
            self.close()

    def step(self) -> None:
        """One turn of the loop (tests call it directly)."""
        now = self.clock()
        self._look(now)
        self._deliver(now)
        if self.publisher.connected.is_set():
            if not self.publisher.announced:  # the live state is made only when it is sent
                self.publisher.announce(self._state())
            if self._state_due and now - self._state_at >= STATE_S:
                self.publisher.publish_state(self._state())
                self._state_due, self._state_at = False, now
            if now >= self._next_beat:
                self.publisher.heartbeat()
                self._next_beat = now + self.timing.heartbeat_s
        if self.notifier is not None and self.notifier.watchdog_s and now >= self._next_ping:
            self.notifier.watchdog()
            self._next_ping = now + self.notifier.watchdog_s / 2

    def _look(self, now: float) -> None:
        try:
            if not (self._due(now) or self._changed(now)):
                return
            scan = self.follower.scan()
        except JournalUnavailable as exc:
            if str(exc) != self._journal_problem:
                log.warning("%s (trying again every %g s)", exc, self.timing.retry_s)
                self._journal_problem = str(exc)
            self._next_scan = now + self.timing.retry_s
            return
        if self._journal_problem is not None:
            log.info("journal readable again")
            self._journal_problem = None
        self._next_scan = now + self.timing.rescan_s
        for note in scan.notes:
            log.warning("%s", note)
        if scan.state_changed:
            self._state_due = True  # sent by step, at most every STATE_S

    def _due(self, now: float) -> bool:
        return now >= self._next_scan

    def _changed(self, now: float) -> bool:
        if not self.reader.is_open:  # (re)opened, and the file's identity checked, on a look
            return False
        if self.watch.watching:
            if self.watch.touched():
                self._ask_until = now + self.timing.settle_s
            elif now >= self._ask_until:
                return False  # nothing written lately: no need to ask SQLite
        return self.reader.changed()

    def _wait_s(self) -> float:
        """How long the loop sleeps unless woken: ``poll_s`` while data_version is asked,
        otherwise ``idle_s``, but never past the moment a held-back trim of the outbox or
        live state falls due (so what the room confirmed leaves the outbox ``trim_s`` after the
        last trim, not up to ``idle_s`` later)."""
        now = self.clock()
        if not self.watch.watching or now < self._ask_until:
            wait = self.timing.poll_s
        else:
            wait = self.timing.idle_s
        due = []
        if self.room_have > self._trimmed:
            due.append(self._trimmed_at + self.timing.trim_s)
        if self._state_due and self.publisher.connected.is_set():
            due.append(self._state_at + STATE_S)
        if due:
            wait = min(wait, max(0.0, min(due) - now))
        return wait

    def _deliver(self, now: float) -> None:
        """Let go what the room keeps; hand paho what fits the window; send again what the room
        lacks (see ``_catch_up``)."""
        self.publisher.acknowledged()  # the broker has them: room in the window, nothing more
        moved = False
        for stream, n in self.publisher.room_marks():
            if stream != self.outbox.stream or n <= self.room_have:
                continue
            sent = max(self.outbox.sent_mark, self.publisher.sent_up_to)
            if n > sent:  # never sent that far: not the room, or not the truth
                if n != self._doubted:
                    log.warning("the broker says the room keeps %d messages of this stream, "
                                "but only %d were sent: ignored", n, sent)
                    self._doubted = n
                continue
            self.room_have, moved = n, True
            self._quiet_since, self._resend_s = now, self.timing.resend_s
        if self.room_have > self._trimmed and now - self._trimmed_at >= self.timing.trim_s:
            self.outbox.kept_upto(self.room_have)  # one transaction a second at most
            self._trimmed, self._trimmed_at = self.room_have, now
        self._catch_up(now, moved)
        publisher = self.publisher
        room = publisher.room()
        if room and self.outbox.last_n > publisher.sent_up_to:  # no query while all is sent
            pending = self.outbox.pending(publisher.sent_up_to, room)
            if pending and publisher.sent_up_to <= self.room_have:
                self._quiet_since = now  # a fresh start of sending: the silence counts from now
            publisher.drain(pending)
        if publisher.sent_up_to > self._sent_saved and now - self._sent_at >= self.timing.trim_s:
            self.outbox.save_sent(publisher.sent_up_to)  # at most once a trim_s
            self._sent_saved, self._sent_at = publisher.sent_up_to, now

    def _catch_up(self, now: float, moved: bool) -> None:
        """Send again, one window at a time, what was sent and the room does not confirm.

        After ``resend_s`` (doubling while nothing moves) of silence about sent messages, the
        window after the room's mark goes again. When the room then confirms exactly that window,
        it lacked the rest too (it listened late, or the broker lost them): the next window goes
        at once. When it confirms more, it only lacked a hole, and sending goes on as usual. So a
        room that is merely slow gets at most one window twice, never everything again."""
        publisher = self.publisher
        if self._resent_to is not None and moved:
            if self.room_have < self._resent_to:
                return  # the window is still arriving
            if self.room_have == self._resent_to and self.room_have < publisher.sent_up_to:
                self._resend(now)
            else:
                self._resent_to = None
            return
        if (publisher.connected.is_set() and publisher.in_flight == 0
                and publisher.sent_up_to > self.room_have
                and now - self._quiet_since >= self._resend_s):
            log.warning("the room has not confirmed %d..%d: sending again from %d",
                        self.room_have + 1, publisher.sent_up_to, self.room_have + 1)
            self._resend(now)
            self._resend_s = min(self._resend_s * 2, self.timing.resend_max_s)

    def _resend(self, now: float) -> None:
        again = self.outbox.pending(self.room_have, self.timing.resend_window)
        if again:
            self.publisher.drain(again)
            self._resent_to = again[-1].n
        self._quiet_since = now

    def _state(self) -> str:
        return json.dumps(self.follower.live(), ensure_ascii=False)

    def stop(self) -> None:
        self.stopping.set()
        self.wake.set()

    def close(self) -> None:
        try:
            with contextlib.suppress(sqlite3.Error):
                self.outbox.save_sent(self.publisher.sent_up_to)
            self.publisher.stop()
        finally:
            self.reader.close()
            self.outbox.close()


__all__ = ["Timing", "Uplink"]
