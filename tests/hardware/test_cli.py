"""``python scripts/hardware.py``: ``check`` passes on the files as committed, and bad input is a
clear message that changes nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from boxmaker import cli

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.shipped_language


def test_check_finds_every_generated_file_current():
    assert cli.main(["check"]) == 0


def test_a_broken_config_is_refused_and_nothing_is_written(tmp_path: Path, capsys):
    site = tmp_path / "config.toml"
    site.write_text("[buzzer]\npin = 99\n")
    before = {p: p.stat().st_mtime_ns for p in (cli.README, cli.SCHEMATIC, cli.GUIDE)}
    assert cli.main(["all", "--config", str(site)]) == 2
    assert "buzzer.pin" in capsys.readouterr().err
    assert {p: p.stat().st_mtime_ns for p in before} == before


def test_the_script_runs_from_any_folder(tmp_path: Path):
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "hardware.py"), "--help"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "schematic" in done.stdout
