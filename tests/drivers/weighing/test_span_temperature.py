"""The span's temperature coefficient: learned from two calibrations at different temperatures,
then taken out of every reading (zero tracking cannot see a span drift)."""

import dataclasses

import pytest
from hypothesis import given, strategies as st

from spielleiter.device.pans.scales import Scales
from spielleiter.drivers import sim
from spielleiter.drivers.sim.cell_physics import CellProfile
from spielleiter.drivers.weighing import Calibration, CalibrationError, tempco

from test_multi_mass_calibration import calibrate
from twin import rig

SPAN = 4e-5  # per kelvin: 0.04 % per 10 K, inside the bar-cell sheets' 0.02-0.05 % (the
#              twin draws its sign)
WARM = sim.PanPhysics.realistic(creep_fraction=0.0, cell=CellProfile(
    warmup_g=(0.0, 0.0), nonlinearity_fs=0.0, zero_fs_per_10k=0.0, box_rise_k=(10.0, 10.0),
    box_tau_s=600.0, span_per_10k=(10 * SPAN, 10 * SPAN)))


def warm_rig(seed, minutes):
    """The twin's cell ``minutes`` after power-on, its thermometer taped to the bar."""
    r = rig(seed=seed, physics=WARM, uncalibrated=True)
    r.pan.power_on_at(-minutes * 60.0)
    r.thermo = sim.SimThermometer(r.pan, seed=seed)
    r.channel.set_temperature(r.thermo.read_c())
    return r


def test_two_calibrations_far_apart_in_temperature_learn_the_span_coefficient():
    cold = Calibration(counts_per_gram=420.0).made_at(21.0)
    warm = Calibration(counts_per_gram=420.0 * (1 + 8 * SPAN)).made_at(29.0)
    learned = warm.learned_from(cold)
    assert learned.span_per_k == pytest.approx(SPAN, rel=1e-3)
    assert learned.spans == ((21.0, 420.0), (29.0, 420.0 * (1 + 8 * SPAN)))
    assert learned.factor(29.0) == pytest.approx(1.0)  # weighs as calibrated, where it was
    assert learned.factor(21.0) == pytest.approx(1 / (1 - 8 * SPAN))


def test_calibrations_too_close_in_temperature_keep_what_was_learned_before():
    known = dataclasses.replace(Calibration(counts_per_gram=420.0).made_at(21.0), span_per_k=SPAN)
    again = Calibration(counts_per_gram=420.1).made_at(23.0).learned_from(known)
    assert again.span_per_k == SPAN  # 2 K apart see nothing new: the old coefficient stays
    first = Calibration(counts_per_gram=420.1).made_at(23.0).learned_from(
        Calibration(counts_per_gram=420.0).made_at(21.0))
    assert first.span_per_k == 0.0


def test_a_slope_no_cell_has_means_another_cell_and_restarts_the_history():
    old = Calibration(counts_per_gram=420.0).made_at(21.0)
    new_cell = Calibration(counts_per_gram=455.0).made_at(28.0).learned_from(old)
    assert new_cell.span_per_k == 0.0 and new_cell.spans == ((28.0, 455.0),)


def test_without_a_thermometer_nothing_is_learned_or_compensated():
    cold = Calibration(counts_per_gram=420.0).made_at(21.0)
    plain = Calibration(counts_per_gram=421.0)
    assert plain.learned_from(cold) is plain
    assert dataclasses.replace(cold, span_per_k=SPAN).factor(None) == 1.0


def test_the_learned_span_survives_a_save_and_an_old_calibration_file_still_reads():
    learned = Calibration(counts_per_gram=420.4).made_at(29.0).learned_from(
        Calibration(counts_per_gram=420.0).made_at(21.0))
    again = Calibration.from_json(learned.to_json())
    assert again == learned and again.with_zero(5.0).span_per_k == learned.span_per_k
    old = {"version": 1, "offset": 3.0, "counts_per_gram": 420.0, "points": []}
    assert Calibration.from_json(old).temp_c is None
    with pytest.raises(CalibrationError):
        Calibration.from_json({**learned.to_json(), "span_per_k": 0.01})  # no cell drifts so


def test_learning_keeps_only_the_latest_calibrations():
    spans = [(20.0 + i, 420.0 * (1 + i * SPAN)) for i in range(10)]
    per_k, kept = tempco.learn(spans)
    assert len(kept) == tempco.KEEP and kept[-1] == spans[-1]
    assert per_k == pytest.approx(SPAN, rel=0.01)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_cold_and_a_warm_calibration_compensate_the_warm_reading_on_the_twin(seed):
    cold = warm_rig(seed, minutes=0.0)
    cold_cal = calibrate(cold, [500.0]).result
    hot = warm_rig(seed, minutes=90.0)  # the same cell (same seed) a day later, 10 K warmer
    hot_cal = calibrate(hot, [500.0]).result
    assert hot_cal.temp_c - cold_cal.temp_c > 8.0
    learned = cold_cal.learned_from(hot_cal)  # today's cold calibration, yesterday's warm one
    assert learned.span_per_k == pytest.approx(cold.pan.cell.span_per_k, rel=0.25)
    plain, comp = warm_rig(seed, minutes=90.0), warm_rig(seed, minutes=90.0)
    plain.channel.set_calibration(cold_cal.made_at(None))
    comp.channel.set_calibration(learned)
    comp.channel.set_temperature(comp.thermo.read_c())
    for r in (plain, comp):
        r.run(3.0)
        r.pan.place(500.0)
        r.run(5.0)
    assert abs(plain.channel.settled_g - 500.0) > 0.15  # 10 K x 0.04 % / 10 K x 500 g = 0.2 g
    assert abs(comp.channel.settled_g - 500.0) < 0.05


def test_tare_and_calibration_counts_on_a_compensated_channel_are_the_uncompensated_counts():
    r = warm_rig(3, minutes=90.0)
    cal = dataclasses.replace(Calibration(offset=r.cell.chip.offset_counts + 60.0
                                          * r.cell.chip.counts_per_gram,
                                          counts_per_gram=r.cell.chip.counts_per_gram)
                              .made_at(21.0), span_per_k=SPAN)
    r.channel.set_calibration(cal)
    r.channel.set_temperature(31.0)
    r.pan.place(300.0)
    r.run(5.0)
    g, counts = r.channel.settled_g, r.channel.settled_counts
    assert counts == pytest.approx(cal.counts(g / cal.factor(31.0) + r.channel._zero_adj))
    assert r.channel.tare() and abs(r.channel.settled_g) < 1e-9


def test_the_device_scales_learn_from_the_pans_previous_calibration():
    scales = Scales.fed(["left", "right"], calibrations={
        "left": Calibration(counts_per_gram=420.0).made_at(21.0)})
    scales.set_calibration("left", Calibration(counts_per_gram=420.0 * (1 + 9 * SPAN))
                           .made_at(30.0))
    assert scales.pans["left"].channel.calibration.span_per_k == pytest.approx(SPAN, rel=1e-3)
    scales.set_temperature(21.0)
    assert scales.pans["left"].channel.temperature_c == 21.0
    assert scales.pans["right"].channel.temperature_c == 21.0


def test_the_box_reads_its_thermometer_into_every_pan_and_a_failure_stops_compensating(tmp_path):
    from support import build_box

    with build_box(tmp_path) as box:
        assert box.thermometer is not None  # the twin on the first simulated pan
        reading = box.thermometer.read_once()
        box.idle(0.1)
        assert reading.celsius is not None
        assert {p.channel.temperature_c for p in box.scales.pans.values()} == {reading.celsius}
        box.thermometer.thermometer.failed = True
        assert box.thermometer.read_once().detail
        box.idle(0.1)
        assert {p.channel.temperature_c for p in box.scales.pans.values()} == {None}


def test_a_box_without_a_sensor_on_the_bus_has_no_thermometer(tmp_path, monkeypatch):
    from spielleiter.device.pans.thermometer import thermometer_for
    from spielleiter.drivers import thermometer

    monkeypatch.setattr(thermometer.find_sensor, "__defaults__",  # no sensor on either bus
                        (str(tmp_path), str(tmp_path)))
    assert thermometer_for(Scales.fed(["left"]), print) is None
    (tmp_path / "28-00000a1b2c3d").mkdir()
    assert thermometer_for(Scales.fed(["left"]), print) is not None


_temps = st.floats(-40.0, 125.0, allow_nan=False)
_spans = st.floats(1.0, 5000.0, allow_nan=False)


@given(st.lists(st.tuples(_temps, _spans), max_size=12), _temps)
def test_whatever_the_calibrations_the_learned_coefficient_is_one_a_cell_can_have(spans, temp):
    per_k, kept = tempco.learn(spans)
    assert abs(per_k) <= tempco.MAX_SPAN_PER_K and len(kept) <= tempco.KEEP
    if spans:
        cal = dataclasses.replace(Calibration().made_at(spans[-1][0]), span_per_k=per_k,
                                  spans=kept)
        assert Calibration.from_json(cal.to_json()) == cal  # it can always be saved and read
        assert 0.9 < cal.factor(temp) < 1.1


def test_another_mass_of_the_same_calibration_replaces_its_entry_and_adds_none():
    cold = Calibration(counts_per_gram=420.0).made_at(21.0)
    one = Calibration.from_points([(0.0, 0.0), (200.0, 84000.0)]).made_at(30.0).learned_from(cold)
    two = Calibration.from_points([*one.points, (500.0, 210010.0)]).made_at(30.1).learned_from(one)
    assert [t for t, _ in two.spans] == [21.0, 30.1]  # the cold one and this calibration's own


def test_calibrating_again_teaches_the_span_only_5_kelvin_from_every_kept_calibration():
    from spielleiter.drivers.weighing import tempco

    kept = ((21.0, 420.0),)
    assert not tempco.learns_at(0.0, kept, 25.9)
    assert tempco.learns_at(0.0, kept, 26.0) and tempco.learns_at(0.0, kept, 16.0)
    assert not tempco.learns_at(0.0, (), 30.0)              # no calibration with a thermometer
    assert not tempco.learns_at(0.0, kept, None)            # no thermometer now
    assert not tempco.learns_at(4e-5, kept + ((30.0, 420.15),), 40.0)  # learned already
