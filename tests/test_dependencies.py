"""pyproject.toml's requirements where a known break sets the floor, and the
extras the box installs on Python 3.11 and 3.13 (docs/install.md, "The Python packages")."""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def requirements(group: str | None = None) -> dict[str, Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    found = project["dependencies"] if group is None else project["optional-dependencies"][group]
    return {Requirement(r).name.lower(): Requirement(r) for r in found}


def test_gpiozero_is_at_least_the_release_that_finds_the_pi5_header_on_gpiochip0():
    # 2.0.1 opened gpiochip4 on every Pi 5; kernels from 6.6.45 on put the header on gpiochip0.
    gpiozero = requirements()["gpiozero"]
    assert not gpiozero.specifier.contains("2.0.1") and gpiozero.specifier.contains("2.0.1.post3")
    assert Version(importlib.metadata.version("gpiozero")) >= Version("2.0.1.post3")


def test_luma_oled_takes_the_sh1106_column_offset():
    assert not requirements()["luma.oled"].specifier.contains("3.15.0")


def test_one_lgpio_for_both_pythons_and_rpi_lgpio_beside_it():
    pi = requirements("pi")
    assert {"lgpio", "rpi-lgpio", "smbus2", "spidev"} <= set(pi)
    assert "adafruit-lgpio" not in pi  # rpi-lgpio needs the distribution named lgpio
    for name in pi:
        assert pi[name].marker is None or pi[name].marker.evaluate(
            {"python_version": "3.13"}), name  # nothing left out on trixie


def test_pillow_stays_below_the_release_that_removes_getdata_while_luma_calls_it():
    import luma.oled.device

    calls = "getdata()" in Path(luma.oled.device.__file__).read_text(encoding="utf-8")
    pillow = requirements()["pillow"]
    assert not calls or not pillow.specifier.contains("14.0.0"), \
        "luma.oled draws through Image.getdata, which Pillow 14 removes: keep pillow<14"
    assert calls or pillow.specifier.contains("14.0.0"), \
        "luma.oled no longer calls Image.getdata: the pillow<14 cap can go"
