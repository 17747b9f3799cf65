"""The simulated scale is cells and readers only: reader events go out as real hardware's would,
and bad input is refused before it reaches the physics."""

import math

import pytest

from spielleiter.drivers.loadcell import LoadCellSample
from spielleiter.drivers.sim import SimScale


def test_sim_scale_forwards_reader_events_like_real_hardware():
    got = []
    with SimScale(("left", "right"), seed=9, on_event=got.append) as scale:
        scale.run_for(1.0)
    assert {e.pan for e in got} == {"left", "right"}
    assert {e.pan for e in got if isinstance(e, LoadCellSample)} == {"left", "right"}


def test_sim_scale_has_no_weighing_pipeline_of_its_own():
    with SimScale(("gold", "silver", "tin"), seed=10) as scale:
        assert scale.pans == ("gold", "silver", "tin")
        for absent in ("channels", "judge", "judgement", "events", "calibrate", "wait_stable"):
            assert not hasattr(scale, absent), absent
    with pytest.raises(ValueError):
        SimScale(("left", "left"))


@pytest.mark.parametrize("grams", [math.nan, math.inf, -math.inf, 1e400, 1e9])
def test_putting_a_mass_that_is_no_mass_is_refused_before_it_reaches_the_physics(grams):
    with SimScale(("left",), seed=13) as scale:
        scale.run_for(1.0)
        with pytest.raises(ValueError, match="grams must be a number"):
            scale.put("left", grams)
        with pytest.raises(ValueError, match="grams must be a number"):
            scale.remove("left", grams)
        scale.run_for(1.0)  # the simulated reader is still alive
        assert scale.readers["left"].connected and scale.load_g("left") == 0.0
