"""The home menu: every game and tool the registry holds, led by "Continue the game" while a
paused game waits."""

from __future__ import annotations

from typing import Sequence

from ..i18n import _
from ..glossary import choose_footer
from ..modes import MODES
from ..modes.base import ModeInfo
from ..screen.render import View
from .screen import Screen, Shell


def home_view(modes: Sequence[ModeInfo], cursor: int, from_memory: bool = False,
              paused: bool = False) -> View:
    """The home menu; ``from_memory`` when the journal cannot be written: the box referees on,
    but a power cut would lose the game, and the title says so."""
    title = _("Not saving!") if from_memory else "Spielleiter"
    lines = ((_("Continue the game"),) if paused else ()) + tuple(_(m.title) for m in modes)
    return View(title, lines, cursor=cursor, footer=choose_footer())


class HomeScreen(Screen):
    """NEXT moves, OK opens an entry: a game's own menu, or a tool."""

    name = "home"
    cursor: int

    def __init__(self, shell: Shell, modes: Sequence[ModeInfo] = MODES) -> None:
        super().__init__(shell)
        self.modes = modes  # the live registry: a mode found later shows too
        self.cursor = 0

    def entries(self) -> int:
        return len(self.modes) + (1 if self.shell.paused else 0)

    def on_host(self, key: str, hold: bool) -> None:
        first = 1 if self.shell.paused else 0
        if key == "next":
            self.cursor = (self.cursor + 1) % self.entries()
        elif key == "ok" and first and self.cursor == 0:
            self.shell.continue_game()
        elif key == "ok":
            self.shell.open(self.modes[(self.cursor - first) % len(self.modes)])

    def shown(self) -> None:
        self.cursor %= self.entries()

    def view(self) -> View:
        return home_view(self.modes, self.cursor % self.entries(),
                         self.shell.journal.degraded is not None, self.shell.paused)


__all__ = ["HomeScreen", "home_view"]
