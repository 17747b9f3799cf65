"""Calibration with two or three known masses: the fit removes the cell's bow."""

import pytest

from spielleiter.drivers import sim
from spielleiter.drivers.sim.cell_physics import CellProfile
from spielleiter.drivers.weighing import Calibration, CalibrationError, Calibrator

from twin import rig

BENT = sim.PanPhysics.realistic(creep_fraction=0.0, cell=CellProfile(
    warmup_g=(0.0, 0.0), box_rise_k=(0.0, 0.0), nonlinearity_fs=0.0005))


def calibrate(r, masses):
    """A person at the pan: empty, then each mass set down (and taken off again) on request."""
    cal = Calibrator("left", mass_g=masses[0], hold_s=2.0)

    def until(step):
        for _ in range(200):
            r.run(0.1)
            if cal.capture(r.channel) or cal.step != step:
                return
        raise AssertionError(f"never captured {step}")
    until("empty")
    for i, mass in enumerate(masses):
        if i:
            cal.another(mass)
        r.pan.place(mass)
        until("mass")
        r.pan.remove(mass)
        r.run(3)
    r.channel.set_calibration(cal.result)
    r.run(3)
    return cal


def errors(r, loads=(50, 100, 200, 300, 400, 450, 500)):
    out = {}
    for load in loads:
        r.pan.place(load)
        r.run(4)
        out[load] = r.channel.settled_g - load
        r.pan.remove(load)
        r.run(3)
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_a_three_mass_calibration_beats_one_mass_on_the_bent_cell(seed):
    one = rig(seed=seed, physics=BENT, uncalibrated=True)
    calibrate(one, [200.0])
    three = rig(seed=seed, physics=BENT, uncalibrated=True)
    cal = calibrate(three, [200.0, 500.0, 100.0])
    assert cal.masses == [200.0, 500.0, 100.0] and cal.result.bend != 0
    e1, e3 = errors(one), errors(three)
    assert max(abs(e) for e in e1.values()) > 0.08  # one mass: the bow shows at 400-500 g
    assert max(abs(e) for e in e3.values()) < 0.05  # three: within the tie band everywhere


def test_the_one_mass_calibration_still_works_and_is_a_line():
    r = rig(seed=3, physics=sim.PanPhysics(), uncalibrated=True)
    cal = calibrate(r, [200.0])
    assert cal.result.bend == 0 and cal.step == "done"
    assert all(abs(e) < 0.05 for e in errors(r, (100, 400)).values())


def test_the_last_mass_still_lying_there_is_not_taken_for_the_next():
    r = rig(seed=4, physics=sim.PanPhysics(), uncalibrated=True)
    cal = Calibrator("left", mass_g=200.0, hold_s=1.0)
    r.run(3)
    assert cal.capture(r.channel)
    r.pan.place(200.0)
    r.run(3)
    assert cal.capture(r.channel) and cal.step == "done"
    cal.another(500.0)
    r.run(5)
    assert not cal.capture(r.channel) and cal.step == "mass"  # 200 g still on: wait


def test_another_mass_is_refused_with_a_reason():
    cal = Calibrator("left", zero_counts=0.0, result=Calibration(), points=[(0.0, 0.0),
                                                                           (200.0, 4e5)])
    for bad, why in ((200.0, "weighed already"), (550.0, "1 to 500"), (-5.0, "1 to 500")):
        with pytest.raises(CalibrationError, match=why):
            cal.another(bad)
    assert cal.step == "done" and cal.mass_g == 200.0  # nothing changed


def test_masses_that_lie_on_no_smooth_curve_are_refused():
    pts = [(0.0, 0.0), (100.0, 2.1e5), (200.0, 4.2e5), (500.0, 2.1e5 * 5 * 1.05)]  # 5 % off
    with pytest.raises(CalibrationError, match="one curve"):
        Calibration.from_points(pts)


def test_the_fit_goes_through_three_exact_points_and_inverts():
    cal = Calibration.from_points([(0.0, 100.0), (200.0, 100.0 + 2000 * 200.4),
                                   (500.0, 100.0 + 2000 * 500.25)])
    for g in (0.0, 200.0, 500.0, 333.0):
        assert cal.grams(cal.counts(g)) == pytest.approx(g, abs=1e-9)
    assert cal.grams(100.0 + 2000 * 200.4) == pytest.approx(200.0, abs=1e-6)


def test_a_saved_calibration_of_the_old_format_still_loads_and_a_bent_one_round_trips():
    old = {"version": 1, "offset": 12.5, "counts_per_gram": 2150.0, "points": [[0, 12.5]]}
    cal = Calibration.from_json(old)
    assert cal.bend == 0 and cal.grams(12.5 + 2150.0) == pytest.approx(1.0)
    bent = Calibration.from_points([(0.0, 0.0), (200.0, 4.3e5), (500.0, 1.0755e6)])
    assert Calibration.from_json(bent.to_json()) == bent and bent.to_json()["version"] == 2
    assert Calibration.from_points([(0, 0), (200, 4e5)]).to_json()["version"] == 1
    with pytest.raises(CalibrationError):
        Calibration.from_json({**bent.to_json(), "bend": "nan"})


def test_a_zero_drifting_while_the_masses_come_and_go_does_not_bend_the_fit():
    drifting = sim.PanPhysics(zero_drift_g_per_s=0.002, mech_noise_g=0.0)  # warm-up at its worst
    r = rig(seed=5, physics=drifting, uncalibrated=True)
    cal = Calibrator("left", mass_g=200.0, hold_s=2.0)
    for step, mass in (("empty", 0.0), ("mass", 200.0), ("mass", 500.0), ("mass", 100.0)):
        if step == "mass":
            if cal.masses:
                cal.another(mass)
            r.pan.place(mass)
        for _ in range(100):
            r.run(0.1)
            if cal.capture(r.channel):
                break
        r.pan.remove(mass)
        r.run(30.0, each=lambda r: cal.capture(r.channel))  # a slow person: 30 s between
        #                                                    masses, 60 mg of drift each time
    exact = [(g, r.cell.chip.offset_counts + (60.0 + g) * r.cell.chip.counts_per_gram)
             for g in (0.0, 200.0, 500.0, 100.0)]
    truth = Calibration.from_points(exact)
    for g in (100.0, 300.0, 500.0):
        assert abs(cal.result.grams(truth.counts(g)) - g) < 0.02
