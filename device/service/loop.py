"""``spielleiter run``: the device as a systemd service (``Type=notify``, watchdog, clean stop).

Start-up: read the config and pick the state directory (``paths.find_config``,
``paths.find_state_dir``), build the box on the real hardware, then send ``READY=1``. An OLED
that does not answer is replaced by luma's ``dummy`` device: the referee keeps working without a
screen and says so in ``STATUS=`` and the log.

Watchdog: see ``watchdog.Watchdog`` (pings from a runtime timer on the loop thread).

Self-test: once the box is up (``selftest=True``, as ``run_service`` does), the parts it already
opened are judged without opening anything twice (``probe.BoxProbe``): the readers' counters
over one second after they settled, the OLED taking the self-test screen, buttons held, the
link up. The result goes to the journal (note ``selftest``), the OLED (a "Self-test" screen for
a few seconds) and ``STATUS=``; a failed part is only reported, the referee carries on without
it.

Stopping: SIGTERM and SIGINT only post ``runtime.stop()``. The loop runs on its own thread while
the main thread waits for it, so the handler (which Python runs on the main thread) never
interrupts code that holds the runtime queue's lock. When the loop has ended: a goodbye frame,
``STOPPING=1``, the box closed (every accepted action is already committed), exit status 0.
"""

from __future__ import annotations

import functools
import logging
import os
import signal
import sys
import threading
import time
import warnings
from pathlib import Path
from typing import Any, Callable, Mapping

from ...drivers.display import open_device
from ...games import GAMES
from ..config.board import Board
from ..box import Box
from ..config.core import Config, ConfigError
from ..config.paths import find_config, find_state_dir, load_config
from ..i18n import N_, _, ngettext
from ..i18n import use as use_language
from ..journal.timebase import TimeSource
from ..runtime import Runtime
from ..screen.render import View
from .check_cells import WARMUP_S, WINDOW_S
from .notify import Notifier
from .parts import CELLS, GPIO, OLED, Parts
from .probe import BoxProbe
from .report import FAIL, Report, part_name
from .watchdog import Watchdog

log = logging.getLogger(__name__)

SIM_FRAME = "last-frame.png"

# A box factory builds the box for a config and state directory and returns notes for STATUS=
# (for instance "no OLED"); ``run_service`` uses the real hardware or, with ``sim``, MockFactory.
BoxFactory = Callable[[Config, Path], "tuple[Box, list[str]]"]


# -- building the box -----------------------------------------------------------------------------
def open_display(config: Config) -> tuple[Any, str | None]:
    """The configured OLED, or luma's dummy device and a note when it cannot be opened."""
    parts = Parts(config)
    device = parts.display()
    return device, (f"no OLED ({parts.missing[OLED]})" if OLED in parts.missing else None)


def hardware_box(config: Config, state_dir: Path, language: str | None = None,
                 parts: Parts | None = None) -> tuple[Box, list[str]]:
    """The box on its real parts (``[hardware] simulated = true``: the simulated box): the
    header's GPIO chip found by its label, the configured OLED; a part that is missing is
    stood in for and tried again while the box referees (``parts.Parts``)."""
    if config.hardware.simulated:
        return sim_box(config, state_dir, language)
    parts = parts if parts is not None else Parts(config)
    factory = parts.pins()
    device = parts.display()
    box = Box.build(config, state_dir, pin_factory=factory, display_device=device,
                    link_url=Board().device(config.link_port) if config.link_enabled else None,
                    language=language, simulated_scales=False, time_source=TimeSource())
    box.parts = parts
    if parts.chip is not None:
        log.info("buttons on GPIO chip %s", parts.chip.describe())
    return box, []  # what is missing: box.parts.notes(), in STATUS= as it changes


def sim_box(config: Config, state_dir: Path,
            language: str | None = None) -> tuple[Box, list[str]]:
    """The simulated box (``[hardware] simulated = true``, or ``run --sim``): the same service
    on gpiozero's MockFactory and luma's dummy display."""
    from ...drivers.buttons import mock_factory

    box = Box.build(config, state_dir, pin_factory=mock_factory(),
                    display_device=open_device("dummy"), language=language)
    return box, [_("simulated hardware")]


# -- the service ----------------------------------------------------------------------------------
def goodbye_view(box: Box) -> View:
    session = box.app.session
    if session is not None and not session.state.is_over:
        n = len(session.actions)
        return View("Spielleiter", (_("Game saved:"), ngettext("{n} action kept",
                                                               "{n} actions kept", n).format(n=n)),
                    big=_("Goodbye"))
    return View("Spielleiter", (_("See you soon!"),), big=_("Goodbye"))


_PART_ROWS = {GPIO: "buttons", OLED: "OLED"}  # a missing part's name as the self-test's row says it
_MODES = {"home": N_("main menu"), "start": N_("choosing a game"),
          "setup": N_("setting up a game"), "menu": N_("game menu"),
          "confirm_end": N_("game menu"), "confirm": N_("asking to confirm"),
          "standings": N_("showing the standings"), "tool": N_("using a tool"),
          "replay": N_("showing a past game"), "replay_menu": N_("showing a past game"),
          "correct": N_("correcting a past game"), "pages": N_("showing pages")}


class Signals:
    """SIGTERM/SIGINT handlers that only ask the runtime to stop (remembered until it exists)."""

    def __init__(self) -> None:
        self.runtime: Runtime | None = None
        self.received: str | None = None
        self._previous: dict[int, Any] = {}

    def install(self) -> "Signals":
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGINT):
                self._previous[sig] = signal.signal(sig, self._handle)
        return self

    def attach(self, runtime: Runtime) -> None:
        self.runtime = runtime
        if self.received is not None:
            runtime.stop(self.received)

    def _handle(self, signum: int, frame: object) -> None:
        self.received = signal.Signals(signum).name
        if self.runtime is not None:
            self.runtime.stop(self.received)

    def restore(self) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        self._previous.clear()


class Service:
    """One run of a built box: READY, watchdog pings and STATUS from the loop, goodbye, close."""

    SELFTEST_SHOW_S = (3.0, 10.0)  # the self-test screen: all passed, something failed

    def __init__(self, box: Box, notifier: Notifier, *, notes: list[str] | None = None,
                 keep_frame: Path | None = None, selftest: bool = False,
                 config_source: str | None = None) -> None:
        self.box = box
        self.notifier = notifier
        self.notes = list(notes or [])
        self.keep_frame = keep_frame
        self.selftest = selftest
        self.config_source = config_source
        self.selftest_report: Report | None = None
        self._missing_at_selftest: frozenset[str] = frozenset()  # parts missing when it ran
        self.loop_error: BaseException | None = None
        self.watchdog = Watchdog(box.runtime, notifier, self.describe)
        self._selftest_timer: Any = None

    @property
    def pings(self) -> int:
        return self.watchdog.pings

    # -- status ----------------------------------------------------------------------------------
    def describe(self) -> str:
        """One line for ``systemctl status``: what the box is doing and which part is missing."""
        app = self.box.app
        session = app.session
        if app.mode == "game" and session is not None:
            info = GAMES.get(session.header.game)
            title = info.title if info is not None else session.header.game
            n = len(session.actions)
            progress = (_("over") if session.state.is_over
                        else ngettext("{n} action", "{n} actions", n).format(n=n))
            doing = _("playing {title} ({progress})").format(title=_(title), progress=progress)
        else:
            doing = _(_MODES.get(app.mode, N_("using the menus")))
        parts = [_("Refereeing: {doing}").format(doing=doing), *self.notes]
        if self.selftest_report is not None:
            parts.append(self._selftest_line(self.selftest_report))
        if self.box.parts is not None:
            parts += self.box.parts.notes()
        if self.box.display.errors:
            parts.append(_("display errors: {n}").format(n=self.box.display.errors))
        return "; ".join(parts)

    def _selftest_line(self, report: Report) -> str:
        """The self-test's summary, and which of the parts it found missing came back since
        (its verdict stays what it was then: a part found later was not tested)."""
        now = set(self.box.parts.missing) if self.box.parts is not None else set()
        back = sorted(self._missing_at_selftest - now)
        line = report.summary()
        if back:
            line += _(" (found since: {parts})").format(parts=", ".join(
                part_name(_PART_ROWS.get(part, part.removeprefix(CELLS) + " pan"))
                for part in back))
        return line

    def resend_status(self) -> None:
        """A part went missing or came back: say so now, not only at the next ping."""
        status = self.watchdog.last_status = self.describe()
        self.notifier.status(status)

    # -- start (before the loop runs) ------------------------------------------------------------
    def start(self) -> None:
        if self.box.parts is not None:  # what is missing: on the screen, then in READY's STATUS=
            self.box.parts.watch(self.box)
            self.box.parts.on_change = self.resend_status
        status = self.watchdog.last_status = self.describe()
        self.notifier.ready(status)
        log.info("ready: %s", status)
        self.watchdog.start()
        if self.selftest:
            self._begin_selftest()

    # -- self-test (timers on the loop thread) ---------------------------------------------------
    def _begin_selftest(self) -> None:
        probe = BoxProbe(self.box, notes=self.notes, config_source=self.config_source)
        runtime = self.box.runtime

        def settled() -> None:
            probe.begin()
            self._selftest_timer = runtime.call_later(WINDOW_S,
                                                      lambda: self._finish_selftest(probe))

        self._selftest_timer = runtime.call_later(WARMUP_S, settled)

    def _finish_selftest(self, probe: BoxProbe) -> None:
        self._selftest_timer = None
        report = probe.finish()
        self.selftest_report = report
        for row in report.rows:
            log.log(logging.ERROR if row.verdict == FAIL else logging.INFO,
                    "self-test %s: %s: %s", row.part, row.verdict, row.detail)
        try:
            self.box.journal.add_note("selftest", {"source": "service", **report.to_json()})
        except Exception as exc:  # noqa: BLE001 - a full disk must not stop the referee
            log.error("self-test not journalled: %s", exc)
        if self.box.parts is not None:
            self._missing_at_selftest = frozenset(self.box.parts.missing)
        self.box.app.notice(report.screen(), self.SELFTEST_SHOW_S[0 if report.ok else 1])
        status = self.watchdog.last_status = self.describe()
        self.notifier.status(status)

    # -- the loop --------------------------------------------------------------------------------
    def _loop(self) -> None:
        try:
            self.box.runtime.run_forever()
        except BaseException as exc:  # run_forever guards handlers; this is a bug in the loop
            log.exception("the runtime loop died")
            self.loop_error = exc

    def run(self, signals: Signals | None = None) -> int:
        """Run until stopped; the caller's main thread only waits (and takes signals)."""
        self.start()
        thread = threading.Thread(target=self._loop, name="runtime", daemon=True)
        thread.start()
        if signals is not None:
            signals.attach(self.box.runtime)
        thread.join()
        why = signals.received if signals is not None and signals.received else "stop"
        return self.shutdown(why)

    # -- stopping --------------------------------------------------------------------------------
    def shutdown(self, why: str = "stop") -> int:
        started = time.monotonic()
        self.watchdog.stop()
        self.box.runtime.cancel(self._selftest_timer)
        view = goodbye_view(self.box)
        self.box.show(view)
        if self.keep_frame is not None and self.box.display.last is not None:
            try:
                self.box.display.last.save(self.keep_frame)
            except OSError as exc:  # a full disk must not turn a clean stop into a failure
                log.warning("last frame not kept: %s", exc)
        self.notifier.stopping(_("Stopping ({why}): goodbye shown, game saved").format(why=why))
        self.box.close()
        log.info("stopped (%s) in %.2f s", why, time.monotonic() - started)
        return 1 if self.loop_error is not None else 0


def no_gpio(exc: BaseException | None) -> str:
    """The reason in plain words when the machine has no GPIO at all (a laptop), else ""."""
    if exc is None or type(exc).__name__ in ("BadPinFactory", "ChipNotFound"):
        return "no GPIO here: this is not a Raspberry Pi (on a laptop: spielleiter sim)"
    return ""


def under_systemd(env: Mapping[str, str]) -> bool:
    """Whether systemd started this process (a unit sets these): then a missing part is waited
    for, READY and said in STATUS=, never a reason to stop."""
    return bool(env.get("NOTIFY_SOCKET") or env.get("INVOCATION_ID"))


def no_gpio_here(config: Config) -> bool:
    """Whether this machine has no GPIO chip the config could use (a laptop, not a Pi)."""
    from ...drivers.gpio_chip import ChipNotFound, find_chip

    try:
        find_chip(config.hardware.gpio_chip)
    except ChipNotFound:
        return True
    except Exception:  # noqa: BLE001 - anything else is the box's business, not a laptop's
        return False
    return False


def run_service(config_path: Path | None = None, state_dir: Path | None = None, *,
                sim: bool = False, box_factory: BoxFactory | None = None,
                env: Mapping[str, str] | None = None, notifier: Notifier | None = None,
                language: str | None = None) -> int:
    """``spielleiter run``: 0 after a clean stop, 2 for a bad config, 1 if the box cannot start;
    ``language`` (``--lang``) is this run's screen language."""
    env = os.environ if env is None else env
    notifier = notifier if notifier is not None else Notifier.from_env(env)
    signals = Signals().install()
    try:
        path = find_config(config_path, env)
        notifier.status(_("Starting: reading {path}").format(path=path or _("the default config")))
        try:
            config = load_config(path)
        except ConfigError as exc:
            for problem in exc.problems:
                print(f"spielleiter run: {problem}", file=sys.stderr)
            notifier.status(_("Config error: {problem} (see the log)").format(problem=exc.problems[0]))
            return 2
        directory = find_state_dir(state_dir, env, sim)
        use_language(language or config.language)
        notifier.status(_("Starting: opening the hardware"))
        if notifier.watchdog_s:
            notifier.watchdog()  # imports and hardware can be slow on a small Pi
        if box_factory is None and not sim and not config.hardware.simulated \
                and not under_systemd(env) and no_gpio_here(config):
            print(f"spielleiter run: cannot start: {no_gpio(None)}", file=sys.stderr)
            return 1  # a laptop: one line; a box under systemd waits for its chip instead
        factory: Callable[..., Any] = box_factory or (sim_box if sim else hardware_box)
        if language is not None:
            factory = functools.partial(factory, language=language)
        try:
            with warnings.catch_warnings():  # gpiozero's pin factory fallbacks: a debug note
                warnings.simplefilter("ignore", category=Warning)
                box, notes = factory(config, directory)
        except Exception as exc:
            log.debug("cannot start the box", exc_info=True)  # the detail under -v only
            print(f"spielleiter run: cannot start: {no_gpio(exc) or exc}", file=sys.stderr)
            notifier.status(_("Failed to start: {reason}").format(reason=exc))
            return 1
        with box:
            service = Service(box, notifier, notes=notes,
                              keep_frame=directory / SIM_FRAME if sim else None,
                              selftest=True, config_source=str(path) if path else None)
            return service.run(signals)
    finally:
        signals.restore()
        notifier.close()
