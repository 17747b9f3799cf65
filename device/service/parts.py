"""The parts of a real box that may be missing at start, opened again slowly while it referees.

A box without its GPIO chip (buttons and buzzer) or its OLED still starts: the service reaches
READY, says what is missing in ``STATUS=`` (and on the screen when there is one), and tries the
part again every ``RETRY_S`` on the loop thread. The log gets one line when a part goes missing,
one when its reason changes and one when it is found: never a traceback per attempt. The load
cells and the serial link already keep trying by themselves (their readers' own threads).

With ``[hardware] simulated = true`` there is nothing to find: every part is simulated.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from typing import Any, Callable

from ...drivers.buttons import ButtonBank, mock_factory
from ...drivers.display import open_device
from ...drivers.exc import Worded
from ...drivers.gpio_chip import Chip, find_chip
from ...drivers.loadcell import make_reader
from ..config.core import Config
from ..i18n import _, refusal
from ..screen.render import View

log = logging.getLogger(__name__)

RETRY_S = 30.0  # how often a missing part is tried again: slow enough to cost nothing
GPIO = "gpio"
OLED = "oled"
CELLS = "cells:"  # a pan's part name: "cells:left"


def open_pins(config: Config) -> tuple[Any, Chip | None]:
    """gpiozero's lgpio pin factory on the header's chip (found by label, ``drivers.gpio_chip``).
    Without lgpio (the RPi.GPIO backend of older systems), or with a pin library named in
    ``GPIOZERO_PIN_FACTORY``, gpiozero's own choice (None) and no chip."""
    if os.environ.get("GPIOZERO_PIN_FACTORY"):
        return None, None
    try:
        from gpiozero.pins.lgpio import LGPIOFactory
    except ImportError:
        return None, None
    chip = find_chip(config.hardware.gpio_chip)
    return LGPIOFactory(chip=chip.number), chip


def open_oled(config: Config) -> Any:
    return open_device(config.display_driver, **config.display_options())


def reason(exc: BaseException) -> str:
    """An exception as one line for the log and ``STATUS=``: its message, or its type's name
    (an OSError without its ``[Errno N]``)."""
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror}: {exc.filename}" if exc.filename else exc.strerror
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return text or type(exc).__name__


def said_in_language(exc: BaseException) -> str:
    """``reason`` in the box's language where the error carries its words (``Worded``)."""
    return refusal(exc) if isinstance(exc, Worded) else reason(exc)


@dataclass
class Parts:
    """Which parts are missing and why; ``watch`` retries them on the box's runtime."""

    config: Config
    missing: dict[str, str] = field(default_factory=dict)  # part -> why (English, for the log)
    _errors: dict[str, BaseException] = field(default_factory=dict)  # part -> why, to be said
    chip: Chip | None = None
    on_change: Callable[[], None] | None = None  # the service re-sends STATUS=
    open_pins: Callable[[Config], "tuple[Any, Chip | None]"] = open_pins
    open_oled: Callable[[Config], Any] = open_oled
    retry_s: float = RETRY_S
    attempts: int = 0
    _box: Any = None
    _timer: Any = None

    # -- at start, before the box exists -------------------------------------------------------
    def pins(self) -> Any:
        """The real pin factory, or gpiozero's mock pins standing in while the chip is missing."""
        try:
            factory, self.chip = self.open_pins(self.config)
            self._probe_pins(factory)
        except Exception as exc:  # noqa: BLE001 - any failure: the part is missing, not the box
            self._lost(GPIO, exc)
            return mock_factory()
        return factory

    def _probe_pins(self, factory: Any) -> None:
        """Open every button once (and close them): a chip that is there but refuses a line
        (no permission, a line in use) counts as missing, before the box is built on it."""
        ButtonBank(self.config.button_pins(), lambda edge: None, lambda: 0.0, factory).close()

    def display(self) -> Any:
        """The configured OLED, or luma's dummy device while it does not answer."""
        try:
            return self.open_oled(self.config)
        except Exception as exc:  # noqa: BLE001 - a missing OLED: referee without a screen
            self._lost(OLED, exc)
            return open_device("dummy")

    # -- while the box runs ----------------------------------------------------------------------
    def watch(self, box: Any) -> None:
        """Retry the missing parts every ``retry_s`` on ``box``'s loop; say what is missing on
        its screen now."""
        self._box = box
        scales = box.scales
        if scales is not None and scales.sim is None:
            for pan, why in scales.failed().items():  # the scales logged it already
                self.missing[f"{CELLS}{pan}"] = why
        if self.missing:
            box.app.notice(View(_("Missing part"), self.screen_lines()), 10.0)
            self._schedule()

    def _schedule(self) -> None:
        if self._box is not None and self.missing and self._timer is None:
            self._timer = self._box.runtime.call_later(self.retry_s, self._retry)

    def _retry(self) -> None:
        self._timer = None
        self.attempts += 1
        if GPIO in self.missing:
            self._retry_pins()
        if OLED in self.missing:
            self._retry_oled()
        for cell in self.config.loadcells:
            if f"{CELLS}{cell.pan}" in self.missing:
                self._retry_cell(cell)
        self._schedule()

    def _retry_cell(self, cell: Any) -> None:
        """A pan whose reader could not be made or started: a new reader, started."""
        pan = self._box.scales.pans[cell.pan]
        if pan.reader is not None:
            pan.reader.close()
            pan.reader = None
        try:
            pan.reader = make_reader(cell.reader, cell.pan, on_event=self._box.runtime.post,
                                     rate=cell.rate, **cell.settings)
            pan.reader.start()
        except Exception as exc:  # noqa: BLE001 - the pan stays missing; the box goes on
            if pan.reader is not None:
                pan.reader.close()
                pan.reader = None
            self._lost(f"{CELLS}{cell.pan}", exc)
            return
        pan.error = None
        pan.status = "starting"
        self._found(f"{CELLS}{cell.pan}", f"{cell.pan} pan's {cell.reader} reader started")

    def _retry_pins(self) -> None:
        box = self._box
        factory = None
        try:
            factory, chip = self.open_pins(self.config)
            bank = ButtonBank(self.config.button_pins(), box.runtime.post, box.runtime.clock,
                              factory)
        except Exception as exc:  # noqa: BLE001
            if factory is not None:
                factory.close()  # the chip's handle, opened for lines it could not claim
            self._lost(GPIO, exc)
            return
        old, box.buttons = box.buttons, bank
        old.close()
        if box.beeper.buzzer is not None and self.config.buzzer_pin is not None:
            from gpiozero import Buzzer

            try:
                buzzer = Buzzer(self.config.buzzer_pin, pin_factory=factory)
            except Exception as exc:  # noqa: BLE001 - the buttons count; the buzzer only beeps
                log.warning("buzzer not opened: %s", reason(exc))
            else:
                box.beeper.buzzer.close()
                box.beeper.buzzer = buzzer
        box.pin_factory = factory
        self.chip = chip
        self._found(GPIO, f"GPIO chip {chip.describe()}" if chip else "GPIO")

    def _retry_oled(self) -> None:
        try:
            device = self.open_oled(self.config)
        except Exception as exc:  # noqa: BLE001
            self._lost(OLED, exc)
            return
        display = self._box.display
        display.device = device
        display._last_bytes = None  # the new panel shows nothing yet: send the next frame
        self._box.app.redraw()
        self._found(OLED, "OLED answers")

    def close(self) -> None:
        if self._box is not None:
            self._box.runtime.cancel(self._timer)
        self._timer = None

    # -- state changes: one log line each --------------------------------------------------------
    def _lost(self, part: str, exc: BaseException) -> None:
        why = reason(exc)
        if self.missing.get(part) == why:
            return
        first = part not in self.missing
        self.missing[part] = why
        self._errors[part] = exc
        if first:
            log.warning("%s missing, refereeing without it; trying again every %.0f s: %s",
                        part, self.retry_s, why)
        else:
            log.warning("%s still missing, now: %s", part, why)
        if self.on_change is not None:
            self.on_change()

    def _found(self, part: str, what: str) -> None:
        self.missing.pop(part, None)
        self._errors.pop(part, None)
        log.info("%s found after %d attempts: %s", part, self.attempts, what)
        if self.on_change is not None:
            self.on_change()

    # -- what STATUS= and the screen say ---------------------------------------------------------
    def screen_lines(self) -> tuple[str, ...]:
        """Short lines for the OLED (the reasons are in STATUS= and the log)."""
        lines = []
        if GPIO in self.missing:
            lines.append(_("No buttons found"))
        for part in self.missing:
            if part.startswith(CELLS):
                lines.append(_("No pan: {pan}").format(pan=part[len(CELLS):]))
        lines = lines[:2]
        lines.append(_("Retry every {s} s").format(s=f"{self.retry_s:.0f}"))
        return tuple(lines)

    def notes(self) -> list[str]:
        """What is missing, in the box's language."""
        notes = []
        said = {part: said_in_language(self._errors[part]) if part in self._errors else why
                for part, why in self.missing.items()}
        if GPIO in said:
            notes.append(_("no buttons (GPIO: {why})").format(why=said[GPIO]))
        if OLED in said:
            notes.append(_("no screen (OLED: {why})").format(why=said[OLED]))
        for part, why in said.items():
            if part.startswith(CELLS):
                notes.append(_("no {pan} pan ({why})").format(pan=part[len(CELLS):], why=why))
        return notes


__all__ = ["CELLS", "GPIO", "OLED", "Parts", "RETRY_S", "open_oled", "open_pins"]
