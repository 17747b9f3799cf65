"""The ``hx711`` package (last release 2018) is the gpio reader's own extra,
not a core dependency, so the reader imports it only when it starts and says what is missing."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import types
from pathlib import Path

import pytest

from spielleiter.drivers.loadcell import LoadCellError, make_reader

ROOT = Path(__file__).resolve().parents[3]


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def names(requirements: list[str]) -> set[str]:
    return {r.split(";")[0].split(">")[0].split("=")[0].split("<")[0].strip().lower()
            for r in requirements}


def test_hx711_is_an_extra_not_a_core_dependency():
    meta = project()
    assert "hx711" not in names(meta["dependencies"])
    extras = meta["optional-dependencies"]
    assert names(extras["hx711"]) == {"hx711"}
    assert "hx711" in names(extras["test"])  # the tests run the package's own code


def test_importing_the_readers_does_not_import_hx711():
    code = ("import sys, spielleiter.drivers.loadcell.gpio, spielleiter.drivers.loadcell; "
            "print('hx711' in sys.modules, 'RPi' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.split() == ["False", "False"], done.stderr


def test_a_missing_hx711_package_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "hx711", None)  # as if not installed
    reader = make_reader("gpio", "left", on_event=lambda ev: None, dout_pin=5, sck_pin=6)
    with pytest.raises(LoadCellError) as caught:
        reader.start()
    reader.close()
    message = str(caught.value)
    assert message.startswith("left: ") and "hx711 package, which is not installed" in message
    assert "spielleiter[hx711]" in message and "scripts/install.sh" in message


def test_a_missing_rpi_gpio_is_named_as_such(monkeypatch):
    monkeypatch.delitem(sys.modules, "hx711", raising=False)
    monkeypatch.setitem(sys.modules, "RPi", types.ModuleType("RPi"))
    monkeypatch.setitem(sys.modules, "RPi.GPIO", None)  # the package's own import fails
    reader = make_reader("gpio", "right", on_event=lambda ev: None, dout_pin=5, sck_pin=6)
    with pytest.raises(LoadCellError, match=r"right: the hx711 package cannot load RPi\.GPIO"
                       r".*\[pi\] extra"):
        reader.start()
    reader.close()
    monkeypatch.delitem(sys.modules, "hx711", raising=False)  # not half-imported afterwards
