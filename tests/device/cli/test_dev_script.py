"""scripts/dev.sh: pip runs only when the install is not current (a new venv,
a changed pyproject.toml, an extra not yet installed), never shows its chatter on success, and
the script works from any directory. One venv per interpreter, and the Debian packages
of scripts/debian-packages.txt installed as root, through sudo without a password, or only named.
Run on a scratch copy whose ``.venv`` holds stand-ins for python and the console script, with
stand-ins for id, sudo, dpkg-query and apt-get on PATH that only log how they were called (no
network, no real venv, nothing installed)."""

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
[ "$1 $2" = "-m pytest" ] && echo "PYTHONDONTWRITEBYTECODE=${PYTHONDONTWRITEBYTECODE-}" >>"$DEV_LOG"
echo "python $*" >>"$DEV_LOG"
if [ "$1" = -c ]; then echo "${FAKE_VERSION:-3.11}"; exit 0; fi
if [ "$1 $2" = "-m venv" ]; then
  mkdir -p "$3/bin" && cp "$0" "$3/bin/python" && exit 0
fi
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


# Stand-ins on PATH: FAKE_UID is who runs, FAKE_SUDO=ok lets "sudo -n" through, FAKE_MISSING
# lists the packages dpkg-query reports as not installed.
STANDINS = {
    "id": '[ "$1" = -u ] && { echo "${FAKE_UID:-0}"; exit 0; }; exec /usr/bin/id "$@"\n',
    "sudo": 'echo "sudo $*" >>"$DEV_LOG"; [ "$FAKE_SUDO" = ok ] || exit 1; shift; "$@"\n',
    "dpkg-query": 'for a; do pkg=$a; done; for p in $FAKE_MISSING; do [ "$p" = "$pkg" ] && exit 1; '
                  'done; echo "install ok installed"\n',
    "apt-get": 'echo "apt-get $*" >>"$DEV_LOG"\n',
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A copy of the script, its package list, pyproject.toml and setup.py with a stand-in
    venv."""
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    for name in ("dev.sh", "debian-packages.txt"):
        shutil.copy(ROOT / "scripts" / name, repo / "scripts" / name)
    shutil.copy(ROOT / "pyproject.toml", repo / "pyproject.toml")
    shutil.copy(ROOT / "setup.py", repo / "setup.py")
    executable(repo / ".venv" / "bin" / "python", FAKE_PYTHON)
    for tool, body in STANDINS.items():
        executable(tmp_path / "bin" / tool, "#!/bin/sh\n" + body)
    executable(tmp_path / "bin" / "python3", FAKE_PYTHON)  # never the real one: no real venv
    return repo


def dev(repo: Path, *args: str, fails: bool = False, **env_vars: str
        ) -> tuple[subprocess.CompletedProcess, list]:
    """Run ``bash repo/scripts/dev.sh ARGS`` from another directory; what it ran, in order."""
    log = repo.parent / "calls.log"
    log.write_text("")
    env = {**os.environ, "DEV_LOG": str(log),
           "PATH": f"{repo.parent / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    for name in ("PIP_FAILS", "PYTHON", "VENV", "FAKE_UID", "FAKE_SUDO", "FAKE_MISSING"):
        env.pop(name, None)
    env.update(env_vars)
    if fails:
        env["PIP_FAILS"] = "1"
    done = subprocess.run(["bash", str(repo / "scripts" / "dev.sh"), *args], cwd=repo.parent,
                          env=env, capture_output=True, text=True, timeout=60)
    return done, log.read_text().splitlines()


def installs(calls: list[str]) -> list[str]:
    return [call for call in calls if call.startswith("python -m pip install -e")]


def apt_installs(calls: list[str]) -> list[str]:
    return [call.split(" -y -qq --no-install-recommends ")[1] for call in calls
            if "apt-get install" in call]


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
    # a worker per core, each taking from the other's queue when its own runs out, then the args
    assert calls[-1] == "python -m pytest -n auto --dist worksteal -x"
    for task in ("test", "sim", "demo"):                       # the test extra serves them all
        assert installs(dev(repo, task)[1]) == [], task


def test_the_tests_byte_code_is_kept_even_where_python_is_told_to_write_none(repo):
    """pytest keeps each test module as it rewrote it, so the next run (and each worker) loads
    it instead of rewriting it, as the package's byte code is kept (``compiled``)."""
    done, calls = dev(repo, "test", PYTHONDONTWRITEBYTECODE="1")
    assert done.returncode == 0, done.stderr
    assert calls[-2:] == ["PYTHONDONTWRITEBYTECODE=", "python -m pytest -n auto --dist worksteal"]


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


PACKAGES_DEV = "fonts-terminus-otb"
PACKAGES_TEST = "fonts-terminus-otb systemd shellcheck mosquitto chromium chromium-driver"


def test_missing_debian_packages_are_installed_as_root_for_the_task(repo):
    missing = PACKAGES_TEST + " python3-dev"  # a box-only package: never for dev.sh
    done, calls = dev(repo, "sim", FAKE_MISSING=missing)
    assert done.returncode == 0, done.stderr
    assert apt_installs(calls) == [PACKAGES_DEV]
    assert "apt-get update -qq" in calls and calls[-1] == "spielleiter sim"
    done, calls = dev(repo, "test", FAKE_MISSING=missing)
    assert apt_installs(calls) == [PACKAGES_TEST]
    assert "dev.sh: installing " + PACKAGES_TEST + " (Debian)" in done.stderr
    assert apt_installs(dev(repo, "test")[1]) == []  # all there: no apt-get at all


def test_without_root_passwordless_sudo_installs_them(repo):
    done, calls = dev(repo, "sim", FAKE_UID="1000", FAKE_SUDO="ok",
                      FAKE_MISSING="fonts-terminus-otb")
    assert done.returncode == 0, done.stderr
    assert "sudo -n true" in calls  # asked without a prompt first
    assert ("sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "
            "--no-install-recommends fonts-terminus-otb") in calls


def test_without_root_or_sudo_it_says_so_in_one_line_and_goes_on(repo):
    done, calls = dev(repo, "sim", FAKE_UID="1000", FAKE_MISSING="fonts-terminus-otb")
    assert done.returncode == 0 and calls[-1] == "spielleiter sim"
    assert apt_installs(calls) == []
    assert [line for line in done.stderr.splitlines() if "apt" in line or "not inst" in line] == [
        "dev.sh: not installing fonts-terminus-otb (needs root or sudo without a password): "
        "the screens use the fallback font"]


def test_every_package_dev_sh_names_is_in_the_one_list():
    listed = (ROOT / "scripts" / "debian-packages.txt").read_text()
    rows = {line.split()[0]: line.split("#")[0].split()[1:] for line in listed.splitlines()
            if line.strip() and not line.startswith("#")}
    assert rows["fonts-terminus-otb"] == ["dev", "box"]
    for package in ("systemd", "shellcheck", "mosquitto", "chromium", "chromium-driver"):
        assert rows[package] == ["test"], package
    code = [line.split("#")[0] for line in (ROOT / "scripts" / "dev.sh").read_text().splitlines()]
    assert not [p for p in rows if p != "python3-venv" and any(p in line for line in code)]


def test_another_interpreter_gets_its_own_venv(repo, tmp_path):
    other = tmp_path / "bin" / "python3.13"
    executable(other, FAKE_PYTHON)
    dev(repo, "sim")
    done, calls = dev(repo, "test", PYTHON=str(other), FAKE_VERSION="3.13")
    assert done.returncode == 0, done.stderr
    assert "python -m venv .venv-3.13" in calls
    assert (repo / ".venv-3.13" / "spielleiter-installed").read_text().endswith(" test\n")
    assert "into .venv-3.13" in done.stderr
    assert installs(dev(repo, "sim")[1]) == []  # .venv kept its install
    assert installs(dev(repo, "test", PYTHON=str(other), FAKE_VERSION="3.13")[1]) == []


def test_a_venv_of_another_python_version_is_made_again(repo):
    dev(repo, "sim")
    done, calls = dev(repo, "sim", FAKE_VERSION="3.13")  # python3 is now 3.13, .venv says 3.13
    assert installs(calls) == []
    (repo / ".venv" / "bin" / "python").write_text(FAKE_PYTHON.replace(
        'echo "${FAKE_VERSION:-3.11}"', 'echo 3.11'))
    done, calls = dev(repo, "sim", FAKE_VERSION="3.13")
    assert installs(calls) == ["python -m pip install -e ."], done.stderr


@pytest.mark.skipif(not shutil.which("shellcheck"), reason="shellcheck is not installed")
def test_the_script_passes_shellcheck():
    done = subprocess.run(["shellcheck", str(ROOT / "scripts" / "dev.sh")], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stdout
