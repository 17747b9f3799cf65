"""The systemd watchdog, fed from the event loop: a hung loop stops the pings and gets restarted.

When systemd asks for a watchdog (``WatchdogSec=``, seen as ``Notifier.watchdog_s``), ``start``
pings once and arms a runtime timer for half the period; each ping re-arms it. The timer runs on
the loop thread, so a loop stuck in a handler fires no timers and the pings stop. Nothing polls:
the idle loop still blocks until the next deadline. Each ping carries ``STATUS=`` only when the
status line changed since it was last sent.
"""

from __future__ import annotations

from typing import Any, Callable

from ..runtime import Runtime
from .notify import Notifier


class Watchdog:
    """``WATCHDOG=1`` every half period from a runtime timer (no-op without ``WatchdogSec=``)."""

    def __init__(self, runtime: Runtime, notifier: Notifier,
                 status: Callable[[], str]) -> None:
        self.runtime = runtime
        self.notifier = notifier
        self.status = status
        self.last_status: str | None = None  # what STATUS= last said (the owner updates it too)
        self.pings = 0
        self._timer: Any = None

    @property
    def enabled(self) -> bool:
        return bool(self.notifier.watchdog_s)

    def start(self) -> None:
        """Ping now and arm the timer (call before the loop runs, or on the loop thread)."""
        if self.enabled:
            self.notifier.watchdog()
            self._arm()

    def _arm(self) -> None:
        assert self.notifier.watchdog_s
        self._timer = self.runtime.call_later(self.notifier.watchdog_s / 2, self._ping)

    def _ping(self) -> None:
        status = self.status()
        self.notifier.watchdog(status if status != self.last_status else None)
        self.last_status = status
        self.pings += 1
        self._arm()

    def stop(self) -> None:
        self.runtime.cancel(self._timer)
        self._timer = None
