"""The wheel holds exactly the product: spielleiter.games, .drivers, .device with their
subpackages and the shipped data; never tests/, benchmarks/ or a top-level games/ package
(docs/architecture.md). Built from a copy of the checkout, so the build leaves nothing behind."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOP = ("games", "drivers", "device")  # installed as spielleiter.<name> (package-dir)
DATA = {"spielleiter.device.data": ["default_config.toml"]}


def source_packages() -> set[str]:
    """Every folder under games/, drivers/, device/ with an ``__init__.py``, as installed."""
    return {"spielleiter." + ".".join(init.parent.relative_to(ROOT).parts)
            for top in TOP for init in (ROOT / top).rglob("__init__.py")
            if "__pycache__" not in init.parts}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", ".venv", ".venv-*", "build", "*.egg-info", "__pycache__", ".pytest_cache",
        ".hypothesis", "*.actual.png"))
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                             "--no-build-isolation", "-q", "-w", str(tmp / "dist"), str(src)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    [built] = (tmp / "dist").glob("spielleiter-*.whl")
    with zipfile.ZipFile(built) as archive:
        yield archive


def test_no_package_is_listed_by_hand():
    """setup.py finds the package folders: a new game's folder needs no list to be edited."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "packages" not in pyproject["tool"]["setuptools"]


def test_the_wheel_holds_exactly_the_product(wheel):
    names = [n for n in wheel.namelist() if ".dist-info/" not in n]
    assert all(n.startswith("spielleiter/") for n in names), \
        sorted({n.split("/")[0] for n in names})  # no tests/, benchmarks/, games/ at the top
    packages = {".".join(Path(n).parent.parts) for n in names if n.endswith(".py")}
    assert packages == source_packages()
    expected = {f"spielleiter/{path.relative_to(ROOT).as_posix()}"
                for top in TOP for path in (ROOT / top).rglob("*.py")
                if "__pycache__" not in path.parts}
    assert {n for n in names if n.endswith(".py")} == expected
    for package, files in DATA.items():
        folder = package.replace(".", "/")
        assert {n for n in names if n.startswith(folder + "/")} == \
            {f"{folder}/{f}" for f in files}
    catalogues = {f"spielleiter/device/locale/{lang}/LC_MESSAGES/spielleiter.{ext}"
                  for lang in ("de", "en") for ext in ("po", "mo")}
    assert {n for n in names if "/locale/" in n} == catalogues  # German and English ship
    assert not [n for n in names if not n.endswith((".py", ".toml", ".po", ".mo"))]


def test_the_wheel_installs_the_command(wheel):
    [entry] = [n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt")]
    text = wheel.read(entry).decode()
    assert "spielleiter = spielleiter.device.cli:main" in text
