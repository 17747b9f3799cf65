"""The host panel's world: a stack of screens (``ui``), the running game, and the table's rules
for screens that every screen shares.

Button edges become ``Press``es (``inputs``) for the top screen; pans report ``Weight``s to it.
The App owns the running ``Session`` and is what screens and modes may ask things of (``Shell``,
``Table``). After a screen changes by itself (a timer, another station, a weight, the link), short
presses are ignored for ``guard_s``; a screen that a player's own press opened has no guard for
that player's next press, and a press the guard ignores is shown as seen. Pages wait for OK
unless the table chose a pace in Settings.

The App is the one object screens (``Shell``) and modes (``Table``) ask things of, so its face
is long: besides its own work it hands on what the screen stack, the overlay and the settings
do (one line each), and that face is why the module runs past 400 lines.
"""

from __future__ import annotations

import logging
import random
from dataclasses import replace
from typing import Any, Callable, Sequence

from ..drivers.buttons import Edge, PressDetector
from ..games import GAMES, GameError
from . import i18n
from .journal import settings as settings_store
from .pans import warm_up
from .pans.scales import TableScales
from .broadcast import Broadcast
from .journal.header import Header
from .i18n import _, ngettext
from .inputs import ANYONE, HOST, Inputs, Press, Weight
from .journal.store import Journal, JournalError
from .modes import GAME_MODES
from .modes.base import ModeInfo, Referee
from .modes.setup import remember
from .journal.notices import notice_lines
from .screen.overlay import FLASH_S, Overlay
from .replay import ReplayError
from .runtime import Runtime
from .screen.render import View
from .screen.saver import ScreenSaver
from .session import Session
from .ui.game import GameMenuScreen, GameScreen, StandingsScreen
from .ui.home import HomeScreen
from .ui.screen import Question, Screen
from .ui.stack import ScreenStack
from .ui.start import StartScreen
from .ui.tool import ToolScreen

log = logging.getLogger(__name__)

GUARD_S = 0.4


def _screen_key(view: View) -> tuple[Any, ...]:
    """What tells screens apart for the guard (a moved cursor or a changed count is the same)."""
    return (view.title, view.footer, view.blank)


class App:
    """The screens (``screens``, a ``ScreenStack``) and the game. ``view()`` is what the OLED
    shows; ``redraw`` renders it."""

    def __init__(self, runtime: Runtime, journal: Journal, *, show: Callable[[View], None],
                 beep: Callable[[str], None], player_names: tuple[str, ...],
                 stations: tuple[str, ...], detector: PressDetector,
                 seed_source: Callable[[], int] | None = None,
                 scales: TableScales | None = None,
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
        self.warm_up = warm_up.Notice(runtime.call_later)  # "Scales warming up" (warm_up.py)
        self._sound = sound
        self.saver = ScreenSaver(runtime.call_later, runtime.cancel, power)
        self.settings = settings_store.Settings()
        self.language = language if language in settings_store.LANGUAGES else None
        self._defaults = settings  # the config's: what a setting never saved reads as
        loaded = settings_store.load(journal, settings)
        self._apply(replace(loaded, language=self.language) if self.language else loaded)
        self.inputs = Inputs(detector, runtime.call_at, runtime.cancel, runtime.clock,
                             self.on_press, guard_s)
        self.new_seed = seed_source or (lambda: random.SystemRandom().randrange(2**31))
        self.session: Session | None = None
        self.overlay = Overlay(runtime.call_later, runtime.cancel)
        self._after_press: tuple[tuple[Any, ...], Any] | None = None  # (screen, press source)
        self._seen: tuple[Any, ...] | None = None  # the last screen shown without a flash over it
        self.listeners = Broadcast()
        self.screens = ScreenStack(HomeScreen(self), self.inputs.set_holds)
        runtime.route(Edge, self.inputs.on_edge)
        runtime.route(Weight, self.on_weight)
        runtime.screen = self
        self._resume()

    # -- the stack, as screens (``Shell``), the service, the simulator and tests ask for it --------
    @property
    def top(self) -> Screen:
        return self.screens.top

    @property
    def mode(self) -> str:
        return self.screens.mode

    @property
    def cursor(self) -> int | None:
        return self.screens.cursor

    @property
    def game_screen(self) -> GameScreen | None:
        return self.screens.game_screen

    @property
    def referee(self) -> Referee | None:
        return self.screens.referee

    def push(self, screen: Screen) -> None:
        self.screens.push(screen)

    def pop(self) -> None:
        self.screens.pop()

    def replace(self, screen: Screen) -> None:
        self.screens.replace(screen)

    def home(self) -> None:
        self.screens.home()

    def set_holds(self) -> None:
        self.screens.set_holds()

    # -- start-up ---------------------------------------------------------------------------------
    def _resume(self) -> None:
        session = Session.resume(self.journal, playable=GAME_MODES)  # never raises for rows
        if session is not None and not session.state.is_over:
            self._enter_game(session)
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

    # -- redrawing and the guard -------------------------------------------------------------------
    def redraw(self) -> None:
        view = self.view()
        key = _screen_key(view)
        opened_by = None  # a screen that changed by itself guards against every press
        if self._after_press is not None and self._after_press[0] == key:
            # The presser's own screen: no guard for them. In a game each station is another
            # player; elsewhere one person works the box (the letter wheel takes a station's
            # keys too), so no press is guarded.
            opened_by = self._after_press[1] if isinstance(self.top, GameScreen) else ANYONE
        self._after_press = None
        self.inputs.shown(key, opened_by)
        view = self.overlay.mark(view)
        if self.flash_view is None:  # a notice over the screen is read as it is
            self._seen = key
            view = self.warm_up.mark(view, self.top, self.scales)
        self._show(view)

    # -- services for screens and modes ------------------------------------------------------------
    @property
    def flash_view(self) -> View | None:
        """The message over the current screen (``overlay``), if any."""
        return self.overlay.view

    def flash(self, *lines: str, seconds: float = FLASH_S) -> None:
        """Show a short message over the current screen for a moment."""
        self.overlay.flash(*lines, seconds=seconds)

    def notice(self, view: View, seconds: float = FLASH_S) -> None:
        """Show ``view`` over the current screen until ``seconds`` pass or a key is pressed."""
        self.overlay.notice(view, seconds)

    def refuse_station(self) -> None:
        """A station key on a screen that is the host panel's: say so, change nothing."""
        self.beep("error")
        self.notice(View(_("Buttons on the box"), (_("Stations: in games"),), big="NEXT/OK"))

    def apply(self, action: dict[str, Any],
              notes: Sequence[tuple[str, dict[str, Any]]] = ()) -> list[Any] | None:
        """Offer an action to the game (with the referee's ``notes``, kept in its commit):
        committed and returned events, or a flash and None."""
        assert self.session is not None
        try:
            events = self.session.apply(action, notes)
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

    def _changed(self, events: list[Any] | tuple[()] = ()) -> None:
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
            return i18n.seat_name(self.station_names[station])
        return _("Station {n}").format(n=station + 1)

    def page_seconds(self, seconds: float) -> float | None:
        return self.settings.page_seconds(seconds)

    def change_settings(self, settings: settings_store.Settings) -> None:
        """Save and apply the table's settings. A language given for this run only (``--lang``)
        stays this run's and is not saved with another setting; choosing a language saves it."""
        saved = settings
        if self.language is not None:
            if settings.language == self.settings.language:
                saved = replace(settings, language=settings_store.load(
                    self.journal, self._defaults).language)
            else:
                self.language = None  # the table chose a language on the box: it is theirs
        try:
            settings_store.save(self.journal, saved)
        except JournalError as exc:
            log.error("%s", exc)
            self.flash(_("Cannot save!"), _("Setting not changed."))
            return
        self._apply(settings)

    def _apply(self, settings: settings_store.Settings) -> None:
        """Make the settings take effect: language, sound, brightness, screen sleep."""
        self.settings = settings
        i18n.use(settings.language)
        self._sound(settings.sound)
        self.saver.configure(settings.contrast, settings.dim_after_s)

    # -- the game's life ----------------------------------------------------------------------------
    @property
    def paused(self) -> bool:
        """A game waits while the table uses the home menu (its referee is closed)."""
        return self.session is not None and self.game_screen is None

    def open(self, mode: ModeInfo, choice: str = "new") -> None:
        """Open a home-menu entry: a game's own menu with the cursor on ``choice``, or a tool."""
        if mode.game is not None:
            self.push(StartScreen(self, mode, choice))
        else:
            self.open_tool(mode)

    def open_tool(self, mode: ModeInfo) -> None:
        if mode.open is None:
            return
        if mode.shows_grams and self.secret_grams():
            self.beep("error")
            self.notice(View(_(mode.title), (_("A game is waiting:"), _("its grams are secret."),
                                             _("End it first."))), seconds=4.0)
            return
        self.push(ToolScreen(self, mode.open(self)))

    def secret_grams(self) -> bool:
        """A game that keeps grams secret (a paused Trödel) has not ended: no tool may show
        what lies on its pans, on the screen or over the link."""
        if self.session is None or self.session.state.is_over:
            return False
        info = GAMES.get(self.session.header.game)
        return info is not None and any(m.private for m in info.measurements.values())

    def start_game(self, header: Header) -> None:
        """Start a game (from the set-up screens or the link): whatever was open closes, and a
        running game is ended (kept, abandoned). ReplayError or JournalError: nothing changed."""
        if header.game not in GAME_MODES:
            raise ReplayError(f"this box cannot referee {header.game!r} yet")
        session = Session.new(self.journal, header)  # ReplayError: nothing changed
        if self.session is not None and not self.session.state.is_over:
            log.info("game %d ended by a new game", self.session.game_id)
        self.overlay.end()
        self._enter_game(session, resumed=False)
        # "Play again" repeats the last game however it began: set-up, the link, a script
        remember(self.journal, header.game, header.players, {**header.options, **header.table})
        self.beep("go")
        self._changed()

    def _enter_game(self, session: Session, resumed: bool = True) -> None:
        """Show ``session``'s game: everything open above the home menu closes first (a tool
        left armed must never act on a game's pieces)."""
        self.home()
        self.session = session
        mode = GAME_MODES[session.header.game]
        assert mode.referee is not None
        referee = mode.referee(self, session)
        self.push(GameScreen(self, mode, referee))
        if resumed:
            referee.resumed()

    def continue_game(self) -> None:
        """Back into the waiting game, the way the box resumes one after a power cut."""
        assert self.session is not None
        self._enter_game(self.session)

    def pause_game(self) -> None:
        """Leave the game for the home menu; it waits, as after a power cut, its timers
        stopped. Starting another game ends it after one question (kept in the journal)."""
        self.home()
        self.screens.stack[0].cursor = 0

    def close_game(self) -> None:
        """Back to the home menu, its cursor on the game just closed (OK: its menu, Play
        again)."""
        game = self.session.header.game if self.session is not None else None
        self.home()
        self.session = None
        home = self.screens.stack[0]
        names = [mode.name for mode in getattr(home, "modes", ())]
        home.cursor = names.index(game) if game in names else 0
        self.listeners.notify("state", {"state": None})

    def end_game(self) -> None:
        """End the running game (kept in the journal; it cannot be continued)."""
        if self.session is not None and not self.session.state.is_over:
            self.session.abandon()
        self.close_game()
        self.flash(_("Game ended"))

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

    def undo(self) -> dict[str, Any] | None:
        """Take back the last action of the running game; returns it (None: nothing to undo)."""
        game = self.game_screen
        if self.session is None or game is None:
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
        while self.top is not game:
            self.pop()
        game.referee.after_undo()
        if not game.referee.says_what_to_put_back():
            who = undone.get("player")
            self.flash(_("Undone:"), _("{player}'s last action").format(player=who) if who
                       else _("the last action"))
        self._changed()
        return undone

    # -- presses and weights ----------------------------------------------------------------------
    def on_press(self, press: Press) -> None:
        if self.saver.activity():
            return  # the screen was off: this press only wakes it
        if self.inputs.guarded(press):
            log.debug("%s ignored: the screen changed just before", press.name)
            self.overlay.seen(self.inputs.guard_left())
            return
        if press.source == HOST:
            self.beep("click")
        if self.flash_view is not None:
            hidden = _screen_key(self.top.view()) != self._seen
            self.overlay.end()  # the message goes; the key still does what it says, unless
            if hidden and not press.hold and not self._simultaneous(press):  # it hides a
                # screen not seen yet (an OK on "Undone" took an unseen action, one on "Game
                # ended" opened a game); a long press is meant, a choice is never lost
                self._after_press = (_screen_key(self.view()), press.source)
                return
        if press.hold and press.name == "host.back" and self.game_screen is not None \
                and isinstance(self.top, (GameScreen, GameMenuScreen, StandingsScreen,
                                          Question)):
            self.undo()  # elsewhere a long BACK is the screen's own BACK (the wheel: give up)
        else:
            self.top.on_press(press)
        self._after_press = (_screen_key(self.view()), press.source)

    def _simultaneous(self, press: Press) -> bool:
        """A station's key while several players choose at once: never held back by a message
        (another station's refusal must not cost this player's choice)."""
        if press.source == HOST or self.session is None or self.game_screen is None:
            return False
        return len(self.session.state.waiting_for()) > 1

    def on_weight(self, weight: Weight) -> bool:
        """A pan's news for the open game (its referee listens to the pans even under its menu:
        a stack that falls then still falls) and for the top screen; False when nothing
        visible changed."""
        if weight.kind in ("moving", "placed", "removed"):
            self.saver.activity()
        game, top = self.game_screen, self.top
        changed = game.on_weight(weight) if game is not None else False
        if top is not game:
            changed = top.on_weight(weight) or changed
        return changed

    # -- what the screen shows -------------------------------------------------------------------
    def public_view(self) -> View:
        """The screen as anyone may see it (the serial link): a hot-seat player's card stays
        on the box."""
        if self.flash_view is None and self.top.private():
            return View(_("Hot seat"), (_("(a player is choosing"), _("in private)")))
        return self.view()

    def view(self) -> View:
        if self.flash_view is not None:
            return self.flash_view
        return self.top.view()
