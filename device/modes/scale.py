"""The Scale mode: every pan live, the judged verdict of two pans, tare, and calibration on the
host panel (the ``Calibrator`` procedure, as in ``spielleiter calibrate``): the empty pan, a
known mass, then up to two more if the person wants heavy items exact (the fit takes the bow out
of the cell). A mass is only ever taken after OK on its screen: the person confirmed it is on."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ...drivers.weighing import CALIBRATION_MASS_G, MAX_MASSES, CalibrationError, Calibrator
from ..i18n import N_, _, refusal
from ..inputs import Weight
from ..pans.scales import Scales, TableScales
from ..pans.warm_up import notice_text
from ..pans.words import pan_name, upper_first, verdict_text
from ..screen.render import View, misfits, wrap
from .base import HostTool, ModeInfo

if TYPE_CHECKING:
    from ..ui.screen import Shell

CALIBRATION_MASSES_G = (50, 100, 200, 500)  # the reference masses the screen offers (all
#                                           below the overload stop, 600-800 g)
NEXT_MASS_G = (500, 100, 50, 200)  # offered for another mass: spread out over the range first


def pan_labels(names: list[str]) -> dict[str, str]:
    """Short labels for the live lines: the initial, or three letters where initials clash."""
    initials = [name[0].upper() for name in names]
    if len(set(initials)) == len(initials):
        return dict(zip(names, initials))
    return {name: name[:3].capitalize() for name in names}


class ScaleMode(HostTool):
    """Live pans (OK tares, NEXT calibrates); calibration walks empty pan -> known mass -> saved."""

    def __init__(self, app: "Shell") -> None:
        self.app = app
        # an App given no pans at all shows what a box with none configured shows
        self.scales: TableScales = app.scales if app.scales is not None else Scales.fed([])
        self.step = "live"
        self.cursor = 0
        self.mass_index = CALIBRATION_MASSES_G.index(int(CALIBRATION_MASS_G))
        self.calibrator: Calibrator | None = None
        self.waiting = False  # OK was pressed: capture as soon as the pan has been still
        self.failure: CalibrationError | None = None  # why the last calibration failed
        self.failed_g = 0.0  # the mass it failed on (after earlier ones were saved)
        self.kept = False  # whether earlier masses of it were saved (they stay)

    # -- the mode's inputs (station keys, holds: HostTool's) ------------------------------------
    def on_weight(self, weight: Weight) -> bool:
        if weight.kind == "stable":
            self.try_capture()
        return True

    def close(self) -> None:
        self.scales.cancel_calibration()

    def weighs(self) -> bool:
        """The live pans and calibration: always (the warm-up notice, ``device.warm_up``)."""
        return bool(self.scales.pans)

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
        if key == "back" or self.step in ("done", "failed"):
            # BACK from "more" is "done": saved already, and its screen said so. No flash
            # after it: a BACK pressed to take a flash away would close the tool. A failure's
            # screen stays until a key: the person reads why before trying again.
            self.scales.cancel_calibration()
            self.step, self.calibrator, self.waiting = "live", None, False
            return True
        if self.step == "pick":
            names = list(self.scales.pans)
            if key == "next":
                self.cursor = (self.cursor + 1) % len(names)
            elif key == "ok":
                self.calibrator, self.kept = Calibrator(names[self.cursor]), False
                self.step = "empty"
        elif self.step == "empty" and key == "ok":
            self.waiting = True
            self.try_capture()
        elif self.step == "mass":
            if key == "next" and not self.waiting:
                self.mass_index = self._next_mass(self.mass_index + 1)
            elif key == "ok" and not self.waiting:
                assert self.calibrator is not None
                mass = CALIBRATION_MASSES_G[self.mass_index]
                try:
                    if self.calibrator.masses:
                        self.calibrator.another(mass)  # the person confirmed this mass is on
                    else:
                        self.calibrator.mass_g = mass
                except CalibrationError as exc:
                    self.app.flash(_("Not this mass:"), refusal(exc))
                    return True
                self.waiting = True
                self.try_capture()
        elif self.step == "more" and key == "ok":
            assert self.calibrator is not None
            used = self.calibrator.masses
            self.mass_index = self._next_mass(CALIBRATION_MASSES_G.index(
                next(m for m in NEXT_MASS_G if m not in used)))
            self.step = "mass"
        return True

    def _next_mass(self, index: int) -> int:
        """The first offered mass from ``index`` on (wrapping) not weighed in this calibration."""
        used = self.calibrator.masses if self.calibrator is not None else []
        n = len(CALIBRATION_MASSES_G)
        for i in range(n):
            j = (index + i) % n
            if CALIBRATION_MASSES_G[j] not in used:
                return j
        return index % n

    def try_capture(self) -> None:
        """Arm the calibrator for its step (on OK): it captures once the pan has been still."""
        if self.waiting and self.calibrator is not None:
            self.scales.begin_calibration(self.calibrator, self._stepped)

    def _stepped(self, calibrator: Calibrator, error: CalibrationError | None) -> None:
        if calibrator is not self.calibrator:
            return
        self.waiting = False
        if error is not None:
            self.failed_g = calibrator.mass_g
            self.step, self.calibrator, self.failure = "failed", None, error
            self.app.beep("error")
        elif calibrator.step == "mass":
            self.step = "mass"
        elif calibrator.step == "done" and len(calibrator.masses) < MAX_MASSES:
            self.kept = True
            self.step = "more"  # saved; another mass may make heavy items exact
            self.scales.begin_calibration(calibrator, self._stepped)  # it follows the zero
        elif calibrator.step == "done":
            self.step, self.kept = "done", True  # the last mass: its screen stays until a key

    def _reading(self, name: str) -> str:
        """One pan's reading for a line: never a number beyond the pan's range."""
        return self.scales.reading(name).text()

    # -- screen ----------------------------------------------------------------------------------
    def view(self) -> View:
        scales = self.scales
        if not scales.pans:
            return View(_("Scale"), (_("No load cells are"), _("configured.")),
                        footer=_("BACK menu"))
        if self.step == "pick":
            view = View(_("Calibrate"), tuple(upper_first(_("{pan} pan").format(
                pan=pan_name(name))) for name in scales.pans),
                        cursor=self.cursor, footer=_("NEXT move  OK choose"))
            if any(shot.warming for shot in scales.snapshots().values()):
                # a calibration while the zero still drifts is off by the drift: say so before
                # the person starts (it may still go ahead: a box in a hurry)
                return replace(view, notice=_("Better after warm-up"), notice_at="row")
            return view
        if self.step == "failed":
            return self._failed_view()
        if self.step in ("more", "done"):
            assert self.calibrator is not None
            title = upper_first(_("{pan} pan calibrated").format(pan=pan_name(self.calibrator.pan)))
            done = f"{self.calibrator.masses[-1]:g}"
            off = _("Take the {masses} g off.").format(masses=done)
            if self.step == "done":
                masses = ", ".join(f"{m:g}" for m in self.calibrator.masses)
                return View(title, (_("with {masses} g.").format(masses=masses), off),
                            footer=_("OK done"))
            return View(title, (off, _("Another mass makes"), _("heavy items exact.")),
                        footer=_("OK another  BACK stop"))
        if self.step in ("empty", "mass"):
            assert self.calibrator is not None
            pan = pan_name(self.calibrator.pan)
            still = self._reading(self.calibrator.pan).strip()
            if scales.snapshot(self.calibrator.pan).overload:
                still = _("Too heavy for the pan")
            elif self.waiting:
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
        lines = [f"{labels[name]} {self._reading(name)}" for name in scales.pans]
        verdict = scales.verdict()
        shots = scales.snapshots()
        judged = scales.judged_pans()
        if verdict:
            lines.append(verdict_text(verdict))
        elif judged is not None and any(shots[name].overload for name in judged):
            lines.append(_("Take some off"))  # no verdict comes while a pan is too heavy
        elif any(shot.underload for shot in shots.values()):
            lines.append(_("Empty? OK tares"))  # tared with a load on, then emptied: say how
        elif judged is not None:
            lines.append(_("weighing..."))
        warming = any(shot.warming for shot in shots.values())
        # While the zeros warm up the title says so in the box's one wording for it (warm_up.py):
        # not the time to calibrate yet.
        title = notice_text() if warming else _("Scale  (* = stable)")
        view = View(title, tuple(lines), footer=_("OK tare  NEXT calibr."))
        if warming:
            return view
        uncalibrated = [labels[name] for name, shot in shots.items()
                        if shot.connected and not shot.calibrated]
        if uncalibrated:  # its grams are the chip's own guess: say so over the title
            marked = replace(view, notice=_("{pans} not calibrated").format(
                pans=" ".join(uncalibrated)))
            return marked if not misfits(marked) else replace(view, notice=_("Not calibrated"))
        return replace(view, notice=self._warmth_notice())

    def _failed_view(self) -> View:
        """Why the calibration failed, in the table's language, until a key. A later mass that
        failed is "not taken": the calibration saved with the earlier ones stays."""
        assert self.failure is not None
        title = _("{mass} g not taken").format(mass=f"{self.failed_g:g}") if self.kept else \
            _("Calibration failed")
        return View(title, tuple(wrap(refusal(self.failure))), footer=_("OK back"))

    def _warmth_notice(self) -> str:
        """Once the box is 5 K warmer (or colder) than at a pan's only calibrations, a
        calibration now teaches the box how that pan's span moves with warmth: say so (not while
        the zeros still warm up: the warm-up notice comes first)."""
        due = self.scales.calibrate_again()
        if not due:
            return ""
        if next(iter(due.values())) > 0:
            return _("Warmer: calibrate")
        return _("Colder: calibrate")


MODE = ModeInfo("scale", N_("Scale"), open=ScaleMode, order=80,
                shows_grams=True)
