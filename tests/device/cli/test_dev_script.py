"""scripts/dev.sh (issue 10 point 7): pip runs only when the install is not current (a new venv,
a changed pyproject.toml, an extra not yet installed), never shows its chatter on success, and
the script works from any directory. Run on a scratch copy whose ``.venv`` holds stand-ins for
python and the console script that only log how they were called (no network, no real venv)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.skipif(not (shutil.which("bash") and shutil.which("sha256sum")),
                                reason="needs bash and sha256sum")

FAKE_PYTHON = """#!/bin/sh
echo "python $*" >>"$DEV_LOG"
if [ "$1 $2 $3" = "-m pip install" ]; then
  echo "WARNING: pip says something on the way"
  [ -n "$PIP_FAILS" ] && { echo "ERROR: no network"; exit 1; }
  if [ "$4" = "-e" ]; then
    printf '#!/bin/sh\\necho "spielleiter $*" >>"$DEV_LOG"\\n' >"$(dirname "$0")/spielleiter"
    chmod +x "$(dirname "$0")/spielleiter"
  fi
fi
exit 0
"""


def executable(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A copy of the script, pyproject.toml and setup.py with a stand-in venv."""
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "dev.sh", repo / "scripts" / "dev.sh")
    shutil.copy(ROOT / "pyproject.toml", repo / "pyproject.toml")
    shutil.copy(ROOT / "setup.py", repo / "setup.py")
    executable(repo / ".venv" / "bin" / "python", FAKE_PYTHON)
    for tool in ("systemd-analyze", "shellcheck"):  # present, so `test` needs no apt-get
        executable(tmp_path / "bin" / tool, "#!/bin/sh\nexit 0\n")
    return repo


def dev(repo: Path, *args: str, fails: bool = False) -> tuple[subprocess.CompletedProcess, list]:
    """Run ``bash repo/scripts/dev.sh ARGS`` from another directory; what it ran, in order."""
    log = repo.parent / "calls.log"
    log.write_text("")
    env = {**os.environ, "DEV_LOG": str(log),
           "PATH": f"{repo.parent / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    env.pop("PIP_FAILS", None)
    if fails:
        env["PIP_FAILS"] = "1"
    done = subprocess.run(["bash", str(repo / "scripts" / "dev.sh"), *args], cwd=repo.parent,
                          env=env, capture_output=True, text=True, timeout=60)
    return done, log.read_text().splitlines()


def installs(calls: list[str]) -> list[str]:
    return [call for call in calls if call.startswith("python -m pip install -e")]


def test_sim_installs_once_then_starts_straight_away(repo):
    first, calls = dev(repo, "sim", "--state-dir", "x")
    assert first.returncode == 0, first.stderr
    assert installs(calls) == ["python -m pip install -e ."]
    assert calls[-1] == "spielleiter sim --state-dir x"
    assert "WARNING" not in first.stdout + first.stderr       # pip's output went to the log
    assert "installing spielleiter" in first.stderr
    again, calls = dev(repo, "sim")
    assert again.returncode == 0 and again.stderr == "" and again.stdout == ""
    assert not [call for call in calls if "pip" in call] and calls[-1] == "spielleiter sim"


def test_test_installs_the_test_extra_after_a_plain_install_and_keeps_it(repo):
    dev(repo, "sim")
    done, calls = dev(repo, "test", "-x")
    assert done.returncode == 0, done.stderr
    assert installs(calls) == ['python -m pip install -e .[test]']
    assert calls[-1] == "python -m pytest -n auto -x"  # a worker per core, then the args
    for task in ("test", "sim", "demo"):                       # the test extra serves them all
        assert installs(dev(repo, task)[1]) == [], task


def test_a_changed_pyproject_installs_again(repo):
    dev(repo, "test")
    with (repo / "pyproject.toml").open("a") as toml:
        toml.write("\n# a new dependency, say\n")
    assert installs(dev(repo, "sim")[1]) == ["python -m pip install -e ."]
    assert installs(dev(repo, "test")[1]) == ['python -m pip install -e .[test]']
    assert installs(dev(repo, "test")[1]) == []


def test_a_failed_install_shows_pips_output_and_is_tried_again(repo):
    done, calls = dev(repo, "sim", fails=True)
    assert done.returncode == 1 and "ERROR: no network" in done.stderr
    assert "spielleiter-install.log" in done.stderr and not calls[-1].startswith("spielleiter")
    done, calls = dev(repo, "sim")
    assert done.returncode == 0 and installs(calls) == ["python -m pip install -e ."]


def test_a_removed_console_script_is_installed_again(repo):
    dev(repo, "sim")
    (repo / ".venv" / "bin" / "spielleiter").unlink()
    assert installs(dev(repo, "sim")[1]) == ["python -m pip install -e ."]


@pytest.mark.skipif(not shutil.which("shellcheck"), reason="shellcheck is not installed")
def test_the_script_passes_shellcheck():
    done = subprocess.run(["shellcheck", str(ROOT / "scripts" / "dev.sh")], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stdout
