"""The composition root: config + drivers + journal + runtime + App, for real or simulated parts.

``Box.build`` wires everything; nothing below it knows which world it runs in. With gpiozero's
``MockFactory`` the same box is the simulation: ``tap`` and ``hold`` drive the mock pins the way a
finger would, which is how tests, the demo and ``spielleiter sim`` play it.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from PIL import Image

from ..drivers.buttons import ButtonBank, PressDetector
from ..drivers.buzzer import Beeper
from ..drivers.display import Display, open_device
from ..drivers.link import LinkLine, LinkStatus, SerialLink
from ..drivers.loadcell import LoadCellSample, LoadCellStatus
from ..drivers.thermometer import Temperature, ThermometerReader
from .app import App
from .config.core import Config
from .journal.lock import InstanceLock
from .journal.store import Journal
from .journal.care import IDLE_S
from .link import LinkProtocol
from .config.paths import JOURNAL_NAME
from .pans.scales import Scales
from .pans.simulated import lay, restore_loads, save_loads, sim_physics
from .runtime import ManualClock, Runtime
from .screen.render import View, render
from .journal.settings import Settings
from .pans.thermometer import thermometer_for
from .journal.timebase import TimeSource, always_synced

log = logging.getLogger(__name__)


@dataclass
class Box:
    config: Config
    runtime: Runtime
    journal: Journal
    buttons: ButtonBank
    display: Display
    beeper: Beeper
    app: App
    pin_factory: Any = None
    link: SerialLink | None = None
    scales: Scales | None = None
    thermometer: ThermometerReader | None = None  # the sensor on a cell's bar, if any
    _thermometer_due: float = 0.0  # a ManualClock box: when ``idle`` reads it next
    state_dir: Path | None = None  # simulated pans keep what lies on them here
    lock: InstanceLock | None = None  # this box's hold on its state directory
    parts: Any = None  # a real box's missing parts, retried (service.parts.Parts)
    # simulated pans: what lies on each as the pieces set down, the last on top (``put`` keeps
    # it, ``sim-pans.json`` with it); the interactive sim's hand shows and lifts these
    pieces: dict[str, list[float]] = field(default_factory=dict)
    _shown: list[View] = field(default_factory=list)
    _closed: bool = False

    @classmethod
    def build(cls, config: Config, state_dir: Path, *, pin_factory: Any = None,
              display_device: Any = None, clock: Callable[[], float] = time.monotonic,
              on_frame: Callable[[Image.Image], None] | None = None,
              seed_source: Callable[[], int] | None = None,
              link_url: str | None = None, simulated_scales: bool | None = None,
              language: str | None = None, time_source: TimeSource | None = None,
              sim_cells: str = "ideal") -> "Box":
        """Wire a device. ``simulated_scales`` (default: when the pins are mocked) puts the pans
        on simulated HX711s; on a ManualClock box they run on virtual time as ``idle`` passes.
        ``sim_cells`` "real" gives those pans cells as published figures describe them (warm-up,
        the box warming, creep, a bent output, the overload stop: ``PanPhysics.realistic``), as
        ``spielleiter sim`` does; "ideal" (tests, the demo) cells without them.
        ``language`` (``--lang``) is this run's language over the saved setting and the config's
        ``[ui] language``. ``time_source`` is the journal's time base (default: the real
        clocks; on mocked pins, a simulator's machine, whose clock is taken to be right)."""
        runtime = Runtime(clock)
        if time_source is None and pin_factory is not None:
            time_source = TimeSource(synced=always_synced)
        lock = InstanceLock(Path(state_dir)).acquire()  # StateDirInUse: another box runs there
        try:
            journal = Journal(Path(state_dir) / JOURNAL_NAME, time_source=time_source)
        except BaseException:
            lock.close()
            raise
        parts: list[Any] = [lock, journal]
        try:
            device = display_device if display_device is not None else open_device(
                config.display_driver, **config.display_options())
            display = Display(device, on_frame=on_frame)
            parts.append(display)
            buttons = ButtonBank(config.button_pins(), runtime.post, clock, pin_factory)
            parts.append(buttons)
            beeper = Beeper(config.buzzer_pin, pin_factory, enabled=config.buzzer_enabled)
            parts.append(beeper)
        except Exception:
            for part in reversed(parts):
                part.close()
            raise
        detector = PressDetector(config.debounce_s, config.hold_s)
        if simulated_scales is None:
            simulated_scales = pin_factory is not None
        scales = Scales.build(config, journal, runtime.post, simulated=simulated_scales,
                              physics=sim_physics(sim_cells) if simulated_scales else None)
        shown: list[View] = []
        app = App(runtime, journal, show=lambda view: _show(display, shown, view), beep=beeper.play,
                  power=display.set_power, sound=beeper.set_level,
                  player_names=config.player_names,
                  stations=tuple(s.name for s in config.stations), detector=detector,
                  seed_source=seed_source, scales=scales,
                  settings=Settings(language=config.language), language=language)
        box = cls(config, runtime, journal, buttons, display, beeper, app, pin_factory,
                  scales=scales, state_dir=Path(state_dir), lock=lock, _shown=shown)
        if scales.sim is not None:  # as a real pan keeps what lies on it
            box.pieces.update(restore_loads(scales, Path(state_dir)))
        box._care()
        box._attach_scales()
        app.show_notices()  # the scales read their calibration rows: any damaged one
        if link_url:
            box.attach_link(link_url)
        return box

    def _care(self) -> None:
        """``IDLE_S`` after the journal's last write, on the loop: its file still there, the
        clock's synchronisation, a checkpoint; anything the table must know is shown. An idle
        box with nothing unsaved has no timer for it."""
        timer: list[Any] = [None]

        def tick() -> None:
            timer[0] = None
            self.journal.care.tick()
            self.app.show_notices()

        def wrote() -> None:
            self.runtime.cancel(timer[0])
            timer[0] = self.runtime.call_later(IDLE_S, tick)

        self.journal.care.idle_clock = self.runtime.clock  # the loop's monotonic clock
        self.journal.care.after_write = wrote

    @property
    def last_view(self) -> View:
        """What the OLED shows now, as a View (tests and the simulator read it)."""
        return self._shown[0] if self._shown else View()

    def show(self, view: View) -> None:
        """Put ``view`` on the OLED now (the goodbye screen at shutdown)."""
        _show(self.display, self._shown, view)

    def _attach_scales(self) -> None:
        """Samples and status reach the pans on the loop thread; the pans' news reaches the
        top screen as ``Weight``s."""
        scales, app = self.scales, self.app
        assert scales is not None

        self.runtime.route(LoadCellSample, scales.on_sample)
        self.runtime.route(LoadCellStatus, scales.on_status)
        self.runtime.route(Temperature, lambda reading: scales.set_temperature(reading.celsius))
        scales.listeners.append(app.on_weight)
        self.thermometer = thermometer_for(scales, self.runtime.post, self.runtime.clock)
        if not isinstance(self.runtime.clock, ManualClock):
            scales.start()
            if self.thermometer is not None:
                self.thermometer.start()
        else:
            self._read_thermometer()  # on virtual time, as ``idle`` feeds the simulated pans

    def _read_thermometer(self) -> None:
        """A ManualClock box reads its thermometer when ``idle`` has passed its next reading's
        time (no runtime timer: the idle loop would wake for it)."""
        if self.thermometer is not None and self.runtime.clock() >= self._thermometer_due:
            self.thermometer.read_once()
            self._thermometer_due = self.runtime.clock() + self.thermometer.every_s

    def put(self, pan: str, grams: float) -> None:
        """Simulation: set ``grams`` down on a pan as one piece (negative: take that much off,
        the last piece first); ``pieces`` and the state directory's record follow."""
        assert self.scales is not None and self.scales.sim is not None, "no simulated pans"
        if grams >= 0:
            self.scales.sim.put(pan, grams)
        else:
            self.scales.sim.remove(pan, -grams)
        lay(self.pieces.setdefault(pan, []), grams)
        if self.state_dir is not None:
            save_loads(self.scales, self.state_dir, self.pieces)

    def attach_link(self, url: str) -> None:
        """Follow and drive the game over a serial port (any pyserial URL)."""
        link = SerialLink(url, self.runtime.post, baud=self.config.link_baud)
        protocol = LinkProtocol(self.app, link.send_line, link.done)
        self.runtime.route(LinkLine, protocol.on_line)
        self.runtime.route(LinkStatus, protocol.on_status)
        self.link = link
        link.start()

    # -- driving mock pins (simulation, demo, tests) ---------------------------------------------
    def _pin(self, name: str) -> Any:
        return self.pin_factory.pin(self.config.button_pins()[name])

    def tap(self, name: str, hold: float = 0.08, settle: float = 0.5) -> None:
        """Press and release a button on a ManualClock box, then let timers settle (past the
        guard after a screen change, as a person would read the new screen)."""
        self.hold(name, hold)
        self.idle(settle)

    def hold(self, name: str, seconds: float) -> None:
        pin = self._pin(name)
        pin.drive_low()
        self.runtime.pump()
        self.idle(seconds)
        pin.drive_high()
        self.runtime.pump()

    def idle(self, seconds: float) -> None:
        """Let ``seconds`` of ManualClock time pass, firing timers on the way; simulated pans
        deliver the samples of that time too."""
        assert isinstance(self.runtime.clock, ManualClock)
        sim = self.scales.sim if self.scales is not None else None
        end = self.runtime.clock() + seconds
        step = 0.1 if sim is not None else seconds
        while self.runtime.clock() < end:
            until = min(end, self.runtime.clock() + step)
            if sim is not None:
                sim.run_for(until - self.runtime.clock())
            self._read_thermometer()
            self.runtime.run_until(until)

    def frame(self) -> Image.Image | None:
        return self.display.last

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for part in (self.parts, self.link, self.thermometer, self.scales, self.buttons, self.beeper,
                     self.display, self.journal, self.lock):
            if part is None:
                continue
            try:
                part.close()
            except Exception as exc:  # pragma: no cover - best effort at shutdown
                log.warning("closing %s: %s", type(part).__name__, exc)

    def __enter__(self) -> "Box":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _show(display: Display, shown: list[View], view: View) -> None:
    shown[:] = [view]
    display.show(render(view))
