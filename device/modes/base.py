"""What every mode shares: the mode and table protocols, pages, seats, hot seat, the referee.

A mode is whatever the home menu offers: a game's referee, the Scale tool, Settings. The App hands
it ``Press``es and ``Weight``s and shows its ``view()``. A game's referee builds on ``Referee``
here: it turns presses into engine actions (what is legal comes only from the engine's
``legal_actions``) and says what the screen shows; the App commits each action to the journal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterator, Protocol, Sequence

from ..i18n import _
from ..inputs import Press, Weight
from ..screens import CHARS, PAGE_LINES, WIDTH, View, big_width, wrap

from ...games.core import Option

if TYPE_CHECKING:
    from ..session import Session
    from .options import SetupOption


class Table(Protocol):
    """What the App offers a mode: the game, timers, the buzzer, short messages, seats, pace,
    the pans (``scales``: device/scales.py, None on a box without load cells), the journal (for a
    mode's small records, e.g. learned piece weights) and undo (a mode may take back its own
    action, e.g. a stack step the pan then saw reversed)."""

    scales: Any
    journal: Any

    def apply(self, action: dict[str, Any]) -> list[Any] | None: ...
    def flash(self, *lines: str, seconds: float = ...) -> None: ...
    def beep(self, pattern: str) -> None: ...
    def call_later(self, delay: float, callback: Callable[[], None]) -> Any: ...
    def cancel(self, timer: Any) -> None: ...
    def station_of(self, seat: int) -> int | None: ...
    def station_name(self, station: int) -> str: ...
    def page_seconds(self, seconds: float) -> float | None: ...
    def undo(self) -> dict[str, Any] | None: ...


class Mode(Protocol):
    """One thing the home menu offers. ``on_press``/``on_weight`` return False for what they
    leave to the App (BACK from a tool's first screen goes home)."""

    def holds(self) -> frozenset[str]: ...
    def on_press(self, press: Press) -> bool: ...
    def on_weight(self, weight: Weight) -> bool: ...
    def view(self) -> View: ...
    def private(self) -> bool: ...
    def close(self) -> None: ...


# -- pages ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Page:
    """A screen that follows an action; ``seconds`` is its length at the table's chosen pace;
    ``minor`` pages give way to the next move."""

    view: View
    seconds: float = 3.5
    minor: bool = False


class Pages:
    """Screens that follow an action (a reveal, a scoring), one after another.

    Each waits for OK (or NEXT) at the host panel; only when the table chose a pace in Settings
    does it also advance by itself. Undo stops them.
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self.queue: list[Page] = []
        self._timer: Any = None
        self._finale: str | None = None

    def __bool__(self) -> bool:
        return bool(self.queue)

    def show(self, pages: Sequence[Page], finale: str | None = None) -> None:
        """Show ``pages`` in turn; ``finale`` is the sound for the screen after the last (the
        win sound plays with the winner, not over the reveal before it)."""
        self.table.cancel(self._timer)
        self.queue = list(pages)
        self._timer = None
        self._finale = finale
        if self.queue:
            seconds = self.table.page_seconds(self.queue[0].seconds)
            if seconds is not None:
                self._timer = self.table.call_later(seconds, self.next)
        elif finale is not None:
            self._finale = None
            self.table.beep(finale)

    def next(self) -> None:
        self.show(self.queue[1:], self._finale)

    def stop(self) -> None:
        self._finale = None
        self.show([])

    def all_minor(self) -> bool:
        return all(page.minor for page in self.queue)

    def on_host(self, key: str) -> bool:
        """OK/NEXT turn the page; other keys (BACK) go to the App."""
        if key in ("ok", "next"):
            self.next()
            return True
        return False

    def view(self) -> View:
        page = self.queue[0].view
        return View(page.title, page.lines, page.big, footer=page.footer or _("OK: next"))


# -- text pages ----------------------------------------------------------------------------------
def text_page(title: str, text: str, big: str | None = None, footer: str = "") -> View:
    """A page that says one sentence, wrapped for the screen in whatever language it arrives in
    (translators write sentences, not screen lines)."""
    return View(title, tuple(wrap(text)), big=big, footer=footer)


# -- standings -----------------------------------------------------------------------------------
def score_shown(score: Any) -> str:
    """A standings score as the table reads it ("" when the game keeps none)."""
    return "" if score is None else f"{score:g}" if isinstance(score, float) else str(score)


def standings_view(rows: Sequence[tuple[int, str, Any]], at: int, footer_more: str,
                   footer: str, score: Callable[[str, Any], str] = lambda _p, s: score_shown(s),
                   ) -> View:
    """Every player's place and score, best first (the engine ranks: ties share a place), a name
    never cut for its score; more than three rows make a list that scrolls, ``at`` being the row
    at the cursor."""
    scroll = len(rows) > PAGE_LINES
    width = CHARS - 1 if scroll else CHARS  # room for the scroll mark
    lines = []
    for rank, name, value in rows:
        right = score(name, value)
        head = f"{rank}. {name}"[: width - len(right) - 1]
        lines.append(head.ljust(width - len(right)) + right)
    if scroll:
        return View(_("Standings"), tuple(lines), cursor=at % len(lines), footer=footer_more)
    return View(_("Standings"), tuple(lines), footer=footer)


# -- seats ---------------------------------------------------------------------------------------
def seat_player(table: Table, players: Sequence[str], station: int) -> str | None:
    """The player whose seat is wired to ``station`` (None: nobody sits there this game)."""
    for seat, name in enumerate(players):
        if table.station_of(seat) == station:
            return name
    return None


def handover_view(player: str) -> View:
    """The box goes to a player without a station (the name large); the others look away."""
    look = _("Others: look away!")
    if big_width(player, 2) * 2 <= WIDTH:
        return View(_("Pass the box to"), (look,), big=player,
                    footer=_("OK show  BACK cancel"))
    return View(_("Pass the box to"), (player, look), footer=_("OK show  BACK cancel"))


@dataclass
class HotSeat:
    """More seats than stations: a player without a station makes a private choice at the host
    panel. The box is handed over on a privacy screen, the choice is made on a menu only that
    player sees, then the screen goes blank before the next player takes the box."""

    player: str | None = None
    stage: str = ""        # "", "privacy", "pick" or "done"
    cursor: int = 0
    index: int = 0         # which waiting player OK calls up next

    def reset(self) -> None:
        self.player, self.stage = None, ""

    def private(self) -> bool:
        return self.stage == "pick"

    def on_host(self, key: str, waiting: Sequence[str], options: Callable[[str], Sequence[Any]],
                choose: Callable[[str, Any], None]) -> bool:
        """Drive the hand-over with the host keys; ``choose(player, option)`` plays the pick."""
        if self.stage == "":
            if not waiting:
                return False
            if key == "next":
                self.index = (self.index + 1) % len(waiting)
            elif key == "ok":
                self.player = waiting[self.index % len(waiting)]
                self.stage, self.cursor = "privacy", 0
            else:
                return False
            return True
        if self.stage == "privacy":
            if key == "ok":
                self.stage = "pick"
            elif key == "back":
                self.reset()
            return True
        if self.stage == "pick":
            assert self.player is not None
            choices = options(self.player)
            if key == "next":
                self.cursor = (self.cursor + 1) % len(choices)
            elif key == "back":
                self.stage = "privacy"
            elif key == "ok":
                player, pick = self.player, choices[self.cursor % len(choices)]
                self.stage, self.index = "done", 0
                choose(player, pick)
            return True
        if key in ("ok", "next"):  # "done": the blank screen between seats
            self.reset()
        return True

    def view(self, labels: Sequence[str]) -> View | None:
        """The hand-over's screen, or None when nobody is at the host panel."""
        if self.stage == "privacy":
            return handover_view(self.player or "")
        if self.stage == "pick":
            return View(_("{player} plays").format(player=self.player), tuple(labels),
                        cursor=self.cursor % len(labels), footer=_("NEXT move  OK play"))
        if self.stage == "done":
            return View(blank=True, footer=_("Card down. OK: go on"))
        return None


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


# -- the registry's entries ----------------------------------------------------------------------
DemoStep = tuple  # ("tap", button) | ("hold", button, s) | ("idle", s) | ("say", text) | ("put", pan, g)


@dataclass(frozen=True)
class Demo:
    """A scripted walk through a mode on simulated hardware: the players' names and the steps."""

    players: tuple[str, ...]
    script: Callable[[], Iterator[DemoStep]]


@dataclass(frozen=True)
class ModeInfo:
    """One home-menu entry, found by ``modes`` in its module's or folder's ``MODE``. A game names
    its engine (``game``) and its ``referee`` class (``game_mode`` takes name and title from the
    engine's ``GameInfo``); a tool gives ``open(app) -> Mode``. ``order`` places the entry on the
    home menu (the games 10-40, a new game 60 by default, the learning station 50, the tools
    80 and up)."""

    name: str
    title: str
    game: str | None = None
    referee: type[Referee] | None = None
    open: Callable[[Any], Mode] | None = None
    demos: dict[str, Demo] = field(default_factory=dict)
    rules: Callable[[], list[View]] | None = None  # how the box plays it: a few pages, read
    #                                                 from the game's menu (built when shown, so
    #                                                 in the language of the moment)
    order: int = 60

    @property
    def setup(self) -> tuple[SetupOption, ...]:
        """The set-up screens' options: the engine's offered ones, then the referee's own."""
        if self.referee is None or self.game is None:
            return ()
        from ...games import GAMES
        from .options import setup_option

        info = GAMES.get(self.game)
        engine = tuple(setup_option(o) for o in (info.options if info else ()) if o.offered)
        return engine + tuple(setup_option(o, engine=False) for o in self.referee.TABLE_OPTIONS)


def game_mode(info: Any, referee: type[Referee], *, demos: dict[str, Demo] | None = None,
              rules: Callable[[], list[View]] | None = None, order: int = 60) -> ModeInfo:
    """The home-menu entry of the game ``info`` (its engine's ``GameInfo``) refereed by
    ``referee``: its name and title are the engine's."""
    return ModeInfo(info.name, info.title, game=info.name, referee=referee, demos=demos or {},
                    rules=rules, order=order)
