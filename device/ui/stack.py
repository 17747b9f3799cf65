"""The App's stack of screens: the home menu at the bottom, what is open above it, and the
screens a caller asks for by kind (the running game's, a set-up's, a tool's).

The App (``device.app``) owns one and adds the game, the guard and the services screens ask
for. The top screen's holds (which keys may be held) follow every change.
"""

from __future__ import annotations

from typing import Any, Callable

from ..modes.base import Referee
from .game import GameScreen
from .screen import Screen
from .start import SetupScreen, StartScreen
from .tool import ToolScreen


class ScreenStack:
    """``stack``: the screens, ``home`` first; ``holds`` is told the top screen's holds (the
    buttons' ``Inputs.set_holds``)."""

    def __init__(self, home: Screen, holds: Callable[[frozenset[str]], None]) -> None:
        self.stack: list[Screen] = [home]
        self._holds = holds

    @property
    def top(self) -> Screen:
        return self.stack[-1]

    @property
    def mode(self) -> str:
        """The top screen's kind: home, start, setup, game, menu, standings, confirm_end,
        confirm_undo or tool."""
        return self.top.name

    def push(self, screen: Screen) -> None:
        self.stack.append(screen)
        self.set_holds()

    def pop(self) -> None:
        """Close the top screen and show the one below again (home is never popped)."""
        if len(self.stack) > 1:
            self.stack.pop().close()
            self.top.shown()
        self.set_holds()

    def replace(self, screen: Screen) -> None:
        if len(self.stack) > 1:
            self.stack.pop().close()
        self.push(screen)

    def home(self) -> None:
        """Close everything above the home menu (a tool, a set-up, a game's screens)."""
        while len(self.stack) > 1:
            self.stack.pop().close()
        self.top.shown()
        self.set_holds()

    def _find(self, kind: type[Screen]) -> Any:
        return next((s for s in reversed(self.stack) if isinstance(s, kind)), None)

    @property
    def game_screen(self) -> GameScreen | None:
        return self._find(GameScreen)

    @property
    def referee(self) -> Referee | None:
        """The running game's referee (None at home, in a tool, or while a game is paused)."""
        screen = self.game_screen
        return screen.referee if screen is not None else None

    @property
    def setup(self) -> Any:
        screen = self._find(SetupScreen)
        return screen.flow if screen is not None else None

    @property
    def start(self) -> StartScreen | None:
        return self._find(StartScreen)

    @property
    def tool(self) -> Any:
        return self.top.mode if isinstance(self.top, ToolScreen) else None

    @property
    def cursor(self) -> int | None:
        return self.top.cursor

    def set_holds(self) -> None:
        self._holds(self.top.holds())


__all__ = ["ScreenStack"]
