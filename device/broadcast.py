"""Who follows the game from outside (the serial link): every event and each new public state.

A listener that fails is logged and skipped: nothing outside may break the referee.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Iterable

log = logging.getLogger(__name__)

Listener = Callable[[str, dict[str, Any]], None]


class Broadcast(list[Listener]):  # a list, so ``app.listeners.append(fn)`` adds one
    def notify(self, kind: str, payload: dict[str, Any]) -> None:
        for listener in list(self):
            try:
                listener(kind, payload)
            except Exception:  # a listener must never break the referee
                log.exception("listener failed")

    def changed(self, events: Iterable[Any], state: Callable[[], dict[str, Any] | None]) -> None:
        """Events (in order), then the state after them; nothing is built without listeners."""
        if not self:
            return
        for event in events:
            self.notify("event", {"event": event.to_json()})
        self.notify("state", {"state": state()})
