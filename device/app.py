"""The host panel's world: menus, game set-up, the in-game menu, undo, and the active referee.

The App is the runtime's handler. Button presses come in as ``Press``es; the host panel's are
``host.back``/``host.ok``/``host.next``, a station's ``s<N>.A``/``B``/``C``. It owns the running
``Session`` and hands station presses and host keys to the referee of the game being played.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from ..drivers.buttons import Edge, Press, PressDetector
from ..games import GAMES, GameError
from .journal import Journal, JournalError
from .referees import REFEREES, Referee, SetupOption
from .replay import Header, ReplayError
from .runtime import Runtime
from .screens import View, wrap
from .session import Session, SessionError

log = logging.getLogger(__name__)

FLASH_S = 1.8


@dataclass
class Setup:
    """Choices made on the set-up screens before a game starts."""

    game: str
    steps: list[SetupOption]
    values: dict[str, Any] = field(default_factory=dict)
    step: int = 0


class App:
    """Menus and routing. ``view()`` is what the OLED shows; ``redraw`` renders it on change."""

    def __init__(self, runtime: Runtime, journal: Journal, *, show: Callable[[View], None],
                 beep: Callable[[str], None], player_names: tuple[str, ...], stations: int,
                 detector: PressDetector, seed_source: Callable[[], int] | None = None,
                 extra_menu: list[tuple[str, Callable[[], None]]] | None = None) -> None:
        self.runtime = runtime
        self.journal = journal
        self._show = show
        self.beep = beep
        self.player_names = player_names
        self.stations = stations
        self.detector = detector
        self.new_seed = seed_source or (lambda: random.SystemRandom().randrange(2**31))
        self.extra_menu = extra_menu or []
        self.mode = "home"
        self.cursor = 0
        self.setup: Setup | None = None
        self.session: Session | None = None
        self.referee: Referee | None = None
        self.tool: Any = None  # a non-game screen with keys of its own (the scale)
        self.flash_view: View | None = None
        self._flash_timer: Any = None
        self._button_timer: Any = None
        self.listeners: list[Callable[[str, dict[str, Any]], None]] = []
        self.handlers: dict[type, Callable[[Any], None]] = {}  # other inputs, by event type
        self._resume()

    # -- start-up ---------------------------------------------------------------------------------
    def _resume(self) -> None:
        try:
            session = Session.resume(self.journal)
        except (SessionError, JournalError) as exc:
            log.error("cannot resume: %s", exc)
            self.flash("Saved game unusable", "It was closed.")
            return
        if self.journal.notice:
            self.flash("Journal was damaged", "Moved aside; see log", seconds=4.0)
        if session is not None and not session.state.is_over:
            self._enter_game(session)
            self.referee.resumed()  # type: ignore[union-attr]
            self.flash("Game resumed", f"{len(session.actions)} actions kept")

    # -- the runtime's handler -------------------------------------------------------------------
    def handle(self, event: Any) -> bool | None:
        if isinstance(event, Edge):
            presses = self.detector.edge(event)
            self._schedule_button_wake()
            for press in presses:
                self.on_press(press)
        elif isinstance(event, Press):
            self.on_press(event)
        elif type(event) in self.handlers:
            return self.handlers[type(event)](event)
        elif callable(event):
            event()
        else:
            log.warning("unknown event %r", event)

    def _schedule_button_wake(self) -> None:
        self.runtime.cancel(self._button_timer)
        wake = self.detector.next_wake()
        self._button_timer = None if wake is None else self.runtime.call_at(wake, self._wake)

    def _wake(self) -> None:
        presses = self.detector.wake(self.runtime.clock())
        self._schedule_button_wake()
        for press in presses:
            self.on_press(press)

    def redraw(self) -> None:
        self._show(self.view())

    # -- services for referees -------------------------------------------------------------------
    def flash(self, *lines: str, seconds: float = FLASH_S) -> None:
        """Show a short message over the current screen for a moment."""
        body: list[str] = []
        for line in lines:
            body += wrap(line)
        self.notice(View(title="Spielleiter", lines=tuple(body[:4])), seconds)

    def notice(self, view: View, seconds: float = FLASH_S) -> None:
        """Show ``view`` over the current screen until ``seconds`` pass or a host key is pressed."""
        self.flash_view = view
        self.runtime.cancel(self._flash_timer)
        self._flash_timer = self.runtime.call_later(seconds, self._end_flash)

    def _end_flash(self) -> None:
        self.flash_view = None

    def apply(self, action: dict[str, Any]) -> list[Any] | None:
        """Offer an action to the game: committed and returned events, or a flash and None."""
        assert self.session is not None
        try:
            events = self.session.apply(action)
        except GameError as exc:
            self.beep("error")
            self.flash(str(exc))
            return None
        except JournalError as exc:  # not saved, so not taken: the state is unchanged
            log.error("%s", exc)
            self.beep("error")
            self.flash("Cannot save!", "Not taken. Check the", "storage, then retry.")
            return None
        self._changed(events)
        return events

    def _changed(self, events: list[Any] = ()) -> None:  # type: ignore[assignment]
        """Tell listeners (the serial link) about events and the new public state."""
        if not self.listeners:
            return
        for event in events:
            self._notify("event", {"event": event.to_json()})
        self._notify("state", {"state": self.public_state()})

    def _notify(self, kind: str, payload: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            try:
                listener(kind, payload)
            except Exception:  # a listener must never break the referee
                log.exception("listener failed")

    def public_state(self) -> dict[str, Any] | None:
        if self.session is None:
            return None
        return {**self.session.state.public(), "game_id": self.session.game_id,
                "actions": len(self.session.actions)}

    # -- control from outside (the serial link), on the loop thread -------------------------------
    def start_game(self, header: Header) -> None:
        """Start a game as the set-up screens would; a running game is ended (kept, abandoned)."""
        session = Session.new(self.journal, header)  # ReplayError: nothing changed
        if self.session is not None and not self.session.state.is_over:
            log.info("game %d ended by a new game", self.session.game_id)
        self.setup = None
        self.flash_view = None
        self._enter_game(session)
        self.beep("go")
        self._changed()

    def external_action(self, action: dict[str, Any]) -> list[Any]:
        """Apply an action that did not come from the buttons; GameError/JournalError propagate."""
        if self.session is None:
            raise GameError("no game is running")
        events = self.session.apply(action)
        assert self.referee is not None
        self.referee.react(events)
        self._changed(events)
        return events

    def call_later(self, delay: float, callback: Callable[[], None]) -> Any:
        return self.runtime.call_later(delay, callback)

    def cancel(self, timer: Any) -> None:
        self.runtime.cancel(timer)

    def station_of(self, seat: int) -> int | None:
        """The wired station a seat (0-based) plays at, or None for the host panel (hot seat)."""
        return seat if seat < self.stations else None

    # -- presses ---------------------------------------------------------------------------------
    def on_press(self, press: Press) -> None:
        part, _, key = press.name.partition(".")
        if part == "host":
            self.beep("click")
            if self.flash_view is not None and not press.long:
                self._end_flash()
                if key != "back":
                    return
            if press.long and key == "back":
                self.undo()
                return
            self.on_host(key)
        elif part.startswith("s") and part[1:].isdigit():
            station = int(part[1:]) - 1
            if self.mode == "game" and self.referee is not None:
                self.referee.on_station(station, key)

    def on_host(self, key: str) -> None:
        handler = getattr(self, f"_host_{self.mode}")
        handler(key)

    def _move(self, key: str, count: int) -> None:
        if key == "next":
            self.cursor = (self.cursor + 1) % count

    # home ----------------------------------------------------------------------------------------
    def _home_items(self) -> list[tuple[str, Callable[[], None]]]:
        items = [(GAMES[name].title, lambda name=name: self._begin_setup(name))
                 for name in REFEREES]
        return items + self.extra_menu

    def open_tool(self, tool: Any) -> None:
        """Show a tool (``on_host(key) -> bool`` and ``view()``) until it lets BACK through."""
        self.tool, self.mode = tool, "tool"

    def _host_tool(self, key: str) -> None:
        if not self.tool.on_host(key):
            self.tool, self.mode = None, "home"

    def _host_home(self, key: str) -> None:
        items = self._home_items()
        self._move(key, len(items))
        if key == "ok":
            items[self.cursor][1]()

    def _begin_setup(self, game: str) -> None:
        info = GAMES[game]
        players = SetupOption("players", "Players", tuple(range(info.min_players,
                                                                info.max_players + 1)),
                              min(4, info.max_players))
        steps = [players, *REFEREES[game].SETUP]
        self.setup = Setup(game, steps, {o.key: o.default for o in steps})
        self.mode = "setup"

    # setup ---------------------------------------------------------------------------------------
    def _host_setup(self, key: str) -> None:
        setup = self.setup
        assert setup is not None
        if key == "back":
            if setup.step == 0:
                self.mode, self.setup, self.cursor = "home", None, 0
            else:
                setup.step -= 1
            return
        if setup.step == len(setup.steps):
            if key == "ok":
                self._start_game(setup)
            return
        option = setup.steps[setup.step]
        if key == "next":
            choices = option.choices
            index = choices.index(setup.values[option.key])
            setup.values[option.key] = choices[(index + 1) % len(choices)]
        elif key == "ok":
            setup.step += 1

    def _start_game(self, setup: Setup) -> None:
        n = setup.values["players"]
        options = {k: v for k, v in setup.values.items() if k != "players"}
        header = Header(setup.game, self.player_names[:n], options, self.new_seed())
        try:
            session = Session.new(self.journal, header)
        except ReplayError as exc:
            self.flash(str(exc))
            return
        self.setup = None
        self._enter_game(session)
        self.beep("go")
        self._changed()

    def _enter_game(self, session: Session) -> None:
        self._close_referee()
        self.session = session
        self.referee = REFEREES[session.header.game](self, session)
        self.mode = "game"
        self.cursor = 0

    # game ----------------------------------------------------------------------------------------
    def _host_game(self, key: str) -> None:
        assert self.referee is not None
        if self.referee.on_host(key):
            return
        if key == "back":
            self.mode, self.cursor = "menu", 0
        elif key == "ok" and self.session is not None and self.session.state.is_over:
            self.close_game()

    def _close_referee(self) -> None:
        """Stop the referee's timers (countdown, pages) before it is replaced or dropped."""
        if self.referee is not None:
            self.referee.close()
            self.referee = None

    def close_game(self) -> None:
        self._close_referee()
        self.session = None
        self.mode, self.cursor = "home", 0
        self._notify("state", {"state": None})

    MENU = ("Continue", "Undo last action", "End this game")

    def _host_menu(self, key: str) -> None:
        self._move(key, len(self.MENU))
        if key == "back" or (key == "ok" and self.cursor == 0):
            self.mode = "game"
        elif key == "ok" and self.cursor == 1:
            self.mode = "game"
            self.undo()
        elif key == "ok" and self.cursor == 2:
            self.mode, self.cursor = "confirm_end", 0

    def _host_confirm_end(self, key: str) -> None:
        if key == "ok" and self.session is not None:
            if not self.session.state.is_over:
                self.session.abandon()
            self.close_game()
            self.flash("Game ended", "It stays in the journal.")
        elif key == "back":
            self.mode = "menu"

    def undo(self) -> dict[str, Any] | None:
        """Take back the last action of the running game; returns it (None: nothing to undo)."""
        if self.session is None or self.mode not in ("game", "menu"):
            self.flash("Nothing to undo")
            return None
        try:
            undone = self.session.undo()
        except JournalError as exc:
            log.error("%s", exc)
            self.flash("Cannot save!", "Undo not done.")
            return None
        if undone is None:
            self.flash("Nothing to undo")
            return None
        self.mode = "game"
        assert self.referee is not None
        self.referee.after_undo()
        who = undone.get("player")
        self.flash("Undone:", f"{who}'s last action" if who else "the last action")
        self._changed()
        return undone

    # -- what the screen shows -------------------------------------------------------------------
    def public_view(self) -> View:
        """The screen as anyone may see it (the serial link): a hot-seat player's card stays
        on the box."""
        if self.mode == "game" and self.flash_view is None and self.referee is not None \
                and self.referee.private():
            return View("Hot seat", ("(a player is choosing", "in private)"))
        return self.view()

    def view(self) -> View:
        if self.flash_view is not None:
            return self.flash_view
        if self.mode == "home":
            items = self._home_items()
            return View("Spielleiter", tuple(name for name, _ in items), cursor=self.cursor,
                        footer="NEXT move  OK choose")
        if self.mode == "setup":
            return self._setup_view()
        if self.mode == "tool":
            return self.tool.view()
        if self.mode == "menu":
            return View("Game menu", self.MENU, cursor=self.cursor, footer="NEXT move  OK choose")
        if self.mode == "confirm_end":
            return View("End this game?", ("The game is kept in", "the journal."),
                        footer="OK end  BACK keep")
        assert self.referee is not None
        return self.referee.view()

    def _setup_view(self) -> View:
        setup = self.setup
        assert setup is not None
        title = GAMES[setup.game].title
        if setup.step == len(setup.steps):
            n = setup.values["players"]
            lines = [f"{n} players"]
            lines += [f"{o.label}: {o.show(setup.values[o.key])}" for o in setup.steps[1:]]
            hot = n - min(n, self.stations)
            lines.append(f"Seats {self.stations + 1}-{n}: host panel" if hot > 1 else
                         f"Seat {n}: host panel" if hot == 1 else "Every seat: buttons")
            return View(title, tuple(lines), footer="OK start  BACK change")
        option = setup.steps[setup.step]
        lines = [option.label]
        if option.ruling:
            lines.append(f"(rule {option.ruling})")
        return View(title, tuple(lines), big=option.show(setup.values[option.key]),
                    footer="NEXT change  OK next")
