"""``spielleiter scale --sim``: a live view in real time, one line rewritten in
place on a terminal and a line every half second into a pipe, that never applies a tare saved by
``spielleiter sim`` unless ``--tare`` asks to zero the pans. Time is a fake clock that ``sleep``
advances, so the tests take no wall time and show how long the view would have waited."""

from __future__ import annotations

import io
import re
from pathlib import Path

from spielleiter.device.config import core as config
from spielleiter.device.box import Box
from spielleiter.device.cli.scale_live import run_scale
from spielleiter.device.journal.store import Journal
from spielleiter.device.runtime import ManualClock
from spielleiter.drivers.buttons import mock_factory
from spielleiter.drivers.display import open_device
from spielleiter.drivers.sim import SimScale
from spielleiter.drivers.weighing import Calibration


class FakeTime:
    """A wall clock that only ``sleep`` moves."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept = 0.0

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        assert seconds > 0
        self.now += seconds
        self.slept += seconds


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def scale(state: Path, *args: str, seconds: float = 1.0, tare: bool = False,
          stream: io.StringIO | None = None, cells: str = "real"
          ) -> tuple[int, list[str], FakeTime]:
    lines: list[str] = []
    fake = FakeTime()
    code = run_scale(sim=True, puts=list(args), seconds=seconds, state_dir=state,
                     config_path=None, out=lines.append, tare=tare, cells=cells,
                     stream=stream if stream is not None else io.StringIO(),
                     sleep=fake.sleep, clock=fake.clock)
    return code, lines, fake


def grams(line: str, pan: str) -> float:
    return float(re.search(rf"{pan}:\s+(-?[\d.]+) g", line)[1])


def saved(state: Path) -> dict:
    with Journal(state / "journal.sqlite3") as journal:
        return {pan: journal.calibration(pan) for pan in ("left", "right")}


def test_into_a_pipe_a_line_every_half_second_of_real_time(tmp_path):
    code, lines, fake = scale(tmp_path, "left=30", "right=20", seconds=2.0)
    assert code == 0 and len(lines) == 4
    assert [line[:8] for line in lines] == ["t=  0.5s", "t=  1.0s", "t=  1.5s", "t=  2.0s"]
    assert abs(fake.slept - 2.0) < 1e-9  # the simulated pans move at the speed of the clock
    assert abs(grams(lines[-1], "left") - 30) < 0.1 and "Left is heavier" in lines[-1]


def test_on_a_terminal_one_line_is_rewritten_in_place(tmp_path):
    terminal = Terminal()
    code, lines, fake = scale(tmp_path, "left=12.3", seconds=1.0, stream=terminal)
    assert code == 0 and abs(fake.slept - 1.0) < 1e-9
    assert len(lines) == 1 and "Ctrl-C" in lines[0]             # the one-off explanation
    shown = terminal.getvalue()
    assert shown.count("\n") == 1 and shown.endswith("\n")      # the line ends once, at the end
    updates = shown.split("\r")[1:]
    assert len(updates) == 10 and all(u.rstrip("\n").endswith("\x1b[K") for u in updates)
    assert abs(grams(updates[-1], "left") - 12.3) < 0.1


def tare_in_the_simulator(state: Path, grams_on_left: float) -> None:
    """What the Scale menu of ``spielleiter sim`` does: tare with something on the pan."""
    with Box.build(config.load(None), state, pin_factory=mock_factory(),
                   display_device=open_device("dummy"), clock=ManualClock()) as box:
        box.put("left", grams_on_left)
        box.idle(3)
        assert box.scales.tare() == []


def test_a_tare_saved_by_the_simulator_is_not_applied(tmp_path):
    tare_in_the_simulator(tmp_path, 12.3)
    before = saved(tmp_path)
    code, lines, _ = scale(tmp_path)
    assert code == 0
    assert abs(grams(lines[-1], "left")) < 0.05   # an empty pan reads 0, not -12.3 g
    assert saved(tmp_path) == before              # and the simulator's zero is left alone


def test_a_calibration_saved_by_calibrate_is_kept_and_tare_zeroes_it_for_this_run(tmp_path):
    truth = SimScale(("left", "right"), seed=0, rate=10).true_calibration("left")
    off = Calibration.from_points([(0.0, truth.counts(5.0)), (100.0, truth.counts(105.0))])
    with Journal(tmp_path / "journal.sqlite3") as journal:     # a zero taken 5 g too high:
        journal.save_calibration("left", off.to_json())        # more than the zero-setting
    _, lines, _ = scale(tmp_path, "left=50")                   # at power-on takes (2 g)
    assert abs(grams(lines[-1], "left") - 45.0) < 0.1          # the calibration as calibrated
    code, lines, _ = scale(tmp_path, "left=50", tare=True)
    assert code == 0 and abs(grams(lines[-1], "left") - 50.0) < 0.1
    assert saved(tmp_path)["left"] == off.to_json()            # --tare saves nothing


def test_ctrl_c_ends_the_live_line_and_returns_130(tmp_path):
    terminal, fake = Terminal(), FakeTime()

    def sleep(seconds: float) -> None:
        fake.sleep(seconds)
        if fake.now > 0.35:
            raise KeyboardInterrupt
    code = run_scale(sim=True, puts=[], seconds=None, state_dir=tmp_path, config_path=None,
                     out=lambda _: None, stream=terminal, sleep=sleep, clock=fake.clock)
    assert code == 130 and terminal.getvalue().endswith("\x1b[K\n")


def test_the_line_says_warming_up_until_the_zeros_have_held_still_for_two_minutes(tmp_path):
    code, lines, _ = scale(tmp_path, seconds=125.0, cells="ideal")
    assert code == 0 and len(lines) == 250
    warming = ["warming up" in line for line in lines]
    assert warming[0] and "the zero is not steady yet" in lines[0]
    # ideal cells' empty pans are steady from the start: the notice ends at 120 s (the
    # WarmUp window), never earlier, and does not come back
    assert warming.index(False) == 239 and not any(warming[239:])


def test_the_star_after_a_reading_is_explained_in_english_and_in_german(tmp_path, capsys):
    code, lines, _ = scale(tmp_path, "left=30", seconds=1.0)         # into a pipe: the lines
    assert code == 0 and lines[-1].split("left:")[1].split("g")[1].startswith(" *")
    assert "(* = stable)" in capsys.readouterr().err                # stay data, stderr explains
    lines, fake = [], FakeTime()
    code = run_scale(sim=True, puts=["left=30"], seconds=1.0, state_dir=tmp_path,
                     config_path=None, out=lines.append, stream=Terminal(), sleep=fake.sleep,
                     clock=fake.clock, language="de")
    assert code == 0 and "(* = ruhig)" in lines[0] and "Strg-C" in lines[0]


def test_on_the_sims_real_cells_the_warm_up_lasts_as_long_as_their_zeros_drift(tmp_path):
    code, lines, _ = scale(tmp_path, seconds=125.0)     # real cells: 3 min of warm-up drift
    assert code == 0 and all("warming up" in line for line in lines)
