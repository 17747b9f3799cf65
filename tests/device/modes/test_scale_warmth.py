"""The Scale tool tells the person calibrating when a calibration would teach the box how a
pan's span moves with warmth (issue 20): once the cells are 5 K warmer (or colder) than at that
pan's calibrations, and not while the zeros still warm up."""

from __future__ import annotations

import pytest
from support import assert_frame

from spielleiter.device import i18n
from spielleiter.device.modes import MODES
from spielleiter.drivers.thermometer import READ_EVERY_S
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
    """The room (and so the cells) at ``celsius``, as the box's twin thermometer reads it
    within its fixed error, once its next reading is taken."""
    box.thermometer.thermometer.room_c = celsius
    box.idle(READ_EVERY_S + 0.5)


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
    cold, warm_c = (t for t, _ in box.journal.calibration("left")["spans"])
    assert warm_c - cold == pytest.approx(5.5, abs=0.07)  # the sensor's 1/16 K steps


def test_colder_than_the_calibration_asks_too_and_no_thermometer_never_asks(box_factory):
    box = box_factory()
    warm(box)
    open_scale(box)
    box.thermometer.thermometer.failed = True     # a loose wire: no temperature
    box.idle(READ_EVERY_S + 0.5)
    _calibrate_left_with_200_g(box)              # made without a temperature
    box.thermometer.thermometer.failed = False
    _thermometer(box, 15.0)
    assert box.last_view.notice == ""             # nothing to learn from
    _thermometer(box, 22.0)
    _calibrate_left_with_200_g(box)
    _thermometer(box, 16.0)
    assert box.last_view.notice == "Colder: calibrate"


def test_no_calibration_hint_while_the_zeros_warm_up_only_the_warm_up_word(box_factory):
    box = box_factory()
    _thermometer(box, 21.0)
    open_scale(box)
    _calibrate_left_with_200_g(box)
    _thermometer(box, 30.0)                       # the warm-up wording, not the hint, as
    assert box.scales.calibrate_again() and box.last_view.notice == ""  # the title
    assert box.last_view.bar == "Scales warming up"


def test_a_pan_never_calibrated_is_named_over_the_title(box_factory):
    box = box_factory()
    warm(box)
    box.scales.pans["right"].calibrated = False    # as a real box's pan before its first one
    open_scale(box)
    assert box.last_view.notice == "R not calibrated"
    assert box.last_view.title == TITLE["en"]


@pytest.mark.parametrize("language", ["en", "de"])
def test_choosing_a_pan_to_calibrate_while_warming_up_says_better_after_it(box_factory,
                                                                          language):
    box = box_factory(language=language)
    open_scale(box)
    box.tap("host.next")                          # calibrate...
    view = box.last_view
    assert view.notice == {"en": "Better after warm-up", "de": "Besser nach Aufwärmen"}[language]
    assert view.notice_at == "row" and len(view.lines) == 2 and view.cursor == 0
    assert_frame(box.frame(), f"scale_pick_warming_{language}")
    box.tap("host.ok")                            # it may still go ahead
    assert box.last_view.title.startswith({"en": "Calibrate", "de": "Kalibrier"}[language])
    warm(box)
    box.tap("host.back")
    box.tap("host.next")
    assert box.last_view.notice == ""             # warm: nothing to say
