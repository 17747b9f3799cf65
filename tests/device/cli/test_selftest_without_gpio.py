"""``spielleiter selftest`` on a machine without GPIO (a laptop, CI): gpiozero's search for a pin
library warns once per library it tries; the self-test says it in its own row instead, and the
terminal gets no PinFactoryFallback warnings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero import Device

from spielleiter.device.config.core import load as load_config
from spielleiter.device.service import checks

ON_A_PI = "Raspberry Pi" in (Path("/proc/device-tree/model").read_text(errors="replace")
                             if Path("/proc/device-tree/model").exists() else "")
needs_no_gpio = pytest.mark.skipif(ON_A_PI, reason="this machine has GPIO")


@pytest.fixture
def no_factory_yet(monkeypatch):
    """gpiozero as a fresh process finds it: no pin library chosen, none named in the env."""
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)


@needs_no_gpio
def test_the_buttons_row_says_there_is_no_gpio_and_no_warning_escapes(no_factory_yet, recwarn):
    row = checks.check_buttons(load_config(None))
    assert row.verdict == "FAIL" and row.short == "no GPIO"
    assert row.detail.startswith("no GPIO on this machine: gpiozero found no pin library")
    assert "lgpio" in row.detail and "selftest --sim" in row.detail
    assert "systemctl stop" not in row.detail          # not mistaken for pins the service holds
    assert [str(w.message) for w in recwarn] == []


def test_a_pin_library_named_in_the_environment_that_does_not_exist_is_named(no_factory_yet,
                                                                             monkeypatch,
                                                                             recwarn):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "bogus")
    row = checks.check_buttons(load_config(None))
    assert row.verdict == "FAIL" and "GPIOZERO_PIN_FACTORY=bogus" in row.detail
    assert [str(w.message) for w in recwarn] == []


@needs_no_gpio
def test_selftest_prints_its_table_and_no_gpiozero_warnings(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    done = subprocess.run([sys.executable, "-m", "spielleiter.device.cli", "selftest",
                           "--config", os.devnull, "--lang", "en"], capture_output=True, text=True, env=env,
                          timeout=60)
    assert "PinFactoryFallback" not in done.stderr and "warnings.warn" not in done.stderr
    assert done.stderr == ""
    row = next(line for line in done.stdout.splitlines() if line.startswith("buttons"))
    assert "FAIL" in row and "no GPIO on this machine" in row
