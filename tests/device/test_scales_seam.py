"""The seam between the pans and the modes: every ``Weight`` carries each pan's ``PanSnapshot``
and the judgement of the same sample, and the judge has run before anyone is told."""

from __future__ import annotations

import queue

from spielleiter.device.config import core as config
from spielleiter.device.journal.store import Journal
from spielleiter.device.pans.scales import Scales
from spielleiter.drivers.loadcell import LoadCellSample, LoadCellStatus
from spielleiter.drivers.weighing import PanSnapshot

TWO_PANS = '[loadcells.left]\nreader = "spi"\nbus = 0\n[loadcells.right]\nreader = "spi"\nbus = 1\n'


def _scales(tmp_path, site_text=TWO_PANS):
    site = tmp_path / "config.toml"
    site.write_text(site_text)
    journal = Journal(tmp_path / "journal.sqlite3")
    events: queue.Queue = queue.Queue()
    scales = Scales.build(config.load(site), journal, events.put, simulated=True)

    def run(seconds):
        scales.sim.run_for(seconds)
        while not events.empty():
            event = events.get()
            (scales.on_sample if isinstance(event, LoadCellSample) else scales.on_status)(event)

    return journal, scales, run


def test_a_pan_that_starts_moving_is_told_with_no_judgement_left_in_force(tmp_path):
    journal, scales, run = _scales(tmp_path)
    told = []
    scales.listeners.append(lambda w: told.append((w, scales.judgement())))
    run(1.0)
    scales.sim.put("left", 20.0)
    scales.sim.put("right", 10.0)
    run(3.0)
    assert scales.verdict() == "left-heavier"
    scales.sim.put("right", 30.0)
    run(3.0)
    moving = [(w, now) for w, now in told if w.kind == "moving"]
    assert moving and all(now is None and w.judgement is None for w, now in moving)
    assert scales.verdict() == "left-lighter"
    scales.close()
    journal.close()


def test_a_verdict_that_comes_without_other_news_is_told_as_judged(tmp_path):
    journal, scales, run = _scales(tmp_path)
    told = []
    scales.listeners.append(told.append)
    run(1.0)
    scales.sim.put("left", 20.0)
    scales.sim.put("right", 10.0)
    run(3.0)
    judged = [w for w in told if w.kind == "judged"]
    assert judged and judged[-1].judgement is not None
    assert judged[-1].judgement.verdict == "left-heavier" == scales.verdict()
    last_stable = max(w.t for w in told if w.kind == "stable")
    assert judged[-1].t - last_stable >= scales.judge_s - 1e-6  # joint stability first
    scales.close()
    journal.close()


def test_every_weight_carries_each_pans_snapshot_after_its_sample(tmp_path):
    journal, scales, run = _scales(tmp_path)
    told = []
    scales.listeners.append(lambda w: told.append((w, scales.snapshots())))
    run(1.0)
    scales.sim.put("left", 25.0)
    run(3.0)
    assert told
    for weight, now in told:
        assert set(weight.pans) == {"left", "right"}
        assert weight.pans == now
        assert all(isinstance(s, PanSnapshot) for s in weight.pans.values())
    stable = [w for w, _ in told if w.kind == "stable" and w.pan == "left"][-1]
    assert stable.pans["left"].state == "stable" and stable.pans["left"].stable
    assert abs(stable.pans["left"].grams - 25.0) < 0.1
    assert stable.pans["right"].state == "empty"
    moving = [w for w, _ in told if w.kind == "moving" and w.pan == "left"][0]
    assert moving.pans["left"].state == "moving" and not moving.pans["left"].stable
    scales.close()
    journal.close()


def test_a_disconnected_pan_is_told_and_its_snapshot_says_so(tmp_path):
    journal, scales, run = _scales(tmp_path)
    told = []
    scales.listeners.append(told.append)
    assert scales.snapshot("left").state == "starting"
    run(1.0)
    scales.on_status(LoadCellStatus("left", scales.sim.now(), "disconnected", "cable"))
    assert told[-1].kind == "disconnected" and told[-1].pan == "left"
    shot = told[-1].pans["left"]
    assert shot.state == "disconnected" and not shot.connected and shot.grams is None
    assert told[-1].judgement is None
    scales.close()
    journal.close()


def test_a_box_weight_reaches_the_mode_with_pans_and_judgement(box_factory):
    box = box_factory()
    seen = []
    real = box.app.on_weight
    box.app.on_weight = lambda w: (seen.append(w), real(w))[1]
    box.scales.listeners[:] = [box.app.on_weight]
    box.put("left", 20.0)
    box.put("right", 10.0)
    box.idle(3.0)
    assert seen and all(set(w.pans) == set(box.scales.pans) for w in seen)
    assert any(w.judgement is not None and w.judgement.verdict == "left-heavier" for w in seen)
