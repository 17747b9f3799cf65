"""The Scale tool tells the person calibrating when a calibration would teach the box how a
pan's span moves with warmth (issue 20): once the cells are 5 K warmer (or colder) than at that
pan's calibrations, and not while the zeros still warm up."""

from __future__ import annotations

import pytest
from support import assert_frame

from spielleiter.device import i18n
from spielleiter.device.modes import MODES
from spielleiter.drivers.thermometer import Temperature
from spielleiter.drivers.weighing import CALIBRATION_HOLD_S

from test_scale_mode import warm

TITLE = {"en": "Scale  (* = stable)", "de": "Waage  (* = ruhig)"}
WARMER = {"en": "Warmer: calibrate", "de": "Wärmer: kalibrieren"}


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


def open_scale(box) -> None:
    while MODES[box.app.cursor].name != "scale":  # by name: the menu's words are German too
        box.tap("host.next")
    box.tap("host.ok")
    box.idle(1.5)


def _thermometer(box, celsius: float) -> None:
    box.runtime.post(Temperature(box.runtime.clock(), celsius))
    box.idle(0.2)


def _calibrate_left_with_200_g(box) -> None:
    box.tap("host.next")                          # calibrate...
    box.tap("host.ok")                            # ...the left pan
    box.tap("host.ok")                            # it is empty
    box.idle(CALIBRATION_HOLD_S + 1)
    box.idle(0.5)
    box.tap("host.ok")                            # 200 g: it's on
    box.put("left", 200)
    box.idle(CALIBRATION_HOLD_S + 2.0)
    box.tap("host.back")                          # done after one mass
    box.put("left", -200)
    box.idle(2.0)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_scale_tool_asks_for_a_calibration_once_the_box_is_5_kelvin_warmer(box_factory,
                                                                               language):
    box = box_factory(language=language)
    warm(box)
    _thermometer(box, 21.0)
    open_scale(box)
    _calibrate_left_with_200_g(box)
    assert box.last_view.title == TITLE[language] and box.last_view.notice == ""
    _thermometer(box, 24.0)                       # 3 K: too little to see the span move
    assert box.last_view.notice == ""
    _thermometer(box, 26.5)
    view = box.last_view
    assert view.notice == WARMER[language] and view.title == TITLE[language]
    assert_frame(box.frame(), f"scale_warmer_{language}")
    _calibrate_left_with_200_g(box)               # the warm calibration: the span is learned
    assert box.last_view.notice == ""
    spans = box.journal.calibration("left")["spans"]
    assert [t for t, _ in spans] == [21.0, 26.5]


def test_colder_than_the_calibration_asks_too_and_no_thermometer_never_asks(box_factory):
    box = box_factory()
    warm(box)
    open_scale(box)
    _calibrate_left_with_200_g(box)              # no thermometer: nothing to learn from
    _thermometer(box, 15.0)
    assert box.last_view.notice == ""
    _thermometer(box, 22.0)
    _calibrate_left_with_200_g(box)
    _thermometer(box, 16.0)
    assert box.last_view.notice == "Colder: calibrate"


def test_no_calibration_hint_while_the_zeros_warm_up_and_the_title_stays(box_factory):
    box = box_factory()
    _thermometer(box, 21.0)
    open_scale(box)
    _calibrate_left_with_200_g(box)
    _thermometer(box, 30.0)                       # the warm-up notice has no room beside the
    assert box.scales.calibrate_again() and box.last_view.notice == ""  # title (warm_up.py)
    assert box.last_view.bar == TITLE["en"]
