"""The first hour with the box's command: a piped simulator says why it needs a terminal instead
of failing half-drawn, and ``run`` on a laptop says in one line that there is no GPIO."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

COMMAND = [sys.executable, "-m", "spielleiter.device.cli"]


def on_a_pi() -> bool:
    model = Path("/proc/device-tree/model")
    return model.exists() and "Raspberry Pi" in model.read_text(errors="replace")


def test_sim_piped_into_tee_says_it_needs_a_terminal_without_a_traceback(tmp_path):
    leader, follower = pty.openpty()                 # a terminal for the keys, a pipe for the
    try:                                             # screen: ``spielleiter sim | tee log``
        done = subprocess.run(COMMAND + ["sim", "--state-dir", str(tmp_path), "--lang", "en"],
                              stdin=follower, capture_output=True, text=True, timeout=60,
                              env={**os.environ, "TERM": "xterm"})
    finally:
        os.close(leader)
        os.close(follower)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "curses" not in done.stderr
    assert done.stderr.strip() == ("spielleiter sim: needs a terminal for its screen "
                                   "(to keep a log: --headless)")


@pytest.mark.skipif(on_a_pi(), reason="on a Raspberry Pi the GPIO is there")
def test_run_on_a_laptop_says_in_one_line_that_there_is_no_gpio(tmp_path):
    done = subprocess.run(COMMAND + ["run", "--state-dir", str(tmp_path)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "spielleiter run: cannot start: no GPIO here: this is not a Raspberry Pi "
        "(on a laptop: spielleiter sim)"]
