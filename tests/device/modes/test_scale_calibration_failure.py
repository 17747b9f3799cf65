"""A calibration that fails says why on the box in the table's language, and the reason stays on
the screen until a key: the person who just spent a minute with masses reads it before trying
again (it was a 1.8 s flash of the driver's English sentence, cut after four lines)."""

from __future__ import annotations

import importlib.util
import string
import sys
from pathlib import Path

import pytest
from support import assert_frame

from spielleiter.device import i18n
from spielleiter.device.i18n import _, refusal
from spielleiter.device.screen.render import View, misfits, wrap
from spielleiter.drivers.weighing import CALIBRATION_HOLD_S, CalibrationError

from test_scale_mode import warm
from test_scale_warmth import open_scale

ROOT = Path(__file__).resolve().parents[3]
NOT_TAKEN = {"en": "500 g not taken", "de": "500 g nicht genommen"}
WHY = {"en": "Masses do not fit one curve: right mass on? Pan free?",
       "de": "Die Gewichte passen nicht: das gewählte drauf? Schale frei?"}
# Values a refusal's parameters take at their longest on the box.
SAMPLES = {"most": 550.0, "count": 3, "mass": 200.0, "counts": -3.36e7}


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


def _catalogued() -> list[str]:
    """The calibration refusals' templates, as the catalogue tool finds them in the source."""
    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("i18n_script", module)  # dataclasses look their module up
    spec.loader.exec_module(sys.modules["i18n_script"])
    script = sys.modules["i18n_script"]
    found, unfit = script.refusals(script.DRIVERS, script.CALIBRATION_REFUSALS,
                                   also=(script.SOURCE,))
    assert unfit == [], unfit
    return sorted(found)


def _calibrate_200_then_confirm_500_but_put_100(box) -> None:
    box.tap("host.next")                          # calibrate...
    box.tap("host.ok")                            # ...the left pan
    box.tap("host.ok")                            # it is empty
    box.idle(CALIBRATION_HOLD_S + 1.5)
    box.tap("host.ok")                            # 200 g: it's on
    box.put("left", 200)
    box.idle(CALIBRATION_HOLD_S + 2.0)
    box.tap("host.ok")                            # another mass: 500 g is offered
    box.put("left", -200)
    box.idle(2.0)
    box.tap("host.ok")                            # "500 g is on", but 100 g is set down
    box.put("left", 100)
    box.idle(CALIBRATION_HOLD_S + 2.0)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_failed_calibration_says_why_in_the_tables_language_until_a_key(box_factory,
                                                                          language):
    box = box_factory(language=language)
    warm(box)
    open_scale(box)
    _calibrate_200_then_confirm_500_but_put_100(box)
    view = box.last_view
    assert view.title == NOT_TAKEN[language]     # the 200 g calibration stands
    assert " ".join(view.lines) == WHY[language] and not misfits(view)
    assert_frame(box.frame(), f"scale_calibration_failed_{language}")
    box.idle(30.0)                                # no timer takes the reason away
    assert box.last_view == view
    saved = box.journal.calibration("left")
    assert [g for g, _ in saved["points"]] == [0.0, 200.0]
    box.tap("host.ok")                            # read: back to the live pans
    assert box.last_view.title.startswith(_("Scale"))


def test_a_first_mass_that_fails_says_calibration_failed_and_keeps_the_old_one(box_factory):
    box = box_factory()
    warm(box)
    before = box.scales.pans["left"].channel.calibration.counts_per_gram
    open_scale(box)
    box.tap("host.next")
    box.tap("host.ok")
    box.tap("host.ok")                            # the empty pan...
    box.idle(CALIBRATION_HOLD_S + 1.5)
    calibrator = box.app.top.mode.calibrator
    zero = calibrator.points[0][1] + 2 * 200.0 * 2147.5 + 1e5  # ...as if the cell's signal
    calibrator.zero_counts, calibrator.points = zero, [(0.0, zero)]  # wires were swapped
    box.tap("host.ok")                            # 200 g: it's on
    box.put("left", 200)
    box.idle(CALIBRATION_HOLD_S + 2.0)
    assert box.last_view.title == "Calibration failed"
    assert box.last_view.lines == ("The reading falls", "under a load: A+ and", "A- swapped?")
    assert box.scales.pans["left"].channel.calibration.counts_per_gram == before


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_calibration_refusal_fits_the_screen_in_both_languages(language):
    i18n.use(language)
    templates = _catalogued()
    assert len(templates) >= 12
    for template in templates:
        names = [name for _, name, _, _ in string.Formatter().parse(template) if name]
        error = CalibrationError(template, **{name: SAMPLES[name] for name in names})
        text = refusal(error)
        assert text == str(error) if language == "en" else text != template, template
        lines = tuple(wrap(text))
        for title in (_("{mass} g not taken").format(mass="500"), _("Calibration failed")):
            shown = View(title, lines, footer=_("OK back"))
            assert not misfits(shown), (template, misfits(shown))
        assert len([_("Not this mass:"), *lines]) <= 4  # the flash's four lines


def test_a_calibration_refusal_survives_pickle_with_its_template():
    import pickle

    error = CalibrationError("{mass:g} g was weighed already: choose another.", mass=200.0)
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == "200 g was weighed already: choose another."
    assert (again.template, again.params) == (error.template, error.params)
