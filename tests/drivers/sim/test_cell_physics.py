"""The realistic twin: warm-up, temperature drift, creep, a bent output and the overload stop."""

import random
import statistics

import pytest

from spielleiter.drivers import sim
from spielleiter.drivers.loadcell.chip import from_code
from spielleiter.drivers.sim.cell_physics import Cell, CellProfile


def realistic(seed=1, rate=10, **kw):
    clock = sim.VirtualClock()
    cell = sim.make_cell(clock, rate=rate, seed=seed, physics=sim.PanPhysics.realistic(**kw))
    return clock, cell


def grams(cell, n=20):
    """The mean of ``n`` conversions in grams above the chip's true empty zero."""
    chip = cell.chip
    zero = chip.offset_counts + chip.pan.physics.pan_mass_g * chip.counts_per_gram
    return statistics.fmean((from_code(chip.next_conversion().code) - zero) / chip.counts_per_gram
                            for _ in range(n))


def test_the_default_pan_has_an_ideal_cell():
    assert sim.PanPhysics().cell is None
    clock = sim.VirtualClock()
    assert sim.make_cell(clock).pan.cell is None


def test_a_seed_draws_the_same_cell_and_another_seed_another():
    a, b, c = (realistic(seed=s)[1].pan.cell for s in (3, 3, 4))
    assert a == b and a != c
    assert 600 <= a.stop_g <= 800 and abs(a.nonlinearity_g) <= 0.5


def test_the_zero_wanders_during_warm_up_then_settles():
    cell = Cell(warmup_g=0.3)
    assert cell.zero_drift_g(0) == 0
    assert cell.zero_drift_g(120) > 0.1  # moving in the first minutes
    assert cell.zero_drift_g(600) == pytest.approx(0.3, abs=0.015)  # settled in about 10 min
    assert abs(cell.zero_drift_g(1800) - cell.zero_drift_g(900)) < 0.005


def test_warming_the_box_by_10_k_moves_the_zero_by_about_half_a_gram():
    cell = CellProfile(warmup_g=(0.0, 0.0), box_rise_k=(10.0, 10.0)).draw(random.Random(1))
    assert abs(cell.zero_g_per_k) <= 0.05
    assert cell.temperature_k(3600) == pytest.approx(9.5, abs=0.1)  # 20 min time constant
    assert 0.2 < abs(cell.zero_drift_g(3 * 3600)) <= 0.5


def test_the_empty_pan_reading_drifts_through_the_chip():
    clock, cell = realistic(seed=5, mech_noise_g=0.0)
    start = grams(cell)
    clock.advance(1800.0)
    moved = grams(cell) - start
    assert moved == pytest.approx(cell.pan.zero_drift_g(clock.now()), abs=0.03)
    assert abs(moved) > 0.1


def test_a_load_creeps_by_about_0_03_percent_over_30_minutes():
    clock, cell = realistic(seed=2, mech_noise_g=0.0, cell=None)  # creep alone
    cell.pan.place(500.0)
    clock.advance(5.0)
    early = grams(cell)
    clock.advance(1800.0)
    assert grams(cell) - early == pytest.approx(0.15, abs=0.02)


def test_a_single_200_g_calibration_is_off_at_400_g_on_the_bent_cell():
    cell = Cell(nonlinearity_g=0.4)
    k = cell.output_g(200.0, 0) / 200.0  # the span a 200 g calibration finds
    assert cell.output_g(200.0, 0) / k == pytest.approx(200.0)
    assert abs(cell.output_g(400.0, 0) / k - 400.0) > 0.1


def test_beyond_the_stop_more_load_hardly_moves_the_reading():
    clock, cell = realistic(seed=6)
    stop = cell.pan.cell.stop_g
    cell.pan.place(1200.0)
    clock.advance(3.0)
    book = grams(cell)
    assert stop < book < stop + 20  # a 1.2 kg book reads as about the stop: a plateau
    cell.pan.place(300.0)
    clock.advance(3.0)
    assert grams(cell) - book < 10  # 300 g more moves it by a few grams


def test_below_the_stop_the_realistic_cell_still_weighs():
    clock, cell = realistic(seed=7, mech_noise_g=0.0)
    cell.pan.place(100.0)
    clock.advance(3.0)
    assert grams(cell) == pytest.approx(100.0, abs=0.3)  # the bow: at most 0.5 g


def test_warming_the_box_by_10_k_changes_a_500_g_reading_by_0_1_to_0_25_g():
    profile = CellProfile(warmup_g=(0.0, 0.0), zero_fs_per_10k=0.0, nonlinearity_fs=0.0,
                          box_rise_k=(10.0, 10.0))
    cells = [profile.draw(random.Random(seed)) for seed in range(40)]
    for cell in cells:
        warm = cell.output_g(500.0, 1e6) - 500.0  # the box 10 K warmer: the span alone
        assert 0.1 - 1e-9 <= abs(warm) <= 0.25 + 1e-9
        assert cell.output_g(500.0, 0.0) == 500.0  # cold: as calibrated
    signs = {cell.span_per_k > 0 for cell in cells}
    assert signs == {True, False}  # either sign, each cell its own
