"""Judging two loads: a verdict only after both pans have been stable together for judge_s."""

import random

import pytest

from spielleiter.drivers.weighing import JUDGE_S, Calibration, Judge, ScaleChannel
from spielleiter.games.core import compare_grams

CPG = 2000.0


def channel(pan):
    return ScaleChannel(pan, Calibration(0.0, CPG), rate=10)


def run(judge, channels, levels, t0, seconds, rng):
    """Feed both channels 10 samples/s of ``levels[pan]`` grams; the judgement after each."""
    out = []
    for i in range(round(seconds * 10)):
        t = t0 + i / 10
        for pan, ch in channels.items():
            ch.feed(t, (levels[pan] + rng.gauss(0, 0.015)) * CPG)
            got = judge.observe_channel(ch)
        out.append((t, got))
    return out


def test_a_verdict_waits_until_both_pans_have_been_stable_together_for_judge_s():
    rng = random.Random(1)
    chans = {"left": channel("left"), "right": channel("right")}
    judge = Judge("left", "right", compare=compare_grams, judge_s=1.0)
    trace = run(judge, chans, {"left": 10.0, "right": 10.3}, 0.0, 3.0, rng)
    first = next((t, j) for t, j in trace if j is not None)
    both_stable = max(ch.settled_since for ch in chans.values())
    assert first[0] - both_stable == pytest.approx(1.0, abs=0.11)
    assert first[1].verdict == "left-lighter" and first[1].since == both_stable
    assert all(j is None for t, j in trace if t < both_stable + 0.95)


def test_motion_on_either_pan_takes_the_verdict_back():
    rng = random.Random(2)
    chans = {"left": channel("left"), "right": channel("right")}
    judge = Judge("left", "right", compare=compare_grams, judge_s=0.5)
    run(judge, chans, {"left": 20.0, "right": 10.0}, 0.0, 2.0, rng)
    assert judge.judgement is not None and judge.judgement.verdict == "left-heavier"
    trace = run(judge, chans, {"left": 20.0, "right": 30.0}, 2.0, 2.0, rng)
    assert trace[1][1] is None  # the right pan moved: no verdict until it is still again
    assert trace[-1][1] is not None and trace[-1][1].verdict == "left-lighter"


def test_a_disconnected_pan_is_forgotten_until_it_settles_again():
    rng = random.Random(3)
    chans = {"gold": channel("gold"), "silver": channel("silver")}
    judge = Judge("gold", "silver", compare=compare_grams, judge_s=0.5)
    run(judge, chans, {"gold": 5.0, "silver": 5.02}, 0.0, 2.0, rng)
    assert judge.judgement.verdict == "balanced"
    judge.forget("silver")
    assert judge.judgement is None


def test_the_verdict_names_the_first_pan_whatever_the_pans_are_called():
    judge = Judge("gold", "silver", compare=compare_grams, judge_s=0.0)
    assert judge.observe("gold", 1.0, 3.0, 0.5) is None
    assert judge.observe("silver", 1.0, 4.0, 0.9).verdict == "gold-lighter"
    assert judge.observe("bronze", 1.1, 9.0, 0.0).verdict == "gold-lighter"  # not judged here


def test_judge_s_and_pans_are_checked():
    for bad in (-1, float("nan"), float("inf")):
        with pytest.raises(ValueError):
            Judge("left", "right", compare=compare_grams, judge_s=bad)
    with pytest.raises(ValueError):
        Judge("left", "left", compare=compare_grams)
    assert JUDGE_S >= 0


def test_the_judge_applies_the_comparison_it_is_given_with_its_tie_band():
    calls = []

    def rule(a, b, band):
        calls.append((a, b, band))
        return 0

    judge = Judge("left", "right", compare=rule, judge_s=0.0, tie_band_g=0.2)
    judge.observe("left", 1.0, 10.0, 0.5)
    assert judge.observe("right", 1.0, 12.0, 0.5).verdict == "balanced"
    assert calls == [(10.0, 12.0, 0.2)]
    strict = Judge("left", "right", compare=compare_grams, judge_s=0.0, tie_band_g=0.05)
    strict.observe("left", 1.0, 10.0, 0.5)
    assert strict.observe("right", 1.0, 10.1, 0.5).result == "lighter"
    assert strict.observe("right", 1.0, 9.9, 0.5).result == "heavier"
    assert strict.observe("right", 1.0, 10.04, 0.5).result == "balanced"


def test_settled_since_marks_when_the_settled_value_began_and_is_none_while_moving():
    rng = random.Random(4)
    ch = channel("left")
    for i in range(20):
        ch.feed(i / 10, (1.0 + rng.gauss(0, 0.015)) * CPG)
    since = ch.settled_since
    assert since is not None and since <= 1.0
    ch.feed(2.0, 50.0 * CPG)
    ch.feed(2.1, 50.0 * CPG)
    assert ch.settled_since is None
