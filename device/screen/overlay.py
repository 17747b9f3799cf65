"""What lies over the top screen for a moment: a flash (a message a key press or its time takes
away) and the "One moment ..." mark of a press the guard ignored (docs/architecture.md, the table's rules
for screens). Kept apart from the App so the screen stack does not carry their timers."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from ..i18n import _
from .render import View, misfits, wrap

FLASH_S = 1.8


def seen_view(view: View) -> View:
    """``view`` marked to show that a press was seen but ignored: the footer says to wait (or,
    where a footer would crowd the screen, the title)."""
    marked = replace(view, footer=_("One moment ..."))
    if view.footer or view.blank or not misfits(marked):
        return marked
    return replace(view, title=_("One moment ..."))


class Overlay:
    """The flash over the screen (``view``, None when there is none) and the seen-press mark,
    each ended by a runtime timer."""

    def __init__(self, call_later: Callable[[float, Callable[[], None]], Any],
                 cancel: Callable[[Any], None]) -> None:
        self._call_later = call_later
        self._cancel = cancel
        self.view: View | None = None
        self._timer: Any = None
        self._seen_timer: Any = None  # while set, the footer shows that a press was seen

    def flash(self, *lines: str, seconds: float = FLASH_S) -> None:
        """A short message of wrapped lines (four at most) under the box's name."""
        body: list[str] = []
        for line in lines:
            body += wrap(line)
        self.notice(View(title="Spielleiter", lines=tuple(body[:4])), seconds)

    def notice(self, view: View, seconds: float = FLASH_S) -> None:
        """``view`` over the screen until ``seconds`` pass or ``end`` (a key press)."""
        self.view = view
        self._cancel(self._timer)
        self._timer = self._call_later(seconds, self.end)

    def end(self) -> None:
        self._cancel(self._timer)
        self._timer = None
        self.view = None

    def seen(self, seconds: float) -> None:
        """A press the guard ignored: the screen says so for ``seconds`` (the guard's rest)."""
        self._cancel(self._seen_timer)
        self._seen_timer = self._call_later(seconds, self._unseen)

    def _unseen(self) -> None:
        self._seen_timer = None

    def mark(self, view: View) -> View:
        """``view`` as shown while a seen press is marked."""
        return seen_view(view) if self._seen_timer is not None else view
