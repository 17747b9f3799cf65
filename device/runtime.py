"""The one event loop: inputs only enqueue; the loop decides, commits, then redraws.

Button callback threads, the link reader, load-cell readers and signal handlers call ``post``.
The loop takes one event at a time and hands it to the handler ``route``d for its type (a posted
callable is simply called), fires due timers, and when the queue is empty asks the ``Redrawn``
(the ``App``) to redraw. Timers are a heap of deadlines, so an idle loop blocks in ``Queue.get``
with no polling. ``pump`` runs the same steps without blocking, for tests and demos driving a
``ManualClock``.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

log = logging.getLogger(__name__)


@dataclass
class ManualClock:
    """A clock that moves only when told: tests and demos run timers instantly and exactly."""

    t: float = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@dataclass(frozen=True)
class Stop:
    """Ask the loop to finish (SIGTERM, end of a demo)."""

    reason: str = ""


@dataclass(order=True)
class _Timer:
    deadline: float
    seq: int
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)


class Redrawn(Protocol):
    """What the loop redraws once the queue is empty and something may have changed."""

    def redraw(self) -> None: ...


Route = Callable[[Any], "bool | None"]  # a handler returns False when nothing visible changed


class Runtime:
    """Queue, timers and the loop around one ``Handler``."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.queue: queue.Queue[Any] = queue.Queue()
        self.screen: Redrawn | None = None
        self.routes: dict[type, Route] = {}
        self._timers: list[_Timer] = []
        self._seq = itertools.count()
        self._stopped = threading.Event()
        self.posted = threading.Event()  # set by post(): lets a pumping driver wait for input
        self._dirty = True  # something may have changed what the screen shows

    # -- used by inputs (any thread) -------------------------------------------------------------
    def post(self, event: Any) -> None:
        self.queue.put(event)
        self.posted.set()

    def route(self, kind: type, handler: Route) -> None:
        """Hand every event of type ``kind`` to ``handler`` on the loop thread."""
        self.routes[kind] = handler

    # -- used by the handlers (loop thread) ------------------------------------------------------
    def call_at(self, deadline: float, callback: Callable[[], None]) -> _Timer:
        timer = _Timer(deadline, next(self._seq), callback)
        heapq.heappush(self._timers, timer)
        return timer

    def call_later(self, delay: float, callback: Callable[[], None]) -> _Timer:
        return self.call_at(self.clock() + delay, callback)

    @staticmethod
    def cancel(timer: _Timer | None) -> None:
        if timer is not None:
            timer.cancelled = True

    def next_deadline(self) -> float | None:
        while self._timers and self._timers[0].cancelled:
            heapq.heappop(self._timers)
        return self._timers[0].deadline if self._timers else None

    # -- the loop --------------------------------------------------------------------------------
    def _fire_due(self) -> None:
        now = self.clock()
        while True:
            deadline = self.next_deadline()
            if deadline is None or deadline > now:
                return
            timer = heapq.heappop(self._timers)
            self._dirty = True
            self._guard(timer.callback)

    def _guard(self, fn: Callable[..., None], *args: Any) -> None:
        try:
            fn(*args)
        except Exception:  # one bad event must not kill the referee
            log.exception("error while handling %r", args[0] if args else fn)

    def _dispatch(self, event: Any) -> bool:
        if isinstance(event, Stop):
            self._stopped.set()
            return False
        handler = self.routes.get(type(event))
        try:
            if handler is not None:
                if handler(event) is not False:  # False: nothing visible changed
                    self._dirty = True
            elif callable(event):
                event()
                self._dirty = True
            else:
                log.warning("no handler for %r", event)
        except Exception:  # one bad event must not kill the referee
            log.exception("error while handling %r", event)
            self._dirty = True
        return True

    def pump(self) -> None:
        """Handle everything queued and every timer due now, then redraw once."""
        while not self._stopped.is_set():
            self._fire_due()
            try:
                event = self.queue.get_nowait()
            except queue.Empty:
                break
            self._dispatch(event)
        self._fire_due()
        self._redraw()

    def run_until(self, deadline: float) -> None:
        """ManualClock helper: fire every timer up to ``deadline`` in order, then stand there."""
        assert isinstance(self.clock, ManualClock), "run_until needs a ManualClock"
        while True:
            self.pump()
            nxt = self.next_deadline()
            if nxt is None or nxt > deadline:
                break
            self.clock.t = max(self.clock.t, nxt)
        self.clock.t = max(self.clock.t, deadline)
        self.pump()

    def run_forever(self) -> None:
        """Block on the queue until the next timer; exit on ``Stop``."""
        self._redraw()
        while not self._stopped.is_set():
            deadline = self.next_deadline()
            timeout = None if deadline is None else max(0.0, deadline - self.clock())
            try:
                event = self.queue.get(timeout=timeout)
            except queue.Empty:
                event = None
            if event is not None and not self._dispatch(event):
                break
            self._fire_due()
            if self.queue.empty():
                self._redraw()

    def _redraw(self) -> None:
        if self.screen is not None and self._dirty:
            self._dirty = False
            self._guard(self.screen.redraw)

    def stop(self, reason: str = "") -> None:
        self.post(Stop(reason))
