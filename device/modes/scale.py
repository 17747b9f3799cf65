"""The Scale mode: every pan live, the judged verdict of two pans, tare, and calibration on the
host panel (the ``Calibrator`` procedure, as in ``spielleiter calibrate``)."""

from __future__ import annotations

from typing import Any

from ...drivers.weighing import CALIBRATION_MASS_G, CalibrationError, Calibrator
from ..i18n import N_, _
from ..inputs import Press, Weight
from ..scales import pan_name, verdict_text
from ..screens import View
from .base import ModeInfo

CALIBRATION_MASSES_G = (50, 100, 200, 500, 1000)  # the reference masses the screen offers


def pan_labels(names: list[str]) -> dict[str, str]:
    """Short labels for the live lines: the initial, or three letters where initials clash."""
    initials = [name[0].upper() for name in names]
    if len(set(initials)) == len(initials):
        return dict(zip(names, initials))
    return {name: name[:3].capitalize() for name in names}


class ScaleMode:
    """Live pans (OK tares, NEXT calibrates); calibration walks empty pan -> known mass -> saved."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.scales = app.scales
        self.step = "live"
        self.cursor = 0
        self.mass_index = CALIBRATION_MASSES_G.index(int(CALIBRATION_MASS_G))
        self.calibrator: Calibrator | None = None
        self.waiting = False  # OK was pressed: capture as soon as the pan has been still

    # -- the mode's inputs ------------------------------------------------------------------------
    def holds(self) -> frozenset[str]:
        return frozenset()

    def on_press(self, press: Press) -> bool:
        if press.station is not None:
            self.app.refuse_station()
            return True
        return self.on_host(press.key)

    def on_weight(self, weight: Weight) -> bool:
        if weight.kind == "stable":
            self.try_capture()
        return True

    def private(self) -> bool:
        return False

    def close(self) -> None:
        self.scales.cancel_calibration()

    def on_host(self, key: str) -> bool:
        """Handle a key; False on BACK from the live view (the App closes the tool)."""
        if self.step == "live":
            if key == "back":
                return False
            if key == "ok":
                refused = self.scales.tare()
                self.app.flash(_("Tared") if not refused else _("{pans} pan moving:").format(
                    pans=", ".join(pan_name(p) for p in refused)),
                               "" if not refused else _("not tared, try again"))
            elif key == "next" and self.scales.pans:
                self.step, self.cursor = "pick", 0
            return True
        if key == "back":
            self.scales.cancel_calibration()
            self.step, self.calibrator, self.waiting = "live", None, False
            return True
        if self.step == "pick":
            names = list(self.scales.pans)
            if key == "next":
                self.cursor = (self.cursor + 1) % len(names)
            elif key == "ok":
                self.calibrator = Calibrator(names[self.cursor])
                self.step = "empty"
        elif self.step == "empty" and key == "ok":
            self.waiting = True
            self.try_capture()
        elif self.step == "mass":
            if key == "next" and not self.waiting:
                self.mass_index = (self.mass_index + 1) % len(CALIBRATION_MASSES_G)
            elif key == "ok":
                assert self.calibrator is not None
                self.calibrator.mass_g = CALIBRATION_MASSES_G[self.mass_index]
                self.waiting = True
                self.try_capture()
        return True

    def try_capture(self) -> None:
        """Arm the calibrator for its step (on OK): it captures once the pan has been still."""
        if self.waiting and self.calibrator is not None:
            self.scales.begin_calibration(self.calibrator, self._stepped)

    def _stepped(self, calibrator: Calibrator, error: CalibrationError | None) -> None:
        if calibrator is not self.calibrator:
            return
        self.waiting = False
        if error is not None:
            self.app.flash(_("Calibration failed:"), str(error))
            self.step, self.calibrator = "live", None
        elif calibrator.step == "mass":
            self.step = "mass"
        elif calibrator.step == "done":
            self.app.flash(_("{pan} pan calibrated").format(pan=pan_name(calibrator.pan).title()),
                           _("with {mass} g. Take it off.").format(mass=f"{calibrator.mass_g:g}"),
                           seconds=3.0)
            self.step, self.calibrator = "live", None

    # -- screen ----------------------------------------------------------------------------------
    def view(self) -> View:
        scales = self.scales
        if not scales.pans:
            return View(_("Scale"), (_("No load cells are"), _("configured.")),
                        footer=_("BACK menu"))
        if self.step == "pick":
            return View(_("Calibrate"), tuple(_("{pan} pan").format(pan=pan_name(name).title())
                                              for name in scales.pans),
                        cursor=self.cursor, footer=_("NEXT move  OK choose"))
        if self.step in ("empty", "mass"):
            assert self.calibrator is not None
            pan = pan_name(self.calibrator.pan)
            reading = scales.reading(self.calibrator.pan)
            still = reading.text().strip()
            if self.waiting:
                still = _("Hold still...") if self.step == "empty" else _("Waiting for the mass")
            title = _("Calibrate {pan}").format(pan=pan)
            if self.step == "empty":
                return View(title, (_("Empty the {pan} pan,").format(pan=pan),
                                    _("then press OK."), still), footer=_("OK empty  BACK stop"))
            mass = CALIBRATION_MASSES_G[self.mass_index]
            line = still if self.waiting else _("Put it on the {pan} pan").format(pan=pan)
            return View(title, (line,), big=f"{mass} g",  # one line fits under the mass
                        footer=_("NEXT mass  OK it's on"))
        labels = pan_labels(list(scales.pans))
        lines = [f"{labels[name]} {scales.reading(name).text()}" for name in scales.pans]
        verdict = scales.verdict()
        if verdict:
            lines.append(verdict_text(verdict))
        elif scales.judged_pans() is not None:
            lines.append(_("weighing..."))
        return View(_("Scale  (* = stable)"), tuple(lines), footer=_("OK tare  NEXT calibr."))


MODE = ModeInfo("scale", N_("Scale"), open=ScaleMode, order=80,
                shows_grams=True)
