"""What every referee shares: the set-up option type and the interface the App drives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Protocol

if TYPE_CHECKING:
    from ..screens import View
    from ..session import Session


@dataclass(frozen=True)
class SetupOption:
    """One choice on the set-up screens; ``ruling`` names the RULINGS.md id it sets."""

    key: str
    label: str
    choices: tuple[Any, ...]
    default: Any
    ruling: str = ""
    names: tuple[str, ...] = ()

    def show(self, value: Any) -> str:
        if self.names:
            return self.names[self.choices.index(value)]
        return str(value)


class Table(Protocol):
    """What the App offers a referee: the game, timers, the buzzer, short messages, seats."""

    def apply(self, action: dict[str, Any]) -> list[Any] | None: ...
    def flash(self, *lines: str, seconds: float = ...) -> None: ...
    def beep(self, pattern: str) -> None: ...
    def call_later(self, delay: float, callback: Callable[[], None]) -> Any: ...
    def cancel(self, timer: Any) -> None: ...
    def station_of(self, seat: int) -> int | None: ...


class Referee(Protocol):
    """Turns presses into actions for one game and says what the screen shows."""

    SETUP: ClassVar[tuple[SetupOption, ...]]

    def __init__(self, table: Table, session: "Session") -> None: ...
    def view(self) -> "View": ...
    def on_station(self, station: int, key: str) -> None: ...
    def on_host(self, key: str) -> bool:
        """Handle a host-panel key; False lets the App use it (BACK opens the game menu)."""
        ...
    def react(self, events: list[Any]) -> None:
        """Follow up events of an action that came from elsewhere (the serial link)."""
        ...
    def after_undo(self) -> None: ...
    def resumed(self) -> None: ...
