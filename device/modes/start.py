"""A game's own menu, before it is played: a new game, the same players again, the rules.

The home menu leads here; so does OK on a finished game's last screen, with the cursor on "Play
again" (the same players in the same seats with the same choices, one OK from the start). The
rules are a few pages the game's mode folder writes (``ModeInfo.rules``), read with OK and BACK.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import _
from ..screens import View
from .base import ModeInfo


@dataclass
class StartMenu:
    """``again``: the last players of this game may play again (offered second)."""

    mode: ModeInfo
    again: bool = False
    cursor: int = 0
    page: int | None = None  # the rules page being read

    def choices(self) -> list[str]:
        return ["new"] + (["again"] if self.again else []) + (["rules"] if self.mode.rules else [])

    def labels(self) -> list[str]:
        text = {"new": _("New game"), "again": _("Play again"), "rules": _("Rules")}
        return [text[choice] for choice in self.choices()]

    def point_at(self, choice: str) -> None:
        if choice in self.choices():
            self.cursor = self.choices().index(choice)

    def on_key(self, key: str) -> str | None:
        """"home", "new" or "again" for the App; None while moving or reading."""
        if self.page is not None:
            return self._read(key)
        choices = self.choices()
        if key == "back":
            return "home"
        if key == "next":
            self.cursor = (self.cursor + 1) % len(choices)
        elif key == "ok":
            choice = choices[self.cursor % len(choices)]
            if choice == "rules":
                self.page = 0
                return None
            return choice
        return None

    def _read(self, key: str) -> None:
        assert self.page is not None and self.mode.rules is not None
        count = len(self.mode.rules())
        if key in ("ok", "next"):
            self.page = self.page + 1 if self.page + 1 < count else None
        elif key == "back":
            self.page = self.page - 1 if self.page > 0 else None
        return None

    def view(self) -> View:
        if self.page is not None and self.mode.rules is not None:
            pages = self.mode.rules()
            page = pages[min(self.page, len(pages) - 1)]
            last = self.page + 1 >= len(pages)
            footer = _("OK done  BACK back") if last else _("OK next  BACK back")
            return View(page.title, page.lines, page.big, footer=footer)
        return View(_(self.mode.title), tuple(self.labels()), cursor=self.cursor,
                    footer=_("NEXT move  OK choose"))
