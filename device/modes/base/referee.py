"""The referee every game's mode builds on: the session, the pages, seats, and press routing.
It turns presses into engine actions (what is legal comes only from the engine's
``legal_actions``) and says what the screen shows; the App commits each action to the journal."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Iterable, Sequence, TypeVar, cast

from ....games import GAMES
from ....games.core import GameInfo, Option, State
from ...i18n import _
from ...inputs import Press, Weight
from ...screen.render import View, pack
from .pages import Page, Pages, score_shown
from .public import read
from .play import Play
from .seats import seat_player
from .table import Table

if TYPE_CHECKING:
    from ...session import Session


S = TypeVar("S", bound=State)
V = TypeVar("V")


# -- the referee skeleton ------------------------------------------------------------------------
def action_label(info: GameInfo, action: dict[str, Any]) -> str:
    """What a menu calls ``action``: the engine's label template in the box's language, filled
    with the action's fields; a field's value that is one of the engine's declared ``words``
    ("truck") is said in the box's language too."""
    template = info.labels.get(str(action.get("type")))
    if template is None:
        return str(action.get("type"))
    fields = {key: _(value) if isinstance(value, str) and value in info.words else value
              for key, value in action.items()}
    try:
        return _(template).format(**fields)
    except (KeyError, IndexError, ValueError):
        return _(template)


class Referee(Generic[S]):
    """What every game's referee shares: the session, the pages, seats, press routing, refusals,
    and a way to play any game by what it needs (``Play``: a choice, a die, a weight).

    A game whose turns are only that needs nothing but its pages (``event_pages``). A game with
    a flow of its own overrides what a station key (``on_station``; a long press of a key in
    ``STATION_HOLDS``: ``on_station_hold``) and a host key (``on_host``) mean in its phases, what
    follows an accepted action (``react``), and what the screen shows. It is generic in the
    game's state (``Referee[TatortTonne]``), so ``self.state`` is the game's own type.
    """

    TABLE_OPTIONS: ClassVar[tuple[Option, ...]] = ()  # how the table plays (header.table)
    STATION_HOLDS: ClassVar[frozenset[str]] = frozenset()  # station keys with a hold meaning

    def __init__(self, table: Table, session: "Session") -> None:
        self.table = table
        self.session = session
        self.pages = Pages(table)
        self._public: tuple[object, type, Any] | None = None

    @property
    def info(self) -> GameInfo:
        return GAMES[self.session.header.game]

    @cached_property
    def play(self) -> Play:
        """The shared controllers (made when a game first uses them)."""
        return Play(self)

    @property
    def state(self) -> S:
        return cast(S, self.session.state)

    def public_as(self, cls: type[V]) -> V:
        """The game as the table sees it: the engine's ``public()`` read as the game's view
        ``cls`` (``base.public``), what its screens take. Made once a state."""
        state, cached = self.session.state, self._public
        if cached is None or cached[0] is not state or cached[1] is not cls:
            cached = self._public = (state, cls, read(cls, state.public()))
        return cast(V, cached[2])

    def holds(self) -> frozenset[str]:
        return frozenset(f"s{n + 1}.{key}" for n in range(len(self.state.players))
                         for key in self.STATION_HOLDS)

    def legal(self, player: str) -> list[dict[str, Any]]:
        """What ``player`` may do now: the engine's word, never re-derived here."""
        return list(self.state.legal_actions(player))

    def legal_of(self, player: str, kind: str) -> list[dict[str, Any]]:
        """``player``'s legal actions of type ``kind`` (none: they may not do it now)."""
        return [a for a in self.legal(player) if a.get("type") == kind]

    def legal_values(self, player: str, kind: str, field: str) -> list[Any]:
        """The values of ``field`` in ``player``'s legal ``kind`` actions (the bids one may
        make, the steps one may move), in the engine's order."""
        return [a[field] for a in self.legal_of(player, kind) if field in a]

    def refuse(self, *lines: str) -> None:
        """A press that does nothing: the buzzer, and the reason on the screen."""
        self.table.beep("error")
        self.table.flash(*lines)

    def station_player(self, station: int) -> str | None:
        """Who plays at ``station``; None (refused, with the reason) when nobody does."""
        player = self.seat_player(station)
        if player is None:
            self.refuse(_("Nobody plays at"), self.table.station_name(station))
        return player

    def turn_refusal(self, player: str) -> tuple[str, ...] | None:
        """Why ``player``'s key does nothing because of whose turn it is (the lines to show),
        or None: the game waits for them."""
        if self.state.is_over:
            return (_("The game is over"),)
        waiting = self.state.waiting_for()
        if player not in waiting and waiting:
            return (_("It's {name}'s turn").format(name=waiting[0]),)
        return None

    def label(self, action: dict[str, Any]) -> str:
        """What a menu calls ``action`` (``action_label``)."""
        return action_label(self.info, action)

    def pans(self) -> list[str]:
        """The pans this box has, in the config's order (none without load cells)."""
        scales = self.table.scales
        return list(scales.pans) if scales is not None else []

    @staticmethod
    def names(players: Iterable[str]) -> list[str]:
        return pack(list(players), " & ")

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
        if press.hold and press.key in self.STATION_HOLDS:
            self.on_station_hold(press.station, press.key)
        else:
            self.on_station(press.station, press.key)
        return True

    def on_weight(self, weight: Weight) -> bool:
        return self.play.on_weight(weight) if self.info.measurements else False

    def weighs(self) -> bool:
        """A weighing runs now (the warm-up notice shows while the scales warm up)."""
        return bool(self.info.measurements) and self.play.weighs()

    def score_text(self, player: str, score: Any) -> str:
        """``player``'s score as the standings show it; a game may mark more (who is out)."""
        return score_shown(score)

    def on_events(self, events: list[Any]) -> None:
        """An action that came from elsewhere (the serial link) was applied."""
        self.react(events)

    def act(self, action: dict[str, Any],
            notes: Sequence[tuple[str, dict[str, Any]]] = ()) -> list[Any] | None:
        """Offer ``action`` (with ``notes`` for the journal, kept in the same commit)."""
        events = self.table.apply(action, notes)
        if events is not None:
            self.react(events)
        return events

    def on_station(self, station: int, key: str) -> None:
        player = self.station_player(station)
        if player is None:
            return
        if self.pages:
            self.refuse(_("Wait: read the screen, then press OK at the box."))
        else:
            self.play.key(player, key, station=True)

    def on_station_hold(self, station: int, key: str) -> None:
        """A long press of a key in ``STATION_HOLDS``."""
        self.on_station(station, key)

    def on_host(self, key: str) -> bool:
        """Pages turn with OK; a player without a station plays at the host panel; BACK (and OK
        after the end) is the App's."""
        if self.pages.on_host(key):
            return True
        player = self.play.asked()
        if key == "back" or player is None:
            return False
        if self.has_station(player):
            self.refuse(_("Choose with your own"), _("keys at their seat"))
        else:
            self.play.key(player, key, station=False)
        return True

    def react(self, events: list[Any]) -> None:
        self.pages.show(self.event_pages(events))

    def event_pages(self, events: list[Any]) -> list[Page]:
        """The pages that say what ``events`` mean: the game's own (its mode folder's)."""
        return []

    def view(self) -> View:
        """Pages first (they wait for OK), then the end, then the game's own screen."""
        if self.pages:
            return self.pages.view()
        if self.state.is_over:
            return self.end_view()
        return self.play_view()

    def end_view(self) -> View:
        return self.play.end_view()

    def play_view(self) -> View:
        return self.play.view()

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
        if "play" in self.__dict__:
            self.play.close()
