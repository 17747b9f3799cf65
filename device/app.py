"""The host panel's world: the home menu, set-up, the active mode, the game menu and undo.

The App is the runtime's handler. Button edges become ``Press``es (``inputs``), pans report
``Weight``s; both go to the active mode: a game's referee or a tool from the registry. It owns the
running ``Session``, shows short messages, and keeps the table's rules for screens that every mode
shares: after a screen changes, presses are ignored for ``guard_s``, and pages wait for OK unless
the table chose a pace in Settings.
"""

from __future__ import annotations

import logging
import random
from dataclasses import replace
from typing import Any, Callable

from ..drivers.buttons import Edge, PressDetector
from ..games import GameError
from . import i18n, settings_store
from .broadcast import Broadcast
from .i18n import _, ngettext
from .inputs import Inputs, Press, Weight
from .header import Header
from .journal import Journal, JournalError
from .modes import GAME_MODES, ModeInfo
from .modes.base import Mode, Referee
from .modes import menus, start as start_flow
from .modes.setup import SetupFlow
from .modes.start import StartMenu
from .notices import notice_lines
from .replay import ReplayError
from .runtime import Runtime
from .screensaver import ScreenSaver
from .screens import View, wrap
from .session import Session

log = logging.getLogger(__name__)

FLASH_S = 1.8
GUARD_S = 0.4


class App:
    """Menus and routing. ``view()`` is what the OLED shows; ``redraw`` renders it on change."""

    def __init__(self, runtime: Runtime, journal: Journal, *, show: Callable[[View], None],
                 beep: Callable[[str], None], player_names: tuple[str, ...],
                 stations: tuple[str, ...], detector: PressDetector,
                 seed_source: Callable[[], int] | None = None, scales: Any = None,
                 settings: settings_store.Settings | None = None,
                 language: str | None = None,
                 guard_s: float = GUARD_S,
                 power: Callable[[int | None], None] = lambda contrast: None,
                 sound: Callable[[str], None] = lambda level: None) -> None:
        self.runtime = runtime
        self.journal = journal
        self._show = show
        self.beep = beep
        self.player_names = player_names
        self.station_names = stations
        self.stations = len(stations)
        self.scales = scales
        self._sound = sound
        self.saver = ScreenSaver(runtime.call_later, runtime.cancel, power)
        self.settings = settings_store.Settings()
        loaded = settings_store.load(journal, settings)
        self._saved_language: str | None = None  # under --lang: the language to keep saving
        if language in settings_store.LANGUAGES:  # --lang: this run's language, not saved
            self._saved_language = loaded.language
            loaded = replace(loaded, language=language)
        self._apply(loaded)
        self.inputs = Inputs(detector, runtime.call_at, runtime.cancel, runtime.clock,
                             self.on_press, guard_s)
        self.new_seed = seed_source or (lambda: random.SystemRandom().randrange(2**31))
        self.mode = "home"  # home, start, setup, game, menu, standings, confirm_end, tool
        self.cursor = 0
        self.start: StartMenu | None = None
        self.setup: SetupFlow | None = None
        self.session: Session | None = None
        self.referee: Referee | None = None
        self.tool: Mode | None = None
        self.flash_view: View | None = None
        self.standings_at = 0  # the standings' line at the cursor (more players than lines)
        self._flash_timer: Any = None
        self.listeners = Broadcast()
        self.handlers: dict[type, Callable[[Any], Any]] = {}  # other inputs, by event type
        self._resume()

    # -- start-up ---------------------------------------------------------------------------------
    def _resume(self) -> None:
        session = Session.resume(self.journal, playable=GAME_MODES)  # never raises for rows
        if session is not None and not session.state.is_over:
            self._enter_game(session)
            self.referee.resumed()  # type: ignore[union-attr]
            n = len(session.actions)
            self.flash(_("Game resumed"),
                       ngettext("{n} action kept", "{n} actions kept", n).format(n=n))
        self.show_notices()

    def show_notices(self) -> None:
        """Tell the table once what went wrong with the journal (``notices``)."""
        lines = notice_lines(self.journal.take_notices())
        if lines:
            self.beep("error")
            self.flash(*lines[:3], seconds=6.0)

    # -- the runtime's handler -------------------------------------------------------------------
    def handle(self, event: Any) -> bool | None:
        if isinstance(event, Edge):
            self.inputs.on_edge(event)
        elif isinstance(event, Press):
            self.on_press(event)
        elif isinstance(event, Weight):
            return self.on_weight(event)
        elif type(event) in self.handlers:
            return self.handlers[type(event)](event)
        elif callable(event):
            event()
        else:
            log.warning("unknown event %r", event)
        return None

    def redraw(self) -> None:
        view = self.view()
        self.inputs.shown((view.title, view.footer, view.blank))
        self._show(view)

    # -- services for modes ----------------------------------------------------------------------
    def flash(self, *lines: str, seconds: float = FLASH_S) -> None:
        """Show a short message over the current screen for a moment."""
        body: list[str] = []
        for line in lines:
            body += wrap(line)
        self.notice(View(title="Spielleiter", lines=tuple(body[:4])), seconds)

    def notice(self, view: View, seconds: float = FLASH_S) -> None:
        """Show ``view`` over the current screen until ``seconds`` pass or a key is pressed."""
        self.flash_view = view
        self.runtime.cancel(self._flash_timer)
        self._flash_timer = self.runtime.call_later(seconds, self._end_flash)

    def _end_flash(self) -> None:
        self.runtime.cancel(self._flash_timer)
        self.flash_view = None

    def apply(self, action: dict[str, Any]) -> list[Any] | None:
        """Offer an action to the game: committed and returned events, or a flash and None."""
        assert self.session is not None
        try:
            events = self.session.apply(action)
        except GameError as exc:
            self.beep("error")
            self.flash(i18n.refusal(exc))
            return None
        except JournalError as exc:  # not saved, so not taken: the state is unchanged
            log.error("%s", exc)
            self.beep("error")
            self.flash(_("Cannot save!"), _("Not taken. Check the"), _("storage, then retry."))
            return None
        self._changed(events)
        return events

    def _changed(self, events: list[Any] = ()) -> None:  # type: ignore[assignment]
        """Tell listeners (the serial link) about events and the new public state."""
        self.listeners.changed(events, self.public_state)

    def public_state(self) -> dict[str, Any] | None:
        if self.session is None:
            return None
        return {**self.session.state.public(), "game_id": self.session.game_id,
                "actions": len(self.session.actions)}

    def call_later(self, delay: float, callback: Callable[[], None]) -> Any:
        return self.runtime.call_later(delay, callback)

    def cancel(self, timer: Any) -> None:
        self.runtime.cancel(timer)

    def station_of(self, seat: int) -> int | None:
        """The wired station a seat (0-based) plays at, or None for the host panel (hot seat)."""
        return seat if seat < self.stations else None

    def station_name(self, station: int) -> str:
        """A station's name from the config ("Red"), as its players know it."""
        if 0 <= station < self.stations:
            return self.station_names[station]
        return _("Station {n}").format(n=station + 1)

    def page_seconds(self, seconds: float) -> float | None:
        return self.settings.page_seconds(seconds)

    def change_settings(self, settings: settings_store.Settings) -> None:
        saved, keep = settings, self._saved_language
        if keep is not None and settings.language == self.settings.language:
            saved = replace(settings, language=keep)  # --lang stays this run's
        try:
            settings_store.save(self.journal, saved)
        except JournalError as exc:
            log.error("%s", exc)
            self.flash(_("Cannot save!"), _("Setting not changed."))
            return
        if keep is not None and saved is settings:
            self._saved_language = None  # a language chosen on the box is the table's own
        self._apply(settings)

    def _apply(self, settings: settings_store.Settings) -> None:
        """Make the settings take effect: language, sound, brightness, screen sleep."""
        self.settings = settings
        i18n.use(settings.language)
        self._sound(settings.sound)
        self.saver.configure(settings.contrast, settings.dim_after_s)

    # -- control from outside (the serial link), on the loop thread -------------------------------
    def start_game(self, header: Header) -> None:
        """Start a game (from the set-up screens or the link); a running game is ended (kept,
        abandoned). ReplayError or JournalError: nothing changed."""
        if header.game not in GAME_MODES:
            raise ReplayError(f"this box cannot referee {header.game!r} yet")
        session = Session.new(self.journal, header)  # ReplayError: nothing changed
        if self.session is not None and not self.session.state.is_over:
            log.info("game %d ended by a new game", self.session.game_id)
        self.setup = None
        self._end_flash()
        self._enter_game(session)
        self.beep("go")
        self._changed()

    def external_action(self, action: dict[str, Any]) -> list[Any]:
        """Apply an action that did not come from the buttons; GameError/JournalError propagate."""
        if self.session is None:
            raise GameError("no game is running")
        if self.paused:  # a move from the link brings the waiting game back on the screen
            self.continue_game()
        events = self.session.apply(action)
        assert self.referee is not None
        self.referee.on_events(events)
        self._changed(events)
        return events

    # -- presses and weights ---------------------------------------------------------------------
    def on_press(self, press: Press) -> None:
        if self.saver.activity():
            return  # the screen was off: this press only wakes it
        if self.inputs.guarded(press):
            log.debug("%s ignored: the screen changed just before", press.name)
            return
        if press.source == "host":
            self.beep("click")
        if self.flash_view is not None:
            self._end_flash()  # the message goes; the key still does what it says
        if press.hold and press.name == "host.back" and (
                self.mode in menus.KEYS or self.mode == "game"):
            self.undo()  # elsewhere a long BACK is the screen's own BACK (the wheel: give up)
            return
        if self.mode == "game" and self.referee is not None:
            if not self.referee.on_press(press):
                self._game_key(press.key)
        elif self.mode == "tool" and self.tool is not None:
            if not self.tool.on_press(press):
                self._set_tool(None)
            else:  # a tool's long keys may change with its screen (the letter wheel)
                self.set_holds()
        elif self.mode == "setup":
            start_flow.setup_key(self, press)
        elif press.source == "host":
            if self.mode == "home":
                menus.home_key(self, press.key)
            elif self.mode == "start":
                start_flow.start_key(self, press.key)
            else:
                menus.KEYS[self.mode](self, press.key)
        else:
            self.refuse_station()

    def refuse_station(self) -> None:
        """A station key on a screen that is the host panel's: say so, change nothing."""
        self.beep("error")
        self.notice(View(_("Buttons on the box"), (_("Stations: in games"),), big="NEXT/OK"))

    def on_weight(self, weight: Weight) -> bool:
        """A pan's news for the active mode; False when nothing visible changed."""
        if weight.kind in ("moving", "placed", "removed"):
            self.saver.activity()
        active = self.referee if self.mode == "game" else self.tool
        return bool(active is not None and active.on_weight(weight))

    def set_holds(self) -> None:
        active = self.referee if self.mode == "game" else self.tool
        self.inputs.set_holds(active.holds() if active is not None else ())

    # home ----------------------------------------------------------------------------------------
    @property
    def paused(self) -> bool:
        """A game waits while the table uses the home menu (its referee is closed)."""
        return self.session is not None and self.referee is None

    def pause_game(self) -> None:
        """Leave the game for the home menu; it waits, as after a power cut, its timers
        stopped. Starting another game ends it (kept in the journal, as always)."""
        self._close_referee()
        self.mode, self.cursor = "home", 0
        self.set_holds()

    def continue_game(self) -> None:
        """Back into the waiting game, the way the box resumes one after a power cut."""
        assert self.session is not None
        self._enter_game(self.session)
        self.referee.resumed()  # type: ignore[union-attr]

    def open(self, mode: ModeInfo, choice: str = "new") -> None:
        """Open a home-menu entry: a game's own menu (new game, play again, rules) with the cursor
        on ``choice``, or a tool."""
        if mode.game is not None:
            start_flow.open_menu(self, mode, choice)
        elif mode.open is not None:
            self._set_tool(mode.open(self))

    def _set_tool(self, tool: Mode | None) -> None:
        if self.tool is not None:
            self.tool.close()
        self.tool = tool
        self.mode = "tool" if tool is not None else "home"
        self.set_holds()

    def _enter_game(self, session: Session) -> None:
        self._close_referee()
        self.session = session
        mode = GAME_MODES[session.header.game]
        assert mode.referee is not None
        self.referee = mode.referee(self, session)
        self.mode = "game"
        self.cursor = 0
        self.set_holds()

    # game ----------------------------------------------------------------------------------------
    def _game_key(self, key: str) -> None:
        """A host key the referee left: BACK opens the game menu; OK after the end opens the
        game's own menu at "Play again"."""
        if key == "back":
            self.mode, self.cursor = "menu", 0
        elif key == "ok" and self.session is not None and self.session.state.is_over:
            mode = GAME_MODES[self.session.header.game]
            self.close_game()
            self.open(mode, "again")

    def _close_referee(self) -> None:
        """Stop the referee's timers (countdown, pages) before it is replaced or dropped."""
        if self.referee is not None:
            self.referee.close()
            self.referee = None

    def close_game(self) -> None:
        self._close_referee()
        self.session = None
        self.mode, self.cursor = "home", 0
        self.set_holds()
        self.listeners.notify("state", {"state": None})

    def undo(self) -> dict[str, Any] | None:
        """Take back the last action of the running game; returns it (None: nothing to undo)."""
        if self.session is None or self.mode not in ("game", "menu"):
            self.flash(_("Nothing to undo"))
            return None
        try:
            undone = self.session.undo()
        except JournalError as exc:
            log.error("%s", exc)
            self.flash(_("Cannot save!"), _("Undo not done."))
            return None
        if undone is None:
            self.flash(_("Nothing to undo"))
            return None
        self.mode = "game"
        assert self.referee is not None
        self.referee.after_undo()
        if not self.referee.says_what_to_put_back():
            who = undone.get("player")
            self.flash(_("Undone:"), _("{player}'s last action").format(player=who) if who
                       else _("the last action"))
        self._changed()
        return undone

    # -- what the screen shows -------------------------------------------------------------------
    def public_view(self) -> View:
        """The screen as anyone may see it (the serial link): a hot-seat player's card stays
        on the box."""
        if self.mode == "game" and self.flash_view is None and self.referee is not None \
                and self.referee.private():
            return View(_("Hot seat"), (_("(a player is choosing"), _("in private)")))
        return self.view()

    def view(self) -> View:
        if self.flash_view is not None:
            return self.flash_view
        if self.mode in menus.VIEWS:
            return menus.VIEWS[self.mode](self)
        active = {"start": self.start, "setup": self.setup, "tool": self.tool}.get(
            self.mode, self.referee)
        assert active is not None
        return active.view()
