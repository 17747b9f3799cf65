"""The pans tell what changes, so no mode polls: a hold a mode asked for matures into a ``held``
Weight at the sample that fulfils it, a change of state without a step is told as ``state``,
each reading while a pan moves as ``reading``; a game listens to its pans under its menu."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from spielleiter.device.pans.scales import Scales

ROOT = Path(__file__).resolve().parents[2]


def _scales(*names: str) -> Scales:
    return Scales.simulated(list(names or ("left",)), seed=3)


def test_a_hold_is_told_once_at_the_first_sample_the_pan_has_been_still_that_long():
    scales = _scales("left")
    told = []
    scales.listeners.append(told.append)
    scales.sim.run_for(1.0)
    scales.sim.put("left", 20.0)
    scales.sim.run_for(0.2)
    hold = scales.hold("left", 1.5)
    scales.sim.run_for(6.0)
    held = [w for w in told if w.kind == "held"]
    assert len(held) == 1 and held[0].hold is hold
    shot = held[0].pans["left"]
    assert held[0].t - hold.since >= 1.5 - 1e-6 and shot.held_s() >= 1.5 - 1e-6
    assert held[0].grams == pytest.approx(20.0, abs=0.05) == shot.settled_g
    earlier = [w for w in told if w.t < held[0].t and w.pan == "left"]
    assert all(w.t - hold.since < 1.5 or w.pans["left"].held_s() < 1.5 for w in earlier)


def test_a_hold_is_told_again_after_the_pan_moved_and_never_after_it_is_released():
    scales = _scales("left")
    told = []
    scales.listeners.append(told.append)
    scales.sim.run_for(1.0)
    hold = scales.hold("left", 1.0)
    scales.sim.run_for(2.0)
    scales.sim.put("left", 10.0)                  # it moves: the next stillness counts anew
    scales.sim.run_for(3.0)
    held = [w for w in told if w.kind == "held"]
    assert len(held) == 2
    assert held[1].grams == pytest.approx(10.0, abs=0.05)
    assert held[1].t - held[1].pans["left"].since >= 1.0 - 1e-6
    scales.release(hold)
    scales.sim.put("left", 5.0)
    scales.sim.run_for(3.0)
    assert len([w for w in told if w.kind == "held"]) == 2


def test_a_judged_hold_waits_for_the_judgement_of_both_pans_to_stand_that_long():
    scales = _scales("left", "right")
    told = []
    scales.listeners.append(told.append)
    scales.sim.run_for(1.0)
    scales.sim.put("left", 12.0)
    scales.sim.run_for(3.0)
    hold = scales.hold("right", 1.0, judged=True)
    scales.sim.put("right", 9.0)
    scales.sim.run_for(4.0)
    held = [w for w in told if w.kind == "held"]
    assert len(held) == 1 and held[0].hold is hold
    judgement = held[0].judgement
    assert judgement is not None and judgement.verdict == "left-heavier"
    assert judgement.t - judgement.since >= 1.0 - 1e-6
    assert held[0].pans["right"].settled_g == pytest.approx(9.0, abs=0.05)


def test_a_hold_on_a_pan_that_is_not_there_is_refused():
    with pytest.raises(KeyError):
        _scales("left").hold("middle", 1.0)


def test_a_change_of_state_without_a_step_is_told_and_only_a_change():
    scales = _scales("left")
    told = []
    scales.listeners.append(told.append)
    scales.sim.run_for(2.0)
    scales.sim.put("left", 20.0)
    scales.sim.run_for(3.0)
    scales.sim.put("left", -20.0)
    scales.sim.run_for(3.0)
    states = [w for w in told if w.kind == "state"]
    assert states[0].t == told[0].t  # the pan's first state: it answers
    last = None
    for weight in told:
        shot = weight.pans["left"]
        now = (shot.state, shot.zeroed, shot.calibrated)
        if weight.kind == "state":
            assert now != last
        last = now
    now = scales.snapshot("left")
    assert last == (now.state, now.zeroed, now.calibrated)


def test_a_pan_calibrated_while_still_is_told_at_its_next_sample():
    from spielleiter.drivers.loadcell import LoadCellSample
    from spielleiter.drivers.weighing import Calibration
    scales = Scales.fed(["left"])
    told = []
    scales.listeners.append(told.append)
    for n in range(20):
        scales.on_sample(LoadCellSample("left", n * 0.1, 1000, n))
    assert not told[-1].pans["left"].calibrated
    scales.use_calibration("left", Calibration(offset=1000.0, counts_per_gram=400.0))
    scales.on_sample(LoadCellSample("left", 2.0, 1000, 20))
    assert told[-1].kind == "state" and told[-1].pans["left"].calibrated


def test_each_reading_while_a_pan_moves_is_told_and_none_while_it_is_still():
    scales = _scales("left")
    scales.sim.run_for(2.0)
    told = []
    scales.listeners.append(told.append)
    scales.sim.run_for(2.0)
    assert not [w for w in told if w.kind == "reading"]
    scales.sim.put("left", 50.0)
    scales.sim.run_for(2.0)
    readings = [w for w in told if w.kind == "reading"]
    assert readings and all(w.pans["left"].state == "moving" for w in readings)
    assert [w.t for w in readings] == sorted({w.t for w in readings})  # one per sample


def test_news_is_the_pans_as_they_are_now():
    scales = _scales("left", "right")
    scales.sim.run_for(1.0)
    scales.sim.put("left", 7.0)
    scales.sim.run_for(3.0)
    news = scales.news()
    assert news.kind == "now" and set(news.pans) == {"left", "right"}
    assert news.pans["left"] == scales.snapshot("left")
    assert news.judgement == scales.judgement()


MODES = ROOT / "device" / "modes"
PULLS = {"snapshot", "snapshots", "judgement", "verdict", "reading"}


def test_no_mode_but_the_scale_tool_reads_the_pans_outside_the_weights_it_is_told():
    """A mode decides on Weights; only the Scale tool shows each pan's live reading."""
    found = []
    for path in MODES.rglob("*.py"):
        if path.name == "scale.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in PULLS and "scales" in ast.unparse(node.func.value):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
    assert found == []


def test_no_mode_keeps_a_timer_on_the_pans():
    """What waits for time on a pan asks for a hold: no class that hears the pans (an
    ``on_weight``) or holds them (``.scales``) sets a timer."""
    found = []
    for path in MODES.rglob("*.py"):
        for cls in ast.walk(ast.parse(path.read_text())):
            if not isinstance(cls, ast.ClassDef) or \
                    any(ast.unparse(base).endswith("Protocol") for base in cls.bases):
                continue
            hears = any(isinstance(n, ast.FunctionDef) and n.name == "on_weight"
                        for n in cls.body) or any(
                isinstance(n, ast.Attribute) and n.attr == "scales" for n in ast.walk(cls))
            timers = [n.lineno for n in ast.walk(cls) if isinstance(n, ast.Call)
                      and isinstance(n.func, ast.Attribute) and n.func.attr == "call_later"]
            if hears and timers:
                found.append(f"{path.relative_to(ROOT)}:{cls.name} {timers}")
    assert found == []
