"""Names on the box itself: a new one typed on the letter wheel, and the roster kept in Settings.

``NewName`` is the one way every screen that offers "New player" adds a name (the set-up's
picker, Settings, the learning station); ``RosterScreen`` is Settings' "Players": the names,
"New player", and a name removed after a question (its games and history stay in the journal).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..i18n import _
from ..journal.store import JournalError
from ..journal.roster import Roster
from ..screen.render import View, wrap
from .wheel import Wheel

HOLDS = frozenset({"host.ok"})  # a long OK ends the name on the wheel


@dataclass
class NewName:
    """A name being typed; ``add`` keeps it (returns it as kept, or raises ValueError why not)."""

    add: Callable[[str], str]
    wheel: Wheel = field(default_factory=Wheel)
    message: str | None = None  # why the name was refused: the wheel stays open to change it

    def on_key(self, key: str, hold: bool = False) -> str | None:
        """The kept name once the wheel ends it, "" when given up, else None."""
        self.wheel.key(key, hold)
        if self.wheel.cancelled:
            return ""
        if self.wheel.done:
            try:
                return self.add(self.wheel.text)
            except (ValueError, JournalError) as exc:  # a bad or known name; cannot save
                self.message, self.wheel.done = str(exc), False
        return None

    def view(self) -> View:
        return self.wheel.view()


@dataclass
class RosterScreen:
    """Settings' "Players": NEXT moves, OK on a name asks to remove it, OK on "New player" opens
    the wheel, BACK leaves (``on_key`` returns False)."""

    roster: Roster
    cursor: int = 0
    new: NewName | None = None
    removing: str | None = None
    message: str | None = None  # a refusal for the mode to show, taken once

    def entries(self) -> list[str]:
        return [*self.roster.names(), _("New player")]

    def holds(self) -> frozenset[str]:
        return HOLDS if self.new is not None else frozenset()

    def on_key(self, key: str, hold: bool = False) -> bool:
        if self.new is not None:
            kept = self.new.on_key(key, hold)
            self.message, self.new.message = self.new.message, None
            if kept is not None:
                self.new = None
                names = self.roster.names()
                if kept in names:
                    self.cursor = names.index(kept)
            return True
        if self.removing is not None:
            if key not in ("ok", "back"):
                return True  # only OK removes, only BACK keeps: a stray key does neither
            name, self.removing = self.removing, None
            if key == "ok":
                try:
                    self.roster.remove(name)
                except (ValueError, JournalError) as exc:
                    self.message = str(exc)
                self.cursor = 0
            return True
        entries = self.entries()
        if key == "back":
            return False
        if key == "next":
            self.cursor = (self.cursor + 1) % len(entries)
        elif key == "ok" and self.cursor == len(entries) - 1:
            self.new = NewName(self.roster.add)
        elif key == "ok":
            self.removing = entries[self.cursor]
        return True

    def view(self) -> View:
        if self.new is not None:
            return self.new.view()
        if self.removing is not None:
            big = self.removing if len(self.removing) <= 10 else None
            lines = (() if big else (self.removing,)) + tuple(wrap(_("Games and answers stay.")))
            return View(_("Remove?"), lines[:3], big=big, footer=_("OK remove  BACK keep"))
        entries = self.entries()
        return View(_("Players ({n})").format(n=len(entries) - 1), tuple(entries),
                    cursor=self.cursor % len(entries), footer=_("NEXT move  OK choose"))
