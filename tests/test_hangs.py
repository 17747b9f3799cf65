"""A test that hangs fails, and says where, instead of holding the whole run (and CI) forever:
pytest-timeout is part of the test install and the suite's configuration arms it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_test_stuck_in_a_loop_fails_with_where_it_was(tmp_path):
    (tmp_path / "test_stuck.py").write_text(textwrap.dedent("""
        def test_walks_a_menu_for_a_line_that_never_comes():
            while True:
                pass
    """))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "timeout=2",
         "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path), str(tmp_path)],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout[-2000:]
    assert "Timeout" in done.stdout and "test_walks_a_menu_for_a_line_that_never_comes" in \
        done.stdout


def test_the_suite_arms_a_timeout_for_every_test():
    text = (ROOT / "pyproject.toml").read_text()
    assert "pytest-timeout" in text and "\ntimeout = " in text
