"""scripts/boot_config.py: the config.txt and cmdline.txt edits the installer makes where
raspi-config cannot, idempotent and limited to what applies to every board."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "boot_config.py"
spec = importlib.util.spec_from_file_location("boot_config", SCRIPT)
boot_config = importlib.util.module_from_spec(spec)
sys.modules["boot_config"] = boot_config  # dataclasses look their module up there
spec.loader.exec_module(boot_config)

OPS = ["dtparam:i2c_arm=on", "dtparam:spi=on", "dtparam:i2c_arm_baudrate=400000",
       "overlay:spi1-1cs", "set:enable_uart=1"]


def edit(tmp_path: Path, text: str, ops=OPS) -> tuple[str, list[str]]:
    path = tmp_path / "config.txt"
    path.write_text(text)
    changes = boot_config.edit_config(path, list(ops))
    return path.read_text(), changes


def test_an_empty_file_gets_parameters_before_the_overlay(tmp_path):
    text, changes = edit(tmp_path, "")
    assert text == ("dtparam=i2c_arm=on\ndtparam=spi=on\ndtparam=i2c_arm_baudrate=400000\n"
                    "enable_uart=1\ndtoverlay=spi1-1cs\n")
    assert changes[-1] == "+ dtoverlay=spi1-1cs" and len(changes) == 5


def test_settings_already_there_in_other_words_are_left_alone(tmp_path):
    start = ("dtparam=audio=on,i2c_arm=yes,i2c_arm_baudrate=400000\ndtparam=spi\n"
             "enable_uart=true\ndtoverlay=spi1-1cs,cs0_pin=18\n")
    text, changes = edit(tmp_path, start)
    assert text == start and changes == []


def test_off_and_commented_settings_change_where_they_stand(tmp_path):
    text, changes = edit(tmp_path, "#dtparam=i2c_arm=on\ndtparam=spi=off\n#enable_uart=1\n"
                                   "dtparam=i2c_arm_baudrate=100000\n")
    assert text == ("dtparam=i2c_arm=on\ndtparam=spi=on\nenable_uart=1\n"
                    "dtparam=i2c_arm_baudrate=400000\ndtoverlay=spi1-1cs\n")
    assert "~ dtparam=spi=off -> dtparam=spi=on" in changes


def test_board_sections_are_the_owners_and_ours_go_under_all(tmp_path):
    start = "[pi4]\ndtparam=spi=off\nenable_uart=0\n[cm5]\ndtoverlay=dwc2\n"
    text, _ = edit(tmp_path, start)
    assert text.startswith(start) and text[len(start):].startswith("[all]\ndtparam=i2c_arm=on\n")
    again, changes = edit(tmp_path, text)
    assert again == text and changes == []


def test_the_cmdline_loses_only_the_serial_consoles(tmp_path):
    path = tmp_path / "cmdline.txt"
    path.write_text("console=serial0,115200 console=tty1 root=PARTUUID=1-02 console=ttyS0 quiet\n")
    changes = boot_config.edit_cmdline(path, ["serial0", "ttyS0"])
    assert path.read_text() == "console=tty1 root=PARTUUID=1-02 quiet\n"
    assert changes == ["- console=serial0,115200", "- console=ttyS0"]
    assert boot_config.edit_cmdline(path, ["serial0"]) == []


def test_a_setting_of_the_site_config_over_the_defaults(tmp_path, capsys):
    defaults = tmp_path / "defaults.toml"
    defaults.write_text("[display]\ni2c_speed_hz = 400000\n")
    site = tmp_path / "site.toml"
    assert boot_config.setting(defaults, site, "display.i2c_speed_hz") == "400000"
    site.write_text("[display]\ni2c_speed_hz = 100000\n")
    assert boot_config.setting(defaults, site, "display.i2c_speed_hz") == "100000"
    site.write_text("[display\n")
    assert boot_config.setting(defaults, site, "display.i2c_speed_hz") == "400000"
    assert "cannot be read" in capsys.readouterr().err


def test_the_command_line(tmp_path):
    path = tmp_path / "config.txt"
    path.write_text("")
    run = [sys.executable, str(SCRIPT), "config", str(path), "overlay:spi1-1cs"]
    assert subprocess.run(run, capture_output=True, text=True).stdout == "+ dtoverlay=spi1-1cs\n"
    assert subprocess.run(run, capture_output=True, text=True).stdout == ""
    bad = subprocess.run([sys.executable, str(SCRIPT), "config", str(path), "overlay"],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "bad operation" in bad.stderr
    assert subprocess.run([sys.executable, str(SCRIPT)], capture_output=True).returncode == 2


def test_one_command_line_edits_config_txt_and_cmdline_txt(tmp_path):
    """The installer's way: both files in one start of Python, config.txt's changes first."""
    config, cmdline = tmp_path / "config.txt", tmp_path / "cmdline.txt"
    config.write_text("")
    cmdline.write_text("console=serial0,115200 console=tty1 rootwait\n")
    run = [sys.executable, str(SCRIPT), "config", str(config), "overlay:spi1-1cs",
           "--cmdline", str(cmdline), "--drop-console", "serial0,ttyS0"]
    done = subprocess.run(run, capture_output=True, text=True)
    assert done.stdout == "+ dtoverlay=spi1-1cs\n- console=serial0,115200\n", done.stderr
    assert config.read_text() == "dtoverlay=spi1-1cs\n"
    assert cmdline.read_text() == "console=tty1 rootwait\n"
    assert subprocess.run(run, capture_output=True, text=True).stdout == ""


@pytest.mark.parametrize("a, b", [("on", "yes"), ("1", "true"), ("off", "no")])
def test_on_and_off_have_their_spellings(a, b):
    assert boot_config._same(a, b)


def test_an_overlay_with_parameters_is_added_once_and_the_owners_own_choice_is_kept(tmp_path):
    path = tmp_path / "config.txt"
    path.write_text("dtparam=i2c_arm=on\n")
    run = [sys.executable, str(SCRIPT), "config", str(path), "overlay:i2c-sensor,tmp102"]
    assert subprocess.run(run, capture_output=True, text=True).stdout == \
        "+ dtoverlay=i2c-sensor,tmp102\n"
    assert subprocess.run(run, capture_output=True, text=True).stdout == ""  # once
    path.write_text("dtoverlay=i2c-sensor,lm75,addr=0x48\n")  # the owner fitted an LM75
    subprocess.run(run, capture_output=True, text=True)
    assert path.read_text() == "dtoverlay=i2c-sensor,lm75,addr=0x48\n"
