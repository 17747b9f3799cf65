"""Zero tracking, the fresh zero and the warm-up notice, through the realistic twin."""

import pytest

from spielleiter.drivers import sim
from spielleiter.drivers.weighing.zero import WarmUp, ZeroSettings, ZeroTracker

from twin import rig


def test_zero_tracking_follows_warm_up_and_temperature_drift_on_an_empty_pan():
    r = rig(seed=1)
    worst = []
    r.run(2400, each=lambda r: r.channel.stable and worst.append(abs(r.channel.settled_g)))
    assert abs(r.pan.zero_drift_g(r.clock.now())) > 0.5  # the cell's zero moved a lot
    assert r.channel.stable and abs(r.channel.settled_g) < 0.01
    assert max(worst[200:]) < 0.05  # never more than the tie band off, after the first 20 s


def test_without_zero_tracking_the_same_empty_pan_drifts_away():
    r = rig(seed=1, zero=ZeroSettings(band_g=0.0, rate_g_per_s=0.0, max_capture_g=0.0))
    r.run(2400)
    assert abs(r.channel.settled_g) > 0.5


def test_zero_tracking_never_follows_a_loaded_pan():
    r = rig(seed=3)
    r.run(30)
    r.pan.place(200.0)
    r.run(10)
    offset, loaded = r.channel.calibration.offset, r.channel.settled_g
    t0 = r.clock.now()
    drift0 = r.pan.zero_drift_g(t0)
    r.run(1800)
    assert r.channel.calibration.offset == offset  # nothing taken out while loaded
    moved = r.channel.settled_g - loaded
    cell = r.pan.cell
    span = 200.0 * cell.span_per_k * (cell.temperature_k(r.clock.now()) - cell.temperature_k(t0))
    assert moved == pytest.approx(r.pan.zero_drift_g(r.clock.now()) - drift0 + 0.06 + span,
                                  abs=0.05)
    assert abs(moved) > 0.3  # the drift (and creep) shows: it was not tracked away


def test_a_small_item_on_an_empty_still_pan_is_never_tracked_away():
    r = rig(seed=4)
    r.run(60)
    r.pan.place(0.4)
    r.run(1200)
    assert r.channel.settled_g == pytest.approx(0.4 + r.pan.zero_drift_g(r.clock.now())
                                                - r.pan.zero_drift_g(60.0), abs=0.05)


def test_an_emptied_pan_takes_its_drifted_zero_at_once():
    r = rig(seed=3)
    r.run(30)
    r.pan.place(200.0)
    r.run(1800)
    assert r.channel.zero_age_s() > 1700 and not r.channel.zero_fresh(60.0)
    r.pan.remove(200.0)
    seen = len(r.events)
    r.run(3)
    stable = [e for e in r.events[seen:] if e.kind == "stable"]
    assert stable and abs(stable[0].grams) < 0.05  # zero again, although the cell drifted
    assert r.channel.zero_fresh(1.0)
    assert [e.kind for e in r.events[seen:] if e.kind in ("placed", "removed")] == ["removed"]


def test_tare_makes_the_zero_fresh():
    r = rig(seed=5)
    r.run(5)
    r.pan.place(50.0)
    r.run(60)
    assert not r.channel.zero_fresh(30.0)
    assert r.channel.tare() and r.channel.zero_fresh(0.0)


def test_the_warm_up_notice_stays_until_the_zero_is_steady():
    r = rig(seed=3)  # a cell whose zero moves by about 0.36 g while it warms up
    r.run(60)
    assert r.channel.warming
    r.run(900)
    assert not r.channel.warming


def test_an_ideal_cell_is_warm_after_the_window():
    r = rig(seed=3, physics=sim.PanPhysics())
    r.run(125)
    assert not r.channel.warming


def test_warm_up_ends_at_the_latest_after_its_limit_when_the_pan_is_never_empty():
    w = WarmUp()
    assert all(w.observe(t, 0.0, empty=False) for t in range(0, 899, 10))
    assert not w.observe(900.0, 0.0, empty=False)


def test_zero_tracking_is_limited_in_rate_and_range():
    z = ZeroTracker(ZeroSettings(band_g=0.1, rate_g_per_s=0.025, range_g=0.3))
    assert z.observe(0.0, 0.05, new_level=True) == 0.05  # a level settling at zero: zero it
    assert z.observe(1.0, 0.1, new_level=False) == pytest.approx(0.025)  # then 0.5 e/s at most
    for t in range(2, 100):
        z.observe(float(t), 0.1, new_level=False)
    assert z.offset_g == pytest.approx(0.3)  # never beyond its range


def test_after_power_on_a_saved_zero_that_moved_a_little_is_set_again():
    r = rig(seed=6, physics=sim.PanPhysics())
    r.channel.set_calibration(r.channel.calibration.with_zero(
        r.channel.calibration.counts(-1.2)))  # saved on a colder day: the pan reads 1.2 g
    r.run(3)
    assert abs(r.channel.settled_g) < 0.02


def test_after_power_on_an_item_left_on_the_pan_is_not_zeroed_away():
    r = rig(seed=6, physics=sim.PanPhysics())
    r.pan.place(5.0)  # e.g. the Purchase of the Day of a game resumed after a power cut
    r.run(3)
    assert abs(r.channel.settled_g - 5.0) < 0.05
