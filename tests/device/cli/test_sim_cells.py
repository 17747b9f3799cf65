"""``spielleiter sim`` puts its pans on load cells as real bar cells behave: a bent
output until calibrated, the overload stop, the box warming under the twin thermometer;
``--cells ideal`` gives exact cells for scripts that want exact grams."""

from __future__ import annotations

import io
import json
import re
import sys

from spielleiter.device.cli import main
from spielleiter.device.modes import MODES

TO_SCALE = "tap " + " ".join(["host.next"] * [m.name for m in MODES].index("scale"))


def _answers(tmp_path, monkeypatch, capsys, *lines: str, cells: str | None = None) -> list[dict]:
    script = "".join(line + "\n" for line in lines).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(script), encoding="utf-8"))
    extra = ["--cells", cells] if cells else []
    assert main(["sim", "--headless", "--lang", "en", "--state-dir", str(tmp_path / "state"),
                 *extra]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()][1:]


def _left_g(answer: dict) -> float:
    match = re.search(r"L\s+(-?[\d.]+) g", answer["view"])
    assert match, answer["view"]
    return float(match[1])


def test_the_sims_cells_bend_until_calibrated_and_ideal_ones_weigh_exactly(tmp_path, monkeypatch,
                                                                          capsys):
    script = (TO_SCALE, "tap host.ok", "idle 2", "put left 200", "idle 3", "show")
    real = _answers(tmp_path / "real", monkeypatch, capsys, *script)[-1]
    ideal = _answers(tmp_path / "ideal", monkeypatch, capsys, *script, cells="ideal")[-1]
    assert abs(_left_g(ideal) - 200.0) <= 0.05
    assert 0.08 <= abs(_left_g(real) - 200.0) <= 0.5  # the bow and span of an uncalibrated cell


def test_a_kilogram_on_the_sims_pan_rests_on_the_stop_and_reads_too_heavy(tmp_path, monkeypatch,
                                                                          capsys):
    answers = _answers(tmp_path, monkeypatch, capsys, TO_SCALE, "tap host.ok", "idle 2",
                       "put left 1000", "idle 3", "show")
    assert "L too heavy" in answers[-1]["view"]


def test_on_real_cells_the_box_warms_under_its_thermometer_and_on_ideal_ones_it_does_not(
        tmp_path):
    from support import build_box

    rise = {}
    for cells in ("real", "ideal"):
        with build_box(tmp_path / cells, sim_cells=cells) as box:
            box.runtime.pump()
            first = box.thermometer.last.celsius
            box.idle(300.0)                        # five minutes of the box warming (tau 20 min)
            rise[cells] = box.thermometer.last.celsius - first
    assert rise["real"] >= 1.5 and rise["ideal"] == 0.0
