"""The selftest's load cells: each configured pan's reader started, let settle and its
conversions counted for about a second (virtual time on the twins), then judged from its
counters by ``evaluate_loadcell``, which the service's probe uses on a running box too."""

from __future__ import annotations

import time
from dataclasses import fields, replace
from typing import Any, Callable, Mapping

from ...drivers.loadcell import ReaderStats
from ..config.core import PANS, Config
from ..config.cells import LoadCell
from ..i18n import N_, _, decimal
from .report import FAIL, PASS, SKIP, Row

WARMUP_S = 0.5  # a reset HX711 settles for 4 conversions (400 ms at 10 SPS) before the window
WINDOW_S = 1.0  # how long each load cell's conversions are counted
MIN_RATE = 0.7  # of the configured rate: fewer conversions than this fail
THERMO = "thermo"  # the thermometer's part: short enough for the OLED's lines


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
    seen = _("{n} samples in {s} s (rate {rate})").format(n=delivered, s=decimal(seconds, 1),
                                                           rate=rate)
    if delivered == 0 and not connected and not stats.saturated:
        if stats.misaligned or stats.rail:
            bad = stats.misaligned + stats.rail
            return Row(part, FAIL, _("no valid data, {n} reads out of step or at the rail: DOUT "
                                     "stuck low? check the DOUT and PD_SCK wires").format(n=bad),
                       N_("DOUT stuck"))
        return Row(part, FAIL, _("no answer from the HX711 in {s} s: check its VCC, GND, DOUT "
                                 "and PD_SCK wires").format(s=decimal(seconds, 1)),
                   N_("no signal"))
    if stats.saturated:
        return Row(part, FAIL, _("{n} saturated values (0x7FFFFF/0x800000): the input is out "
                                 "of range; check the E+/E-/A+/A- wires and that the cell is "
                                 "not overloaded").format(n=stats.saturated), N_("saturated"))
    if stats.rail:
        return Row(part, FAIL, _("{n} rail values (0x000000/0xFFFFFF): DOUT floating or "
                                 "stuck; check the DOUT wire").format(n=stats.rail),
                   N_("rail values"))
    if delivered < MIN_RATE * expected:
        return Row(part, FAIL, _("{seen}, expected about {n}: check that the RATE pin matches "
                                 "loadcells.{pan}.rate (GND = 10, VCC = 80)").format(
                                     seen=seen, n=f"{expected:.0f}", pan=pan),
                   _("{n}/s, want {rate}").format(n=f"{delivered / seconds:.0f}", rate=rate))
    if not connected:
        return Row(part, FAIL, _("{seen}, but the reader reports the chip silent").format(
            seen=seen), N_("no signal"))
    rejected = stats.rejected - stats.settling - stats.after_stretch
    note = _("; {n} reads discarded").format(n=rejected) if rejected > 0 else ""
    return Row(part, PASS, _("{seen}, no rail or saturated values{note}").format(seen=seen,
                                                                                  note=note))


def not_configured(pan: str) -> Row:
    return Row(f"{pan} pan", SKIP, _('not configured (loadcells.{pan}.reader = "none")').format(
        pan=pan))


def check_loadcells(cfg: Config, *, sim: bool = False, faults: Mapping[str, str] | None = None,
                    seconds: float = WINDOW_S, warmup: float = WARMUP_S,
                    wait: Callable[[float], None] = time.sleep) -> list[Row]:
    """Start every configured pan's reader, let it settle for ``warmup``, then count what it
    delivers in ``seconds`` (virtual seconds in ``sim``)."""
    faults = faults or {}
    cells = {cell.pan: cell for cell in cfg.loadcells}
    rows: dict[str, Row] = {pan: not_configured(pan) for pan in PANS if pan not in cells}
    if sim and cells:
        from ...drivers.sim import SimScale

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
        from ...drivers.loadcell import make_reader

        readers: dict[str, Any] = {}
        try:
            for pan, cell in cells.items():
                try:
                    reader = make_reader(cell.reader, pan, on_event=lambda ev: None,
                                         rate=cell.rate, **cell.settings)
                    readers[pan] = reader
                    reader.start()
                except Exception as exc:  # noqa: BLE001 - a missing bus, module, port
                    rows[pan] = Row(f"{pan} pan", FAIL, _("{reader} reader cannot start: "
                                                          "{why}{hint}").format(
                        reader=cell.reader, why=exc, hint=_reader_hint(cell)), N_("cannot start"))
            running = {pan: r for pan, r in readers.items() if pan not in rows}
            if running:
                wait(warmup)
                before = {pan: r.stats for pan, r in running.items()}
                wait(seconds)
                for pan, reader in running.items():
                    rows[pan] = evaluate_loadcell(pan, cells[pan].rate,
                                                  stats_delta(before[pan], reader.stats),
                                                  seconds, reader.connected)
                    port, device = cells[pan].settings.get("port"), getattr(reader, "device", None)
                    if device is not None and device != port:  # a label: the UART it named
                        rows[pan] = replace(rows[pan], detail=f"{rows[pan].detail} ({port}: "
                                                              f"{device})")
        finally:
            for reader in readers.values():
                reader.close()
    return [rows[pan] for pan in (*PANS, *(p for p in rows if p not in PANS))]


def _reader_hint(cell: LoadCell) -> str:
    if cell.reader == "spi":
        enable = ("dtparam=spi=on" if cell.settings.get("bus", 0) == 0
                  else "dtoverlay=spi1-1cs")
        return _(" (is {enable} in /boot/firmware/config.txt, and the user in group spi?)").format(
            enable=enable)
    if cell.reader == "gpio":
        return _(" (is the hx711 package installed, the pins free, the user in group gpio?)")
    return ""


NO_THERMOMETER = N_("none found (optional: the span is not compensated as the box warms; "
                     "hardware/README.md, a thermometer on a cell)")


def check_thermometer(*, sim: bool = False, fail: bool = False,
                      devices: str | None = None, hwmon: str | None = None) -> Row:
    """The cells' thermometer (optional): found and read once, or why not. A box without one
    passes the self-test; its span is then not compensated as it warms."""
    from ...drivers import thermometer as w1

    if sim:
        from ...drivers.sim import SimThermometer, VirtualClock, make_cell

        sensor: Any = SimThermometer(make_cell(VirtualClock()).pan)
        sensor.failed = fail
        where = _("simulated sensor on the left cell")
    else:
        folder = w1.find_sensor(devices or w1.W1_DEVICES, hwmon or w1.HWMON)
        if folder is None:
            return Row(THERMO, SKIP, _(NO_THERMOMETER), N_("none"))
        sensor, where = w1.SysfsThermometer(folder), folder
    try:
        return _reading_row(sensor.read_c(), "", where)
    except w1.ThermometerError as exc:
        return _reading_row(None, str(exc), where)


def thermometer_row(reader: Any) -> Row:
    """A running box's thermometer (``ThermometerReader`` or None) from its last reading."""
    if reader is None:
        return Row(THERMO, SKIP, _(NO_THERMOMETER), N_("none"))
    last = reader.last
    if last is None:
        return Row(THERMO, SKIP, _("no reading yet"), N_("not yet"))
    return _reading_row(last.celsius, last.detail)


def _reading_row(celsius: float | None, detail: str, where: str = "") -> Row:
    prefix = f"{where}: " if where else ""
    if celsius is None:
        return Row(THERMO, FAIL, prefix + detail, N_("no reading"))
    return Row(THERMO, PASS, _("{where}{c} degrees C").format(where=prefix, c=decimal(celsius, 2)))
