"""Overload and underload: a plateau at the stop or a reading beyond the range is a state."""

import pytest

from spielleiter.drivers import sim
from spielleiter.drivers.weighing import Calibration, ScaleChannel
from spielleiter.drivers.weighing.range import RangeGuard

from twin import rig


@pytest.mark.parametrize("rate", [10, 80])
def test_a_plateau_at_the_stop_is_never_a_weight(rate):
    r = rig(seed=6, rate=rate)
    r.run(10)
    r.pan.place(1200.0)  # a book on the learning station
    seen = len(r.events)
    numbers = []
    r.run(20, each=lambda r: (r.channel.settled_g or 0) > 1 and numbers.append(r.channel.settled_g))
    assert r.channel.overload and not r.channel.stable and r.channel.settled_g is None
    assert numbers == [] and {e.kind for e in r.events[seen:]} <= {"moving"}
    assert r.channel.settled_counts is None  # a calibration cannot take it either
    r.pan.remove(1200.0)
    r.run(5)
    assert not r.channel.overload and r.channel.stable and abs(r.channel.settled_g) < 0.05


@pytest.mark.parametrize("rate", [10, 80])
def test_a_heavy_item_below_the_range_limit_weighs_normally(rate):
    r = rig(seed=7, rate=rate)
    r.run(10)
    r.pan.place(500.0, drop=True)  # dropped: it overshoots for a moment
    states = []
    r.run(10, each=lambda r: states.append(r.channel.range_state))
    assert set(states) == {"ok"} and r.channel.stable
    assert abs(r.channel.settled_g - 500.0) < 0.6  # within the cell's bow


def test_a_zero_taken_with_a_load_on_reads_underload_when_it_comes_off():
    r = rig(seed=8, physics=sim.PanPhysics())
    r.pan.place(100.0)
    r.run(5)
    assert r.channel.tare()
    r.pan.remove(100.0)
    r.run(5)
    assert r.channel.underload and not r.channel.overload and r.channel.settled_g is None


def test_a_pan_below_zero_tells_no_weight_but_a_tare_of_the_empty_pan_sets_it_right():
    """Taring with 50 g on and then emptying the pan once locked it: never stable, so no tare,
    no calibration's empty step, no game's clear pan, and the zero was saved (a trial found it)."""
    r = rig(seed=8, physics=sim.PanPhysics())
    r.pan.place(50.0)
    r.run(5)
    assert r.channel.tare()
    seen = len(r.events)
    r.pan.remove(50.0)
    r.run(5)
    assert r.channel.underload and r.channel.settled_g is None
    assert [e.kind for e in r.events[seen:]] == ["moving"]  # nothing stable, removed or placed
    assert r.channel.stable and r.channel.still_g == pytest.approx(-50.0, abs=0.1)
    assert r.channel.settled_counts is not None  # a calibration's empty step can take it
    assert r.channel.tare()
    r.run(3)
    assert not r.channel.underload and abs(r.channel.settled_g) < 0.05
    r.pan.place(20.0)
    r.run(3)
    assert r.channel.settled_g == pytest.approx(20.0, abs=0.1)
    assert [e.kind for e in r.events[-3:]] == ["moving", "stable", "placed"]


def test_an_uncalibrated_pan_has_no_range_yet():
    ch = ScaleChannel("left")  # counts / default sensitivity: a random offset in grams
    for i in range(20):
        ch.feed(i / 10, 700.0 * Calibration().counts_per_gram)
    assert ch.range_state == "ok" and ch.stable


def test_the_guard_waits_for_confirmation_and_comes_back_with_hysteresis():
    g = RangeGuard()
    assert g.push(0.0, 600.0) == "ok" and g.push(0.1, 600.0) == "ok"
    assert g.push(0.2, 600.0) == "overload"
    assert g.push(0.3, 548.0) == "overload"  # within the hysteresis
    assert g.push(0.4, 400.0) == "ok"
    assert g.push(0.5, 0.0, saturated=True) == "overload"  # the chip at its rail: at once
    g.reset()
    assert g.push(0.0, -30.0) == "ok" and g.push(0.3, -30.0) == "underload"

