"""A screen of the App: one object per state the host panel can be in, held on a stack.

The home menu lies at the bottom; a game's own menu, its set-up, the game, the game menu, the
standings, a question, a tool each lie on top while they are shown. The top screen gets every
press and says what the OLED shows; popping it shows the one below again, as it was. What a
screen may ask of the App is ``Shell``, so a screen never reaches into the App's state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar, Protocol

from ..inputs import Press, Weight
from ..screen.render import View

if TYPE_CHECKING:
    from ..journal.header import Header
    from ..journal.store import Journal
    from ..pans.scales import TableScales
    from ..modes.base import ModeInfo
    from ..session import Session
    from ..journal.settings import Settings


class Shell(Protocol):
    """What a screen may ask of the App: the stack, messages, the buzzer, the journal, the
    running game and what a game's life needs (start, pause, continue, undo, end)."""

    journal: "Journal"
    settings: "Settings"
    session: "Session | None"
    scales: "TableScales | None"
    player_names: tuple[str, ...]
    stations: int

    def push(self, screen: "Screen") -> None: ...
    def pop(self) -> None: ...
    def replace(self, screen: "Screen") -> None: ...
    def home(self) -> None: ...
    def flash(self, *lines: str, seconds: float = ...) -> None: ...
    def notice(self, view: View, seconds: float = ...) -> None: ...
    def beep(self, pattern: str) -> None: ...
    def call_later(self, delay: float, callback: Callable[[], None]) -> Any: ...
    def cancel(self, timer: Any) -> None: ...
    def refuse_station(self) -> None: ...
    def station_name(self, station: int) -> str: ...
    def new_seed(self) -> int: ...
    def set_holds(self) -> None: ...
    def start_game(self, header: "Header") -> None: ...
    def open(self, mode: "ModeInfo", choice: str = "new") -> None: ...
    def open_tool(self, mode: "ModeInfo") -> None: ...
    def continue_game(self) -> None: ...
    def pause_game(self) -> None: ...
    def end_game(self) -> None: ...
    def close_game(self) -> None: ...
    def undo(self) -> dict[str, Any] | None: ...
    def change_settings(self, settings: "Settings") -> None: ...
    @property
    def paused(self) -> bool: ...


class Screen:
    """One state of the host panel. ``name`` says which kind it is (``app.mode``, the link's and
    the headless simulator's word for it); ``cursor`` is the line a menu points at, if any."""

    name: ClassVar[str] = "screen"
    cursor: int | None = None

    def __init__(self, shell: Shell) -> None:
        self.shell = shell

    def view(self) -> View:
        raise NotImplementedError

    def on_press(self, press: Press) -> None:
        """A press for this screen (the guard and the screen saver have let it through). A
        station key on a screen that is the host panel's is refused with the reason."""
        if press.station is not None:
            self.shell.refuse_station()
        else:
            self.on_host(press.key, press.hold)

    def on_host(self, key: str, hold: bool) -> None:
        pass

    def on_weight(self, weight: Weight) -> bool:
        """A pan's news; False when nothing this screen shows changed."""
        return False

    def holds(self) -> frozenset[str]:
        """The buttons with a hold meaning on this screen (besides host BACK)."""
        return frozenset()

    def private(self) -> bool:
        """True while the screen shows one player's secret (the serial link is told less)."""
        return False

    def shown(self) -> None:
        """The screen is on top again (the one above it was popped)."""

    def close(self) -> None:
        """The screen leaves the stack: stop its timers, disarm what it armed."""


class Question(Screen):
    """A yes-or-no before something that cannot be taken back: OK does it, BACK keeps things
    as they were. Undo and ending a game ask once, so one stray key never costs a move."""

    name = "confirm"

    def __init__(self, shell: Shell, view: View, yes: Callable[[], None],
                 name: str = "confirm") -> None:
        super().__init__(shell)
        self._view, self._yes = view, yes
        self.name = name  # type: ignore[misc]  # which question: "confirm_end", "confirm_undo"

    def view(self) -> View:
        return self._view

    def on_host(self, key: str, hold: bool) -> None:
        if key == "ok":
            self.shell.pop()
            self._yes()
        elif key == "back":
            self.shell.pop()


__all__ = ["Question", "Screen", "Shell"]
