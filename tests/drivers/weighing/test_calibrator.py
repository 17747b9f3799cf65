"""The one calibration procedure: the empty pan, then a known mass, each held still for hold_s."""

import random

import pytest

from spielleiter.drivers.weighing import Calibration, CalibrationError, Calibrator, ScaleChannel

CPG, OFFSET = 2100.0, 80_000.0


def feed(ch, calibrator, grams, t0, seconds, rng):
    """Samples of ``grams`` at 10 per second; the time of the first capture, or None."""
    captured = None
    for i in range(round(seconds * 10)):
        t = t0 + i / 10
        ch.feed(t, OFFSET + (grams + rng.gauss(0, 0.015)) * CPG)
        if calibrator.capture(ch) and captured is None:
            captured = t
    return captured


def test_each_step_is_captured_only_after_the_pan_has_been_still_for_hold_s():
    rng = random.Random(5)
    ch = ScaleChannel("left", Calibration(), rate=10)
    cal = Calibrator("left", mass_g=200.0, hold_s=2.0)
    t_zero = feed(ch, cal, 0.0, 0.0, 4.0, rng)
    assert cal.step == "mass" and t_zero >= 2.0
    t_span = feed(ch, cal, 200.0, 4.0, 5.0, rng)
    assert cal.step == "done" and t_span - 4.0 >= 2.0
    assert cal.result.counts_per_gram == pytest.approx(CPG, rel=1e-4)
    assert cal.result.grams(OFFSET + 50 * CPG) == pytest.approx(50, abs=0.01)


def test_a_mass_not_yet_set_down_is_never_taken_for_the_span():
    rng = random.Random(6)
    ch = ScaleChannel("left", Calibration(), rate=10)
    cal = Calibrator("left", hold_s=0.5)
    feed(ch, cal, 0.0, 0.0, 3.0, rng)
    assert cal.step == "mass"
    feed(ch, cal, 0.0, 3.0, 5.0, rng)  # still empty: the span waits
    assert cal.step == "mass" and cal.result is None


def test_a_span_too_small_for_the_stated_mass_defines_no_scale():
    rng = random.Random(7)
    ch = ScaleChannel("left", Calibration(), rate=10)
    cal = Calibrator("left", mass_g=5000.0, hold_s=0.5)  # says 5 kg, the reading moves by 1 g
    feed(ch, cal, 0.0, 0.0, 2.0, rng)
    with pytest.raises(CalibrationError):
        feed(ch, cal, 1.0, 2.0, 3.0, rng)


def test_a_stored_calibration_that_is_not_a_table_or_not_finite_is_refused():
    for bad in ([1, 2], "x", {"offset": "nan", "counts_per_gram": 2000},
                {"offset": 0, "counts_per_gram": "inf"}):
        with pytest.raises(CalibrationError):
            Calibration.from_json(bad)
