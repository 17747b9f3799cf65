"""The code checked without running it: mypy at the strictness pyproject.toml's ``[tool.mypy]``
states (bodies of untyped functions checked, no half-typed function, no stale ignore), and
ruff's pyflakes rules (an unused import or variable, a name that does not exist). Both are in
the test extra, so CI runs them with the suite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_the_product_type_checks_clean():
    done = run(sys.executable, "scripts/typecheck.py")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_ruff_finds_no_unused_import_or_undefined_name():
    done = run(sys.executable, "-m", "ruff", "check", "--select", "F", "--no-cache", ".")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
