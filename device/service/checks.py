"""``spielleiter selftest``: every part opened and checked on its own, in order.

The OLED gets a frame, each load cell is read for about a second, the buttons are claimed and
read, the link port is opened and closed. With ``sim=True`` the same checks run on the twins: the
real luma driver over a ``RecordingBus``, the pans on ``SimScale`` (virtual time, so the second
takes milliseconds), gpiozero's ``MockFactory`` and one end of a ``NullModem``. ``faults`` breaks
chosen parts there (see ``FAULTS``) to show what a failure looks like. ``evaluate_loadcell``
(check_cells.py) and ``evaluate_buttons`` judge counters and pins; the service's probe
(``probe.BoxProbe``) uses them on the parts a running box already holds.
"""

from __future__ import annotations

import logging
import os
import time
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from ..config.board import Board
from ..config.core import PANS, Config, ConfigError
from ..i18n import N_, _, decimal, ngettext, refusal
from ..config.paths import load_config
from ..screen.render import View, font_problem, render
from . import link_port
from .check_cells import WARMUP_S, WINDOW_S, check_loadcells, check_thermometer
from .report import FAIL, PASS, SKIP, Report, Row

log = logging.getLogger(__name__)

# --fail NAME[:MODE] in --sim; the first mode of each part is its default.
FAULTS: dict[str, tuple[str, ...]] = {
    "display": ("fail",),  # every I2C transfer fails (a loose cable)
    "left": ("silent", "stuck", "saturated"),  # no answer / DOUT stuck low / input out of range
    "right": ("silent", "stuck", "saturated"),
    "buttons": ("s1.A",),  # that button reads as held (any button name; unknown: the first)
    "link": ("gone",),  # the port cannot be opened
    "thermo": ("silent",),  # the cells' thermometer gives no reading (its row's name)
}
UNPLUGGED = "/dev/spielleiter-sim-link-unplugged"


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
    where = str(path) if path is not None else _("shipped defaults")
    try:
        cfg = load_config(path)
    except ConfigError as exc:
        count = _("{n} problem(s)").format(n=len(exc.problems))
        detail = "\n".join([f"{where}: {count}:", *exc.problems])
        return Row("config", FAIL, detail, count), None
    return Row("config", PASS, _("{where}: valid").format(where=where)), cfg


def check_display(cfg: Config, *, sim: bool = False, fail: bool = False) -> tuple[Row, Any]:
    """Open the configured OLED and send it one frame; the row and the open device (or None)."""
    from ...drivers.display import RecordingBus, open_device

    where = f"{cfg.display_driver} at I2C {cfg.i2c_port}/0x{cfg.i2c_address:02X}"
    adapter = None if sim else Board().i2c_adapter(cfg.i2c_port)
    if adapter:
        where += f" ({adapter})"
    bus = RecordingBus(fail=fail) if sim else None
    try:
        device = open_device(cfg.display_driver, bus=bus, **cfg.display_options())
    except Exception as exc:  # noqa: BLE001 - DisplayError, no /dev/i2c-N, no permission
        seen = str(exc) if str(exc).startswith(where) else f"{where}: {exc}"
        return Row("OLED", FAIL, _("{seen}; check VCC, GND, SDA on GPIO 2 and SCL on GPIO 3, "
                                   "then `i2cdetect -y {port}`").format(seen=seen,
                                                                        port=cfg.i2c_port),
                   N_("no answer")), None
    sent = bus.bytes_sent if bus is not None else 0
    try:
        device.display(render(View(_("Self-test"), (_("OLED ok"),))).convert(device.mode))
    except Exception as exc:  # noqa: BLE001 - OSError or luma's errors on a bad bus
        _cleanup(device)
        return Row("OLED", FAIL, _("{where}: opened, but sending a frame failed ({why})").format(
            where=where, why=exc), N_("frame failed")), None
    extra = _(" ({n} bytes over the recording bus)").format(n=bus.bytes_sent - sent) \
        if bus is not None else ""
    problem = font_problem()  # the screens' bitmap font: without it letters run together
    if problem is not None:
        return Row("OLED", FAIL, _("{where}: answered, but {problem} (sudo apt-get install "
                                   "fonts-terminus-otb); until then letters run together").format(
            where=where, problem=problem), N_("font missing")), device
    speed = "" if sim else i2c_speed_note(Board(), cfg.i2c_port, cfg.i2c_speed_hz)
    return Row("OLED", PASS, _("{where}: answered, frame sent{extra}, Terminus type{speed}").format(
        where=where, extra=extra, speed=speed)), device


def i2c_speed_note(board: Board, port: int, wanted: int) -> str:
    """What the OLED's row says about the bus clock (the kernel's, from the device tree)."""
    hz = board.i2c_speed_hz(port)
    if hz is None:
        return ""
    if hz == wanted:
        return _("; I2C at {khz} kHz").format(khz=f"{hz / 1000:g}")
    return _("; I2C at {khz} kHz, but display.i2c_speed_hz = {wanted}: sudo bash "
             "scripts/install.sh sets dtparam=i2c_arm_baudrate, then reboot").format(
        khz=f"{hz / 1000:g}", wanted=wanted)


def _cleanup(device: Any) -> None:
    try:
        device.cleanup()
    except Exception as exc:  # noqa: BLE001  # pragma: no cover - gone at the end
        log.debug("display cleanup: %s", exc)


def evaluate_buttons(held: list[str], pins: Mapping[str, int]) -> Row:
    if held:
        names = ", ".join(f"{name} (GPIO{pins.get(name, '?')})" for name in held)
        return Row("buttons", FAIL, _("held at start: {names}: a stuck button or a wire "
                                      "shorted to GND").format(names=names),
                   _("{name} held").format(name=held[0]))
    return Row("buttons", PASS, _("{n} buttons, none held").format(n=len(pins)))


def check_buttons(cfg: Config, *, sim: bool = False, stuck: str | None = None) -> Row:
    from gpiozero.exc import BadPinFactory, PinFactoryFallback

    from ...drivers.buttons import ButtonBank, mock_factory

    pins = cfg.button_pins()
    factory = mock_factory() if sim else None
    chip = None
    if not sim:
        from ...drivers.gpio_chip import ChipNotFound
        from .parts import open_pins

        try:
            factory, chip = open_pins(cfg)  # the header's chip, by its label
        except ChipNotFound as exc:
            return Row("buttons", FAIL, _("{reason}; set [hardware] gpio_chip to the header's "
                                          "chip (`gpiodetect` lists them) or check the kernel's "
                                          "GPIO driver").format(reason=refusal(exc)),
                       N_("no GPIO"))
        except Exception as exc:  # noqa: BLE001 - lgpio cannot open it (permission, not a Pi)
            return Row("buttons", FAIL, f"GPIO chip {cfg.hardware.gpio_chip}: {exc}",
                       "no GPIO")
    # gpiozero tries its pin libraries in turn and warns about each one that fails: the row says
    # it instead of a screenful of PinFactoryFallback warnings on the terminal.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PinFactoryFallback)
        try:
            bank = ButtonBank(pins, lambda edge: None, time.monotonic, factory)
            error: Exception | None = None
        except Exception as exc:  # noqa: BLE001 - no GPIO, GPIO busy (the service runs), no access
            error = exc
    tried = _fallbacks(caught)
    if isinstance(error, BadPinFactory):
        return _no_gpio(error, tried)
    if error is not None:
        return Row("buttons", FAIL, _("cannot claim the button pins: {why} (is the service "
                                      "running? `systemctl stop spielleiter` first)").format(
            why=error), N_("GPIO busy"))
    try:
        if stuck is not None and factory is not None:
            name = stuck if stuck in pins else next(iter(pins))
            factory.pin(pins[name]).drive_low()  # type: ignore[attr-defined]
        row = evaluate_buttons(bank.held(), pins)
        if chip is not None:
            row = replace(row, detail=f"{row.detail} (GPIO chip {chip.describe()})")
    finally:
        bank.close()
    if tried:  # it worked, through a pin library further down gpiozero's list
        log.info("gpiozero pin libraries that could not be used: %s", "; ".join(tried))
    return row


def _fallbacks(caught: list[warnings.WarningMessage]) -> list[str]:
    """gpiozero's PinFactoryFallback warnings as "lgpio: why" texts; any other warning caught on
    the way is shown as it would have been."""
    from gpiozero.exc import PinFactoryFallback

    tried = []
    for w in caught:
        if issubclass(w.category, PinFactoryFallback):
            tried.append(str(w.message).removeprefix("Falling back from "))
        else:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno, w.file, w.line)
    return tried


def _no_gpio(exc: Exception, tried: list[str]) -> Row:
    """The buttons' row on a machine without GPIO (a laptop, a container) or without the pin
    library the installer sets up."""
    chosen = os.environ.get("GPIOZERO_PIN_FACTORY")
    if chosen:
        why = _("GPIOZERO_PIN_FACTORY={chosen} names no pin library gpiozero can load "
                "({why})").format(chosen=chosen, why=exc)
    else:
        why = (_("gpiozero found no pin library that works here")
               + (_(" (tried {tried})").format(tried="; ".join(tried)) if tried else ""))
    return Row("buttons", FAIL, _("no GPIO on this machine: {why}. On the box, scripts/install.sh "
                                  "installs the pin library (lgpio); elsewhere use `spielleiter "
                                  "selftest --sim`").format(why=why), N_("no GPIO"))


def check_link(cfg: Config, *, sim: bool = False, fail: bool = False,
               board: Board | None = None) -> Row:
    """The link's port: on a Pi it must be the UART on GPIO 14/15 with no console on it
    (``link_port.check``), and it must open (in ``sim``: one end of a simulated cable)."""
    import serial

    if not cfg.link_enabled:
        return Row("link", SKIP, "link.enabled = false")
    modem = None
    board = board or Board()
    if sim:
        url, where = UNPLUGGED, _("the simulated cable")
        if not fail:
            from ...drivers.link import NullModem

            modem = NullModem()
            url = modem.ends[0]
            where = _("{url} (simulated cable)").format(url=url)
    else:
        verdict = link_port.check(board, cfg.link_port)
        if verdict.problem is not None:
            return Row("link", FAIL, verdict.problem, verdict.short)
        url, where = verdict.device, verdict.detail
        if url.startswith("/dev/"):
            url = str(board.path(url))
    try:
        port = serial.serial_for_url(url, baudrate=cfg.link_baud, timeout=0)
        port.close()
    except (serial.SerialException, OSError, ValueError) as exc:
        hint = "" if sim else _(" (the UART off? sudo bash scripts/install.sh enables it; the "
                                "user in group dialout?)")
        return Row("link", FAIL, _("cannot open {url}: {why}{hint}").format(url=url, why=exc,
                                                                            hint=hint),
                   N_("port not open"))
    finally:
        if modem is not None:
            modem.pull()
    return Row("link", PASS, _("{where}; opens at {baud} baud").format(where=where,
                                                                        baud=cfg.link_baud))


def check_journal(state_dir: Path, now: float | None = None) -> Row:
    """The journal in ``state_dir`` (read only, beside a running box too): SQLite's
    ``quick_check``, and the newest backup: its age, its games, how many are kept. A journal
    with ended games and no backup fails: a damaged card would take every game with it."""
    import sqlite3

    from ..journal import backup as journal_backup
    from ..config.paths import JOURNAL_NAME

    path = Path(state_dir) / JOURNAL_NAME
    if not path.is_file():
        return Row("journal", SKIP, _("no journal yet in {folder}").format(folder=state_dir))
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            games, ended = db.execute("SELECT COUNT(*), COUNT(ended) FROM games").fetchone()
        finally:
            db.close()
    except sqlite3.Error as exc:
        return Row("journal", FAIL, _("{path}: cannot be read ({why}); the box sets it aside "
                                      "and restores the newest backup at its next start").format(
            path=path, why=exc), N_("unreadable"))
    if check != "ok":
        return Row("journal", FAIL, _("{path}: damaged ({why}); the box sets it aside and "
                                      "restores the newest backup at its next start").format(
            path=path, why=check), N_("damaged"))
    seen = _("{path}: quick_check ok, {games}").format(path=path, games=_games(games))
    newest = journal_backup.newest(path, now)
    if newest.name is None:
        if ended:
            return Row("journal", FAIL, _("{seen}, {n} ended, but no backup in {folder}: is the "
                                          "card full?").format(
                seen=seen, n=ended, folder=journal_backup.folder(path)), N_("no backup"))
        return Row("journal", PASS, _("{seen}; no backup yet (one is made when a game "
                                      "ends)").format(seen=seen))
    if newest.games is None:
        return Row("journal", FAIL, _("{seen}; the newest backup {name} cannot be "
                                      "read").format(seen=seen, name=newest.name),
                   N_("bad backup"))
    age = _("age unknown (the clock was not right when it was written)") \
        if newest.age_s is None else _("{age} old").format(age=_age(newest.age_s))
    return Row("journal", PASS, _("{seen}; newest backup {name}: {age}, {games}; {n} "
                                  "kept").format(seen=seen, name=newest.name, age=age,
                                                 games=_games(newest.games), n=newest.kept))


def _games(n: int) -> str:
    return ngettext("{n} game", "{n} games", n).format(n=n)


def _age(seconds: float) -> str:
    for unit, size in ((N_("days"), 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{decimal(seconds / size, 1)} {_(unit)}"
    return f"{seconds:.0f} s"


# -- the whole self-test --------------------------------------------------------------------------
def run(config_path: Path | None = None, *, sim: bool = False,
        faults: Mapping[str, str] | None = None, seconds: float = WINDOW_S,
        warmup: float = WARMUP_S, wait: Callable[[float], None] = time.sleep,
        state_dir: Path | None = None) -> Report:
    """``spielleiter selftest``: every part checked in order; a broken part never stops the
    rest. With ``state_dir``, the journal there too (``check_journal``)."""
    faults = dict(faults or {})
    config_row, cfg = check_config(config_path)
    sim = sim or (cfg is not None and cfg.hardware.simulated)  # [hardware] simulated = true
    title = _("Spielleiter self-test (simulated hardware)") if sim else _("Spielleiter self-test")
    if cfg is None:
        rest = [Row(part, SKIP, _("not checked: fix the config first")) for part in
                ("OLED", *(f"{p} pan" for p in PANS), "buttons", "link")]
        return Report((config_row, *rest), title)
    rows = [config_row]
    display_row, device = check_display(cfg, sim=sim, fail="display" in faults)
    rows.append(display_row)
    try:
        rows += check_loadcells(cfg, sim=sim, faults=faults, seconds=seconds, warmup=warmup,
                                wait=wait)
        if cfg.loadcells:
            rows.append(check_thermometer(sim=sim, fail="thermo" in faults))
        rows.append(check_buttons(cfg, sim=sim, stuck=faults.get("buttons")))
        rows.append(check_link(cfg, sim=sim, fail="link" in faults))
        if state_dir is not None:
            rows.append(check_journal(state_dir))
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
