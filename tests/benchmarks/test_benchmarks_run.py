"""Every benchmark runs: each script at its smallest size, in a subprocess, as a person runs it
from the repository (seconds, no figure asserted). A rename in the product then breaks a test
here, not a benchmark found months later."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"

# script: the arguments of its smallest run
SMALLEST = {
    "burst.py": ["--presses", "3"],
    "display.py": ["--frames", "3"],
    "drift.py": ["--games", "1", "--minutes", "1", "--workers", "1"],
    "journal.py": ["--actions", "50"],
    "journal_years.py": ["--sizes", "20", "--base", "20"],
    "latency.py": ["--presses", "3", "--idle", "0.2", "--baseline-presses", "3"],
    "past_games.py": ["--games", "3"],
    "past_memory.py": ["--rounds", "3"],
    "render.py": ["--passes", "1", "--demos", "1"],
    "replay_frames.py": ["--repeat", "1"],
    "room.py": ["--boxes", "1", "--seconds", "3", "--children", "1", "--rate", "2"],
    "room_door.py": ["--rate", "20", "--seconds", "2", "--children", "2"],
    "sim_memory.py": ["--commands", "50", "--every", "25"],
    "torraku.py": ["--sequences", "2", "--workers", "1", "--rates", "10"],
    "trudel.py": ["--trials", "2", "--rates", "10"],
    "weighing.py": ["--smoke", "--workers", "1", "--pairs", "1"],
}
NEEDS = {"room.py": "mosquitto", "room_door.py": "mosquitto"}  # a program the script cannot run without


def scripts() -> list[str]:
    """The benchmark scripts: every module of benchmarks/ that runs as a program."""
    return sorted(p.name for p in BENCHMARKS.glob("*.py")
                  if 'if __name__ == "__main__"' in p.read_text(encoding="utf-8"))


def test_every_benchmark_script_has_a_smallest_run_here():
    assert scripts() == sorted(SMALLEST)


@pytest.mark.parametrize("script", sorted(SMALLEST))
def test_the_benchmark_runs_at_its_smallest_size(script, tmp_path):
    program = NEEDS.get(script)
    if program and shutil.which(program) is None:
        pytest.skip(f"{program} is not installed")
    done = subprocess.run([sys.executable, script, *SMALLEST[script]], cwd=BENCHMARKS,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "HOME": str(tmp_path),
                               "XDG_STATE_HOME": str(tmp_path / "state")})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert done.stdout.strip(), "the benchmark printed no figures"
