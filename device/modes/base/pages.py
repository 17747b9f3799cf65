"""Screens that follow an action, one after another (``Pages``), a sentence as a page, and the
standings every game's menu shows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ...i18n import _
from ...screen.render import CHARS, PAGE_LINES, View, wrap
from .table import Table


# -- pages ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Page:
    """A screen that follows an action; ``seconds`` is its length at the table's chosen pace;
    ``minor`` pages give way to the next move."""

    view: View
    seconds: float = 3.5
    minor: bool = False


class Pages:
    """Screens that follow an action (a reveal, a scoring), one after another.

    Each waits for OK (or NEXT) at the host panel; only when the table chose a pace in Settings
    does it also advance by itself. Undo stops them.
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self.queue: list[Page] = []
        self._timer: Any = None
        self._finale: str | None = None

    def __bool__(self) -> bool:
        return bool(self.queue)

    def show(self, pages: Sequence[Page], finale: str | None = None) -> None:
        """Show ``pages`` in turn; ``finale`` is the sound for the screen after the last (the
        win sound plays with the winner, not over the reveal before it)."""
        self.table.cancel(self._timer)
        self.queue = list(pages)
        self._timer = None
        self._finale = finale
        if self.queue:
            seconds = self.table.page_seconds(self.queue[0].seconds)
            if seconds is not None:
                self._timer = self.table.call_later(seconds, self.next)
        elif finale is not None:
            self._finale = None
            self.table.beep(finale)

    def next(self) -> None:
        self.show(self.queue[1:], self._finale)

    def stop(self) -> None:
        self._finale = None
        self.show([])

    def all_minor(self) -> bool:
        return all(page.minor for page in self.queue)

    def on_host(self, key: str) -> bool:
        """OK/NEXT turn the page; other keys (BACK) go to the App."""
        if key in ("ok", "next"):
            self.next()
            return True
        return False

    def view(self) -> View:
        page = self.queue[0].view
        return View(page.title, page.lines, page.big, footer=page.footer or _("OK: next"))


# -- text pages ----------------------------------------------------------------------------------
def text_page(title: str, text: str, big: str | None = None, footer: str = "") -> View:
    """A page that says one sentence, wrapped for the screen in whatever language it arrives in
    (translators write sentences, not screen lines)."""
    return View(title, tuple(wrap(text)), big=big, footer=footer)


# -- standings -----------------------------------------------------------------------------------
def score_shown(score: Any) -> str:
    """A standings score as the table reads it ("" when the game keeps none)."""
    return "" if score is None else f"{score:g}" if isinstance(score, float) else str(score)


def standings_view(rows: Sequence[tuple[int, str, Any]], at: int, footer_more: str,
                   footer: str, score: Callable[[str, Any], str] = lambda _p, s: score_shown(s),
                   ) -> View:
    """Every player's place and score, best first (the engine ranks: ties share a place), a name
    never cut for its score; more than three rows make a list that scrolls, ``at`` being the row
    at the cursor."""
    scroll = len(rows) > PAGE_LINES
    width = CHARS - 1 if scroll else CHARS  # room for the scroll mark
    lines = []
    for rank, name, value in rows:
        right = score(name, value)
        head = f"{rank}. {name}"[: width - len(right) - 1]
        lines.append(head.ljust(width - len(right)) + right)
    if scroll:
        return View(_("Standings"), tuple(lines), cursor=at % len(lines), footer=footer_more)
    return View(_("Standings"), tuple(lines), footer=footer)
