"""Self-test: is every part of the box there and answering?

One row per part (config, OLED, each pan, the buttons, the link), each PASS, FAIL or SKIP with a
detail that says what was seen and what to look at. Two ways to get the rows:

- ``run`` (``spielleiter selftest``) opens the parts itself: the OLED gets a frame, each load cell
  is read for about a second, the buttons are claimed and read, the link port is opened and
  closed. With ``sim=True`` the same checks run on the twins: the real luma driver over a
  ``RecordingBus``, the pans on ``SimScale`` (virtual time, so the second takes milliseconds),
  gpiozero's ``MockFactory`` and one end of a ``NullModem``. ``faults`` breaks chosen parts there
  (see ``FAULTS``) to show what a failure looks like.
- ``BoxProbe`` (the service at start) looks at the parts a running ``Box`` already opened, without
  opening anything twice: the OLED takes the self-test screen or not, the readers' statistics over
  the probe's window, the buttons held, whether the link is up.

``Report`` prints the table (``table``), a JSON document (``to_json``), one line for ``STATUS=``
(``summary``) and a screen for the OLED (``screen``). Exit status: 0 when nothing failed (SKIP
is fine), 1 otherwise.
"""

from __future__ import annotations

import logging
import textwrap
import time
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from ..drivers.loadcell import ReaderStats
from . import config as config_mod
from .config import PANS, Config, ConfigError
from .screens import CHARS, View, render

log = logging.getLogger(__name__)

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"
WARMUP_S = 0.5  # a reset HX711 settles for 4 conversions (400 ms at 10 SPS) before the window
WINDOW_S = 1.0  # how long each load cell's conversions are counted
DETAIL_WIDTH = 76  # the table's detail column wraps here
MIN_RATE = 0.7  # of the configured rate: fewer conversions than this fail
# --fail NAME[:MODE] in --sim; the first mode of each part is its default.
FAULTS: dict[str, tuple[str, ...]] = {
    "display": ("fail",),  # every I2C transfer fails (a loose cable)
    "left": ("silent", "stuck", "saturated"),  # no answer / DOUT stuck low / input out of range
    "right": ("silent", "stuck", "saturated"),
    "buttons": ("s1.A",),  # that button reads as held (any button name; unknown: the first)
    "link": ("gone",),  # the port cannot be opened
}
UNPLUGGED = "/dev/spielleiter-sim-link-unplugged"


# -- rows and the report --------------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    """One part's verdict. ``short`` is what the OLED says after the part's name."""

    part: str
    verdict: str
    detail: str
    short: str = ""

    def screen_line(self) -> str:
        word = self.short or {PASS: "ok", SKIP: "skipped"}.get(self.verdict, "failed")
        return f"{self.part}: {word}"[:CHARS]

    def to_json(self) -> dict[str, str]:
        return {"part": self.part, "verdict": self.verdict, "detail": self.detail}


@dataclass(frozen=True)
class Report:
    rows: tuple[Row, ...]
    title: str = "Spielleiter self-test"

    @property
    def failed(self) -> tuple[Row, ...]:
        return tuple(r for r in self.rows if r.verdict == FAIL)

    @property
    def ok(self) -> bool:
        return not self.failed

    @property
    def verdict(self) -> str:
        return PASS if self.ok else FAIL

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 1

    def to_json(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "ok": self.ok,
                "parts": [r.to_json() for r in self.rows]}

    def table(self) -> str:
        """The rows as a fixed-width table and the overall verdict (for a terminal)."""
        width = max([len("part")] + [len(r.part) for r in self.rows])
        out = [self.title, "", f"{'part':<{width}}  verdict  detail"]
        for r in self.rows:
            first, *more = [piece for line in r.detail.splitlines()
                            for piece in textwrap.wrap(line, DETAIL_WIDTH,
                                                       subsequent_indent="  ")] or [""]
            out.append(f"{r.part:<{width}}  {r.verdict:<7}  {first}")
            out += [f"{'':<{width}}  {'':<7}  {line}" for line in more]
        counts = {v: sum(r.verdict == v for r in self.rows) for v in (PASS, FAIL, SKIP)}
        tally = ", ".join(f"{n} {word}" for n, word in ((counts[PASS], "passed"),
                          (counts[FAIL], "failed"), (counts[SKIP], "skipped")) if n)
        out += ["", f"verdict: {self.verdict} ({tally})"]
        if not self.ok:
            out.append("failed: " + ", ".join(r.part for r in self.failed))
        return "\n".join(out)

    def summary(self) -> str:
        """One line for ``STATUS=`` and the log."""
        if self.ok:
            skipped = [r.part for r in self.rows if r.verdict == SKIP]
            return "self-test passed" + (f" ({', '.join(skipped)} skipped)" if skipped else "")
        return "self-test FAILED: " + ", ".join(
            f"{r.part} ({r.short or 'failed'})" for r in self.failed)

    def screen(self) -> View:
        """What the OLED shows: failures first, one a line, then the parts that are fine."""
        failed = [r.screen_line() for r in self.failed]
        if len(failed) > 4:
            failed = failed[:3] + [f"+{len(failed) - 3} more: see log"]
        fine = [r.part for r in self.rows if r.verdict == PASS]
        lines = list(failed)
        if not failed:
            lines.append("All parts OK")
        room = 4 - len(lines)
        if room > 0 and fine:
            lines += _pack("ok: ", fine, room)
        title = "Self-test OK" if self.ok else f"Self-test: {len(self.failed)} failed"
        return View(title, tuple(lines), footer="OK continue")


def _pack(prefix: str, words: list[str], room: int) -> list[str]:
    """``prefix`` and ``words`` joined by ", " on at most ``room`` lines of ``CHARS``."""
    lines: list[str] = []
    line = prefix
    for i, word in enumerate(words):
        piece = word + ("," if i < len(words) - 1 else "")
        if len(line) + len(piece) + (0 if line in ("", prefix) else 1) > CHARS:
            lines.append(line)
            line = ""
        line = piece if not line else (line + piece if line == prefix else f"{line} {piece}")
    lines.append(line)
    if len(lines) > room:
        lines = lines[:room]
        lines[-1] = (lines[-1][:CHARS - 4] + " ...")[:CHARS]
    return lines


def parse_faults(text: str | Iterable[str] | None) -> dict[str, str]:
    """``"display,left:stuck"`` -> ``{"display": "fail", "left": "stuck"}``; ValueError for
    an unknown part or mode."""
    if text is None:
        return {}
    items = text.split(",") if isinstance(text, str) else list(text)
    out: dict[str, str] = {}
    for item in (i.strip() for i in items):
        if not item:
            continue
        name, _, mode = item.partition(":")
        if name not in FAULTS:
            raise ValueError(f"unknown part {name!r} for --fail (use {', '.join(FAULTS)})")
        modes = FAULTS[name]
        if not mode:
            mode = modes[0]
        elif name != "buttons" and mode not in modes:
            raise ValueError(f"--fail {name}:{mode}: use {' or '.join(modes)}")
        out[name] = mode
    return out


# -- the checks, each on its own ------------------------------------------------------------------
def check_config(path: Path | None) -> tuple[Row, Config | None]:
    where = str(path) if path is not None else "shipped defaults"
    try:
        cfg = config_mod.load(path)
    except ConfigError as exc:
        detail = "\n".join([f"{where}: {len(exc.problems)} problem(s):", *exc.problems])
        return Row("config", FAIL, detail, f"{len(exc.problems)} problem(s)"), None
    return Row("config", PASS, f"{where}: valid"), cfg


def check_display(cfg: Config, *, sim: bool = False, fail: bool = False) -> tuple[Row, Any]:
    """Open the configured OLED and send it one frame; the row and the open device (or None)."""
    from ..drivers.display import RecordingBus, open_device

    where = f"{cfg.display_driver} at I2C {cfg.i2c_port}/0x{cfg.i2c_address:02X}"
    bus = RecordingBus(fail=fail) if sim else None
    try:
        device = open_device(cfg.display_driver, port=cfg.i2c_port, address=cfg.i2c_address,
                             rotate=cfg.rotate, bus=bus)
    except Exception as exc:  # noqa: BLE001 - DisplayError, no /dev/i2c-N, no permission
        seen = str(exc) if str(exc).startswith(where) else f"{where}: {exc}"
        return Row("OLED", FAIL, f"{seen}; check VCC, GND, SDA on GPIO 2 and SCL on GPIO 3, "
                   f"then `i2cdetect -y {cfg.i2c_port}`", "no answer"), None
    sent = bus.bytes_sent if bus is not None else 0
    try:
        device.display(render(View("Self-test", ("OLED ok",))).convert(device.mode))
    except Exception as exc:  # noqa: BLE001 - OSError or luma's errors on a bad bus
        _cleanup(device)
        return Row("OLED", FAIL, f"{where}: opened, but sending a frame failed ({exc})",
                   "frame failed"), None
    extra = f" ({bus.bytes_sent - sent} bytes over the recording bus)" if bus is not None else ""
    return Row("OLED", PASS, f"{where}: answered, frame sent{extra}"), device


def _cleanup(device: Any) -> None:
    try:
        device.cleanup()
    except Exception as exc:  # noqa: BLE001  # pragma: no cover - gone at the end
        log.debug("display cleanup: %s", exc)


def stats_delta(before: ReaderStats | None, after: ReaderStats) -> ReaderStats:
    """What the counters did between two snapshots (``before`` None: since the reader began)."""
    if before is None:
        return after
    return ReaderStats(**{f.name: getattr(after, f.name) - getattr(before, f.name)
                          for f in fields(ReaderStats)})


def evaluate_loadcell(pan: str, rate: int, stats: ReaderStats, seconds: float,
                      connected: bool) -> Row:
    """The verdict on one pan's reader from its counters over ``seconds``."""
    part = f"{pan} pan"
    # Conversions the chip delivered: samples, and the good reads the filter drops on a start.
    delivered = stats.samples + stats.settling + stats.after_stretch
    expected = rate * seconds
    seen = f"{delivered} samples in {seconds:.1f} s (rate {rate})"
    if delivered == 0 and not connected and not stats.saturated:
        if stats.misaligned or stats.rail:
            bad = stats.misaligned + stats.rail
            return Row(part, FAIL, f"no valid data, {bad} reads out of step or at the rail: DOUT "
                       "stuck low? check the DOUT and PD_SCK wires", "DOUT stuck")
        return Row(part, FAIL, "no answer from the HX711 in "
                   f"{seconds:.1f} s: check its VCC, GND, DOUT and PD_SCK wires", "no signal")
    if stats.saturated:
        return Row(part, FAIL, f"{stats.saturated} saturated values (0x7FFFFF/0x800000): the "
                   "input is out of range; check the E+/E-/A+/A- wires and that the cell is not "
                   "overloaded", "saturated")
    if stats.rail:
        return Row(part, FAIL, f"{stats.rail} rail values (0x000000/0xFFFFFF): DOUT floating "
                   "or stuck; check the DOUT wire", "rail values")
    if delivered < MIN_RATE * expected:
        return Row(part, FAIL, f"{seen}, expected about {expected:.0f}: check that the RATE pin "
                   f"matches loadcells.{pan}.rate (GND = 10, VCC = 80)",
                   f"{delivered / seconds:.0f}/s, want {rate}")
    if not connected:
        return Row(part, FAIL, f"{seen}, but the reader reports the chip silent", "no signal")
    rejected = stats.rejected - stats.settling - stats.after_stretch
    note = f"; {rejected} reads discarded" if rejected > 0 else ""
    return Row(part, PASS, f"{seen}, no rail or saturated values{note}")


def check_loadcells(cfg: Config, *, sim: bool = False, faults: Mapping[str, str] | None = None,
                    seconds: float = WINDOW_S, warmup: float = WARMUP_S,
                    wait: Callable[[float], None] = time.sleep) -> list[Row]:
    """Start every configured pan's reader, let it settle for ``warmup``, then count what it
    delivers in ``seconds`` (virtual seconds in ``sim``)."""
    faults = faults or {}
    cells = {cell.pan: cell for cell in cfg.loadcells}
    rows: dict[str, Row] = {pan: Row(f"{pan} pan", SKIP, f'not configured (loadcells.{pan}.reader'
                                     ' = "none")') for pan in PANS if pan not in cells}
    if sim and cells:
        from ..drivers.scale_sim import SimScale

        with SimScale(list(cells), rate=next(iter(cells.values())).rate) as scale:
            for pan in cells:
                chip = scale.cells[pan].chip
                mode = faults.get(pan)
                if mode == "silent":
                    chip.disconnect("high")
                elif mode == "stuck":
                    chip.disconnect("low")
                elif mode == "saturated":
                    chip.faults.saturate = "high"
            scale.run_for(warmup)
            before = {pan: scale.readers[pan].stats for pan in cells}
            scale.run_for(seconds)
            for pan in cells:
                reader = scale.readers[pan]
                rows[pan] = evaluate_loadcell(pan, scale.rate,
                                              stats_delta(before[pan], reader.stats), seconds,
                                              reader.connected)
    elif cells:
        from ..drivers.loadcell import make_reader

        readers: dict[str, Any] = {}
        try:
            for pan, cell in cells.items():
                try:
                    reader = make_reader(cell.reader, pan, on_event=lambda ev: None,
                                         rate=cell.rate, **cell.settings)
                    readers[pan] = reader
                    reader.start()
                except Exception as exc:  # noqa: BLE001 - a missing bus, module, port
                    rows[pan] = Row(f"{pan} pan", FAIL, f"{cell.reader} reader cannot start: "
                                    f"{exc}{_reader_hint(cell)}", "cannot start")
            running = {pan: r for pan, r in readers.items() if pan not in rows}
            if running:
                wait(warmup)
                before = {pan: r.stats for pan, r in running.items()}
                wait(seconds)
                for pan, reader in running.items():
                    rows[pan] = evaluate_loadcell(pan, cells[pan].rate,
                                                  stats_delta(before[pan], reader.stats),
                                                  seconds, reader.connected)
        finally:
            for reader in readers.values():
                reader.close()
    return [rows[pan] for pan in PANS]


def _reader_hint(cell: config_mod.LoadCell) -> str:
    if cell.reader == "spi":
        enable = ("dtparam=spi=on" if cell.settings.get("bus", 0) == 0
                  else "dtoverlay=spi1-1cs")
        return f" (is {enable} in /boot/firmware/config.txt, and the user in group spi?)"
    if cell.reader == "gpio":
        return " (is the hx711 package installed, the pins free, the user in group gpio?)"
    return ""


def evaluate_buttons(held: list[str], pins: Mapping[str, int]) -> Row:
    if held:
        names = ", ".join(f"{name} (GPIO{pins.get(name, '?')})" for name in held)
        return Row("buttons", FAIL, f"held at start: {names}: a stuck button or a wire shorted "
                   "to GND", f"{held[0]} held")
    return Row("buttons", PASS, f"{len(pins)} buttons, none held")


def check_buttons(cfg: Config, *, sim: bool = False, stuck: str | None = None) -> Row:
    from ..drivers.buttons import ButtonBank, mock_factory

    pins = cfg.button_pins()
    factory = mock_factory() if sim else None
    try:
        bank = ButtonBank(pins, lambda edge: None, time.monotonic, factory)
    except Exception as exc:  # noqa: BLE001 - GPIO busy (the service runs), no access
        return Row("buttons", FAIL, f"cannot claim the button pins: {exc} (is the service "
                   "running? `systemctl stop spielleiter` first)", "GPIO busy")
    try:
        if stuck is not None and factory is not None:
            name = stuck if stuck in pins else next(iter(pins))
            factory.pin(pins[name]).drive_low()  # type: ignore[attr-defined]
        return evaluate_buttons(bank.held(), pins)
    finally:
        bank.close()


def check_link(cfg: Config, *, sim: bool = False, fail: bool = False) -> Row:
    """Open the link's port and close it again (in ``sim``: one end of a simulated cable)."""
    import serial

    if not cfg.link_enabled:
        return Row("link", SKIP, "link.enabled = false")
    modem = None
    url = cfg.link_port
    if sim and fail:
        url = UNPLUGGED  # a path that is never there: the port cannot be opened
    elif sim:
        from ..drivers.link import NullModem

        modem = NullModem()
        url = modem.ends[0]
    try:
        port = serial.serial_for_url(url, baudrate=cfg.link_baud, timeout=0)
        port.close()
    except (serial.SerialException, OSError, ValueError) as exc:
        hint = "" if sim else (" (enable the UART and turn off the serial console: raspi-config "
                               "> Interface Options > Serial Port; user in group dialout?)")
        return Row("link", FAIL, f"cannot open {url}: {exc}{hint}", "port not open")
    finally:
        if modem is not None:
            modem.pull()
    where = f"{url} (simulated cable)" if sim else url
    return Row("link", PASS, f"{where} opens at {cfg.link_baud} baud")


# -- the whole self-test --------------------------------------------------------------------------
def run(config_path: Path | None = None, *, sim: bool = False,
        faults: Mapping[str, str] | None = None, seconds: float = WINDOW_S,
        warmup: float = WARMUP_S, wait: Callable[[float], None] = time.sleep) -> Report:
    """``spielleiter selftest``: every part checked in order; a broken part never stops the
    rest."""
    faults = dict(faults or {})
    title = "Spielleiter self-test" + (" (simulated hardware)" if sim else "")
    config_row, cfg = check_config(config_path)
    if cfg is None:
        rest = [Row(part, SKIP, "not checked: fix the config first") for part in
                ("OLED", *(f"{p} pan" for p in PANS), "buttons", "link")]
        return Report((config_row, *rest), title)
    rows = [config_row]
    display_row, device = check_display(cfg, sim=sim, fail="display" in faults)
    rows.append(display_row)
    try:
        rows += check_loadcells(cfg, sim=sim, faults=faults, seconds=seconds, warmup=warmup,
                                wait=wait)
        rows.append(check_buttons(cfg, sim=sim, stuck=faults.get("buttons")))
        rows.append(check_link(cfg, sim=sim, fail="link" in faults))
        report = Report(tuple(rows), title)
        if device is not None:  # whoever stands at the box sees the verdict too
            try:
                device.display(render(report.screen()).convert(device.mode))
            except Exception as exc:  # noqa: BLE001 - the verdict is printed anyway
                log.warning("showing the self-test on the OLED: %s", exc)
        return report
    finally:
        if device is not None:
            _cleanup(device)


class BoxProbe:
    """The self-test of a running box, from the parts it already has open.

    ``begin`` snapshots the readers' counters (call it once they have settled, ``WARMUP_S``
    after start); ``finish`` (``WINDOW_S`` later, on the loop thread) judges each part: the OLED
    by sending it the self-test screen (or by the note that it never answered), each pan by its
    conversions over the window, the buttons by none held, the link by being up.
    """

    def __init__(self, box: Any, *, notes: Iterable[str] = (),
                 config_source: str | None = None) -> None:
        self.box = box
        self.notes = notes
        self.config_source = config_source or "shipped defaults"
        self._t0: float | None = None
        self._before: dict[str, ReaderStats] = {}

    def begin(self) -> None:
        self._t0 = self.box.runtime.clock()
        scales = self.box.scales
        self._before = {}
        if scales is not None:
            for name, pan in scales.pans.items():
                if pan.reader is not None:
                    self._before[name] = pan.reader.stats

    def finish(self) -> Report:
        box = self.box
        elapsed = box.runtime.clock() - (self._t0 if self._t0 is not None else 0.0)
        rows = [Row("config", PASS, f"{self.config_source}: valid"), Row("OLED", PASS, "")]
        rows += self._pans(elapsed)
        rows.append(evaluate_buttons(box.buttons.held(), box.config.button_pins()))
        rows.append(self._link())
        rows[1] = self._display(Report(tuple(rows)))
        return Report(tuple(rows))

    def _display(self, tentative: Report) -> Row:
        """Send the self-test screen (as it reads if the OLED is fine): does it get through?"""
        display = self.box.display
        missing = next((n for n in list(self.notes) if n.startswith("no OLED")), None)
        if missing is not None:
            return Row("OLED", FAIL, f"{missing}; refereeing goes on over the link", "no answer")
        if type(display.device).__name__ == "dummy":
            return Row("OLED", SKIP, "simulated display (luma dummy device)")
        before = display.errors
        display.show(render(tentative.screen()))
        if display.errors > before:
            return Row("OLED", FAIL, f"the self-test frame did not get through ({display.errors} "
                       "failed frames since start): check the OLED's wires (SDA GPIO 2, SCL "
                       "GPIO 3); refereeing goes on over the link", "no answer")
        earlier = f", {before} failed earlier" if before else ", no I2C errors"
        return Row("OLED", PASS, f"answers on I2C: {display.frames_sent} frames sent{earlier}")

    def _pans(self, elapsed: float) -> list[Row]:
        scales = self.box.scales
        rates = {cell.pan: cell.rate for cell in self.box.config.loadcells}
        rows = []
        for name in PANS:
            pan = scales.pans.get(name) if scales is not None else None
            if pan is None:
                rows.append(Row(f"{name} pan", SKIP, f'not configured (loadcells.{name}.reader'
                                ' = "none")'))
            elif pan.reader is None or pan.status.startswith(("reader:", "cannot start")):
                rows.append(Row(f"{name} pan", FAIL, pan.status, "cannot start"))
            else:
                stats = stats_delta(self._before.get(name), pan.reader.stats)
                rows.append(evaluate_loadcell(name, rates.get(name, 10), stats,
                                              max(elapsed, 1e-9), pan.reader.connected))
        return rows

    def _link(self) -> Row:
        cfg = self.box.config
        link = self.box.link
        if not cfg.link_enabled:
            return Row("link", SKIP, "link.enabled = false")
        if link is None:
            return Row("link", SKIP, "no link port attached (simulated hardware)")
        if link.up:
            return Row("link", PASS, f"{link.url} open at {cfg.link_baud} baud")
        return Row("link", FAIL, f"{link.url} is not open: the box keeps retrying; check the "
                   "UART settings (raspi-config) and the cable", "port not open")


__all__ = ["BoxProbe", "FAIL", "FAULTS", "PASS", "Report", "Row", "SKIP", "check_buttons",
           "check_config", "check_display", "check_link", "check_loadcells", "evaluate_buttons",
           "evaluate_loadcell", "parse_faults", "run", "stats_delta"]
