"""The simulated scale: named pans calibrated like a person would, the judged verdict of
``weigh_sim``, and bad input refused before it reaches the physics."""

import math

import pytest

from spielleiter.drivers.sim import SimScale, weigh_sim


def test_weigh_sim_reports_grams_times_and_verdict_in_the_documented_shape():
    r = weigh_sim(12.3, 12.4, seed=0, rate=10)
    assert set(r) == {"left", "right", "verdict", "judged_after_s"}
    assert set(r["left"]) == {"grams", "stable_after_s"}
    assert r["left"]["grams"] == pytest.approx(12.3, abs=0.05)
    assert r["right"]["grams"] == pytest.approx(12.4, abs=0.05)
    assert 0 < r["left"]["stable_after_s"] <= 1.5 and r["verdict"] == "left-lighter"


def test_weigh_sim_with_one_mass_has_no_right_and_no_verdict():
    r = weigh_sim(250.0, seed=3, rate=80)
    assert set(r) == {"left"} and r["left"]["grams"] == pytest.approx(250, abs=0.05)
    assert r["left"]["stable_after_s"] <= 0.5


def test_weigh_sim_balanced_and_heavier_and_deterministic():
    assert weigh_sim(80.0, 80.0, seed=4)["verdict"] == "balanced"
    assert weigh_sim(80.2, 80.1, seed=5)["verdict"] == "left-heavier"
    assert weigh_sim(33.0, 44.0, seed=6) == weigh_sim(33.0, 44.0, seed=6)


def test_sim_scale_calibrates_like_a_person_and_reports_steps():
    with SimScale(("left",), seed=7) as scale:
        scale.run_for(1.0)
        cal = scale.calibrate()["left"]
        true = scale.true_calibration("left")
        assert cal.counts_per_gram == pytest.approx(true.counts_per_gram, rel=1e-4)
        n = len(scale.events)
        scale.put("left", 20.0)
        scale.run_for(2.0)
        scale.remove("left", 20.0)
        scale.run_for(2.0)
        kinds = [(e.kind, round(e.grams)) for e in scale.events[n:]
                 if e.kind in ("placed", "removed")]
        assert kinds == [("placed", 20), ("removed", 20)]


def test_sim_scale_never_reports_stable_while_a_hand_presses():
    with SimScale(("left",), seed=8, rate=80) as scale:
        scale.run_for(1.0)
        t0 = scale.press("left", 150.0, 1.5)
        n = len(scale.events)
        scale.run_for(1.5)
        assert not any(e.kind == "stable" for e in scale.events[n:] if e.t > t0 + 0.1)


def test_sim_scale_forwards_reader_events_like_real_hardware():
    got = []
    with SimScale(("left", "right"), seed=9, on_event=got.append) as scale:
        scale.run_for(1.0)
    assert {e.pan for e in got} == {"left", "right"}


def test_sim_scale_takes_any_pan_names_and_one_pan_alone_has_no_judge():
    with SimScale(("gold", "silver", "tin"), seed=10) as scale:
        assert set(scale.channels) == {"gold", "silver", "tin"}
        assert (scale.judge.first, scale.judge.second) == ("gold", "silver")
        scale.run_for(1.0)
        scale.put("gold", 30.0)
        scale.put("silver", 20.0)
        scale.run_for(3.0)
        assert scale.judgement.verdict == "gold-heavier"
    with SimScale(("scale",), seed=11) as alone:
        alone.run_for(1.0)
        assert alone.judge is None and alone.judgement is None
    with pytest.raises(ValueError):
        SimScale(("left", "left"))


def test_weigh_sim_judges_only_after_both_pans_were_still_together_for_judge_s():
    quick = weigh_sim(50.0, 50.2, seed=12, judge_s=0.0)
    slow = weigh_sim(50.0, 50.2, seed=12, judge_s=1.5)
    stable = max(slow["left"]["stable_after_s"], slow["right"]["stable_after_s"])
    assert slow["judged_after_s"] >= stable + 1.5 - 0.11
    assert quick["judged_after_s"] < slow["judged_after_s"]
    assert quick["verdict"] == slow["verdict"] == "left-lighter"


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
