"""The referee every game's mode builds on: the session, the pages, seats, and press routing.
It turns presses into engine actions (what is legal comes only from the engine's
``legal_actions``) and says what the screen shows; the App commits each action to the journal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ....games.core import Option
from ...inputs import Press, Weight
from ...screens import View
from .pages import Pages, score_shown
from .seats import seat_player
from .table import Table

if TYPE_CHECKING:
    from ...session import Session


# -- the referee skeleton ------------------------------------------------------------------------
class Referee:
    """What every game's referee shares: the session, the pages, seats, and press routing.

    Subclasses say what a station key (``on_station``) and a host key (``on_host``) mean in the
    game's current phase, what follows an accepted action (``react``), and what the screen shows.
    """

    TABLE_OPTIONS: ClassVar[tuple[Option, ...]] = ()  # how the table plays (header.table)
    STATION_HOLDS: ClassVar[frozenset[str]] = frozenset()  # station keys with a hold meaning

    def __init__(self, table: Table, session: "Session") -> None:
        self.table = table
        self.session = session
        self.pages = Pages(table)

    @property
    def state(self) -> Any:
        return self.session.state

    def holds(self) -> frozenset[str]:
        return frozenset(f"s{n + 1}.{key}" for n in range(len(self.state.players))
                         for key in self.STATION_HOLDS)

    def legal(self, player: str) -> list[dict[str, Any]]:
        """What ``player`` may do now: the engine's word, never re-derived here."""
        return list(self.state.legal_actions(player))

    def seat_player(self, station: int) -> str | None:
        return seat_player(self.table, self.state.players, station)

    def has_station(self, player: str) -> bool:
        return self.table.station_of(self.state.players.index(player)) is not None

    def hot_players(self) -> list[str]:
        """Players without a station, in seat order."""
        return [p for seat, p in enumerate(self.state.players)
                if self.table.station_of(seat) is None]

    def on_press(self, press: Press) -> bool:
        if press.station is None:
            return self.on_host(press.key)
        self.on_station(press.station, press.key)
        return True

    def on_weight(self, weight: Weight) -> bool:
        return False

    def score_text(self, player: str, score: Any) -> str:
        """``player``'s score as the standings show it; a game may mark more (who is out)."""
        return score_shown(score)

    def on_events(self, events: list[Any]) -> None:
        """An action that came from elsewhere (the serial link) was applied."""
        self.react(events)

    def act(self, action: dict[str, Any]) -> list[Any] | None:
        events = self.table.apply(action)
        if events is not None:
            self.react(events)
        return events

    def on_station(self, station: int, key: str) -> None:
        raise NotImplementedError

    def on_host(self, key: str) -> bool:
        raise NotImplementedError

    def react(self, events: list[Any]) -> None:
        raise NotImplementedError

    def view(self) -> View:
        """Pages first (they wait for OK), then the end, then the game's own screen."""
        if self.pages:
            return self.pages.view()
        if self.state.is_over:
            return self.end_view()
        return self.play_view()

    def end_view(self) -> View:
        raise NotImplementedError

    def play_view(self) -> View:
        raise NotImplementedError

    def after_undo(self) -> None:
        self.pages.stop()

    def says_what_to_put_back(self) -> bool:
        """Whether the screen after an undo is the game's own (what to put back): the App then
        shows no notice over it, which a key meant for the notice would also turn away."""
        return bool(self.pages)

    def resumed(self) -> None:
        pass

    def private(self) -> bool:
        return False

    def close(self) -> None:
        self.pages.stop()
