"""The self-test of a running box, judged from the parts it already has open.

The service runs it once at start (``loop.Service``): nothing is opened twice, so the referee
keeps its pins, bus and port while being checked.
"""

from __future__ import annotations

from typing import Any, Iterable

from ...drivers.loadcell import ReaderStats
from ..config.core import PANS
from ..i18n import N_
from ..screen.render import render
from .check_cells import evaluate_loadcell, not_configured, stats_delta, thermometer_row
from .checks import evaluate_buttons
from .report import FAIL, PASS, SKIP, Report, Row


class BoxProbe:
    """``begin`` snapshots the readers' counters (call it once they have settled,
    ``check_cells.WARMUP_S`` after start); ``finish`` (``check_cells.WINDOW_S`` later, on the loop thread)
    judges each part: the OLED by sending it the self-test screen (or by the note that it never
    answered), each pan by its conversions over the window, the buttons by none held, the link
    by being up.
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
        if box.scales is not None and box.scales.pans:
            rows.append(thermometer_row(box.thermometer))
        parts = getattr(box, "parts", None)
        if parts is not None and "gpio" in parts.missing:
            rows.append(Row("buttons", FAIL, f"no GPIO chip: {parts.missing['gpio']}; the box "
                            "tries again every 30 s", "no GPIO"))
        else:
            rows.append(evaluate_buttons(box.buttons.held(), box.config.button_pins()))
        rows.append(self._link())
        rows[1] = self._display(Report(tuple(rows)))
        return Report(tuple(rows))

    def _display(self, tentative: Report) -> Row:
        """Send the self-test screen (as it reads if the OLED is fine): does it get through?"""
        display = self.box.display
        missing = next((n for n in list(self.notes) if n.startswith("no OLED")), None)
        parts = getattr(self.box, "parts", None)
        if parts is not None and "oled" in parts.missing:
            missing = f"no OLED ({parts.missing['oled']})"
        if missing is not None:
            return Row("OLED", FAIL, f"{missing}; refereeing goes on over the link", N_("no answer"))
        if type(display.device).__name__ == "dummy":
            return Row("OLED", SKIP, "simulated display (luma dummy device)")
        before = display.errors
        display.show(render(tentative.screen()))
        if display.errors > before:
            return Row("OLED", FAIL, f"the self-test frame did not get through ({display.errors} "
                       "failed frames since start): check the OLED's wires (SDA GPIO 2, SCL "
                       "GPIO 3); refereeing goes on over the link", N_("no answer"))
        earlier = f", {before} failed earlier" if before else ", no I2C errors"
        return Row("OLED", PASS, f"answers on I2C: {display.frames_sent} frames sent{earlier}")

    def _pans(self, elapsed: float) -> list[Row]:
        scales = self.box.scales
        rates = {cell.pan: cell.rate for cell in self.box.config.loadcells}
        pans = scales.pans if scales is not None else {}
        rows = []
        for name in (*PANS, *(p for p in pans if p not in PANS)):
            pan = pans.get(name)
            if pan is None:
                rows.append(not_configured(name))
            elif pan.reader is None or pan.status.startswith(("reader:", "cannot start")):
                rows.append(Row(f"{name} pan", FAIL, pan.status, N_("cannot start")))
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
                   "UART settings (raspi-config) and the cable", N_("port not open"))
