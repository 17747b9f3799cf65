"""What every referee shares: the set-up option type and the interface the App drives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Protocol, Sequence

from ..screens import View

if TYPE_CHECKING:
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
    def private(self) -> bool:
        """True while the screen shows something only one player may see."""
        ...
    def close(self) -> None:
        """Cancel every timer of this referee (it is being replaced)."""
        ...


@dataclass(frozen=True)
class Page:
    """A screen shown for ``seconds`` after an action; ``minor`` pages give way to the next move."""

    view: View
    seconds: float = 3.5
    minor: bool = False


class Pages:
    """Screens that follow an action (a reveal, a scoring), one after another on a timer.

    OK or NEXT at the host panel skips to the next one; undo stops them.
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self.queue: list[Page] = []
        self._timer: Any = None

    def __bool__(self) -> bool:
        return bool(self.queue)

    def show(self, pages: Sequence[Page]) -> None:
        self.table.cancel(self._timer)
        self.queue = list(pages)
        self._timer = (self.table.call_later(self.queue[0].seconds, self.next)
                       if self.queue else None)

    def next(self) -> None:
        self.show(self.queue[1:])

    def stop(self) -> None:
        self.show([])

    def all_minor(self) -> bool:
        return all(page.minor for page in self.queue)

    def on_host(self, key: str) -> bool:
        """OK/NEXT skip a page; other keys (BACK) go to the App."""
        if key in ("ok", "next"):
            self.next()
            return True
        return False

    def view(self) -> View:
        page = self.queue[0].view
        return View(page.title, page.lines, page.big, footer=page.footer or "OK: next")


def seat_player(table: Table, players: Sequence[str], station: int) -> str | None:
    """The player whose seat is wired to ``station`` (None: nobody sits there this game)."""
    for seat, name in enumerate(players):
        if table.station_of(seat) == station:
            return name
    return None
