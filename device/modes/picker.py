"""Who plays: the first set-up screen when the box has a roster of names.

The roster's names, then "Guest" and "New player", then "Done". NEXT moves, OK takes a name in
or out; the order taken is the seat order (seat 1 plays at the first station). A new player is
typed on the letter wheel and kept on the roster.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..i18n import _
from ..screen.render import View
from .names import HOLDS, NewName

MAX_GUESTS = 10


@dataclass
class PlayerPicker:
    """``roster`` is the names offered; ``add`` keeps a new name (returns it as kept, or raises
    ValueError with the reason); ``station`` names the station of a seat (or None)."""

    roster: list[str]
    low: int
    high: int
    add: Callable[[str], str]
    station: Callable[[int], str | None]
    chosen: list[str] = field(default_factory=list)
    cursor: int = 0
    wheel: NewName | None = None
    message: str | None = None  # why the last press was refused, for the App to show

    def named(self) -> list[str]:
        """The roster's names, then the guests chosen (each a line: OK takes one out again)."""
        return [*self.roster, *(n for n in self.chosen if n not in self.roster)]

    def entries(self) -> list[str]:
        return [*self.named(), _("Guest"), _("New player"), _("Done")]

    def on_key(self, key: str, hold: bool = False) -> str | None:
        """"home" to leave, "done" when the seats are chosen, else None."""
        if self.wheel is not None:
            self._wheel_key(key, hold)
            return None
        if key in ("A", "B", "C"):
            return None
        entries = self.entries()
        if key == "back":
            return "home"
        if key == "next":
            self.cursor = (self.cursor + 1) % len(entries)
            return None
        if key != "ok":
            return None
        named = self.named()
        if self.cursor < len(named):
            self._toggle(named[self.cursor])
            self.cursor = min(self.cursor, len(self.entries()) - 1)
        elif self.cursor == len(named):
            self._guest()
            self.cursor = len(self.named())  # still on "Guest": OK again adds another
        elif self.cursor == len(named) + 1:
            self.wheel = NewName(self.add)
        elif not self.low <= len(self.chosen) <= self.high:
            self.message = _("Choose {low} to {high} players").format(low=self.low,
                                                                      high=self.high)
        else:
            return "done"
        return None

    def _toggle(self, name: str) -> None:
        if name in self.chosen:
            self.chosen.remove(name)
        elif len(self.chosen) >= self.high:
            self.message = _("At most {high} players").format(high=self.high)
        else:
            self.chosen.append(name)

    def _guest(self) -> None:
        for number in range(1, MAX_GUESTS + 1):
            name = _("Guest {n}").format(n=number)
            if name not in self.chosen:
                self._toggle(name)
                return

    def _wheel_key(self, key: str, hold: bool) -> None:
        assert self.wheel is not None
        name = self.wheel.on_key(key, hold)
        self.message, self.wheel.message = self.wheel.message, None
        if name is not None:
            self.wheel = None
        if name:
            self.roster.append(name)
            self.cursor = self.roster.index(name)
            self._toggle(name)
        return None

    def holds(self) -> frozenset[str]:
        """A long OK ends a name on the wheel."""
        return HOLDS if self.wheel is not None else frozenset()

    def view(self, title: str) -> View:
        if self.wheel is not None:
            return self.wheel.view()
        lines = []
        for index, entry in enumerate(self.entries()):
            if entry in self.chosen:
                seat = self.chosen.index(entry)
                where = self.station(seat) or _("host")
                lines.append(f"{seat + 1} {entry}"[:14].ljust(15) + where[:6])
            else:
                lines.append(f"  {entry}")
        return View(_("Who plays? ({n})").format(n=len(self.chosen)), tuple(lines),
                    cursor=self.cursor, footer=_("NEXT move  OK choose"))

