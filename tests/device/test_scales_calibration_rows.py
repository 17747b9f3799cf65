"""A calibration row that parses but is absurd is refused at load with a notice, as a damaged
row is: the pan is never weighed on it, and the table is told."""

from __future__ import annotations

import pytest

from spielleiter.device.config import core as config
from spielleiter.device.journal.store import Journal
from spielleiter.device.pans.scales import Scales, implausible
from spielleiter.drivers.weighing import Calibration, Calibrator

NAME = "journal.sqlite3"
ABSURD = [
    {"version": 1, "offset": 0.0, "counts_per_gram": -2147.5, "points": []},
    {"version": 1, "offset": 0.0, "counts_per_gram": 1e-300, "points": []},
    {"version": 1, "offset": 0.0, "counts_per_gram": 1e300, "points": []},
    {"version": 1, "offset": 1e300, "counts_per_gram": 2147.5, "points": []},
    {"version": 1, "offset": 0.0},  # no scale at all
]


def _config(tmp_path):
    site = tmp_path / "config.toml"
    site.write_text('[loadcells.left]\nreader = "spi"\nbus = 0\n'
                    '[loadcells.right]\nreader = "spi"\nbus = 1\n')
    return config.load(site)


@pytest.mark.parametrize("row", ABSURD)
def test_an_absurd_calibration_is_refused_at_load_with_a_notice(tmp_path, row):
    with Journal(tmp_path / NAME) as journal:
        journal.save_calibration("left", row)
        journal.save_calibration("right", Calibration(8000.0, 2147.5).to_json())
    with Journal(tmp_path / NAME) as journal:
        scales = Scales.build(_config(tmp_path), journal, lambda event: None)
        try:
            assert not scales.pans["left"].calibrated
            assert scales.pans["right"].calibrated
            [notice] = [n for n in journal.notices if n.kind == "calibration"]
            assert notice.pan == "left" and "uncalibrated" in notice.text
        finally:
            scales.close()


@pytest.mark.parametrize("row", ABSURD[:3])
def test_a_simulated_box_with_an_absurd_row_weighs_on_the_chips_own_calibration(
        box_factory, tmp_path, row):
    state = tmp_path / "state"
    with Journal(state / NAME) as journal:
        journal.save_calibration("left", row)
    box = box_factory(state_dir=state)
    assert any(n.kind == "calibration" and n.pan == "left" for n in box.journal.notices)
    box.put("left", 40.0)
    box.idle(2.0)
    shot = box.scales.snapshot("left")
    assert shot.stable and shot.grams == pytest.approx(40.0, abs=0.1)


def test_the_plausible_range_holds_the_cells_the_box_is_built_with():
    assert implausible(Calibration(8000.0, 2147.5)) is None
    assert implausible(Calibration(-5e6, 400.0)) is None
    assert "swapped" in str(implausible(Calibration(0.0, -2147.5)))


def test_a_calibration_whose_reading_falls_under_the_mass_is_refused_when_captured(tmp_path):
    scales = Scales.simulated(("left",), seed=3)
    try:
        scales.sim.run_for(1.0)
        steps = []
        calibrator = Calibrator("left", 200.0, hold_s=1.0)
        scales.begin_calibration(calibrator, lambda c, error: steps.append(error))
        scales.sim.run_for(3.0)
        assert steps == [None] and calibrator.step == "mass"
        zero = calibrator.points[0][1] + 2 * 200.0 * 2147.5 + 1e5  # as if the signal wires
        calibrator.zero_counts, calibrator.points = zero, [(0.0, zero)]  # were swapped
        scales.begin_calibration(calibrator, lambda c, error: steps.append(error))
        scales.sim.put("left", 200.0)
        scales.sim.run_for(4.0)
        assert steps[-1] is not None and "swapped" in str(steps[-1])
        assert scales.pans["left"].channel.calibration.counts_per_gram > 0
    finally:
        scales.close()
