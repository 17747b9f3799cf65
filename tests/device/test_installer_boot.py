"""scripts/install.sh's boot settings on each board and Raspberry Pi OS:
through raspi-config's non-interactive functions where it has them (tests/standins/raspi-config
does to the scratch root what the real tool does to /boot/firmware), config.txt and cmdline.txt
directly where not; idempotent, saying what changed and whether to reboot."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from pi_root import (BOARDS, STANDIN, STOCK_CMDLINE, Installs, effective, install, make_root,
                     stock_config_txt)

CONFIG = "boot/firmware/config.txt"
CMDLINE = "boot/firmware/cmdline.txt"
NO_CONSOLE = STOCK_CMDLINE.replace("console=serial0,115200 ", "")
# The boot settings do not depend on the release; 32-bit images lack arm_64bit in config.txt.
SYSTEMS = [("bookworm", 32), ("trixie", 64)]


@pytest.fixture(scope="module")
def installs(tmp_path_factory) -> Installs:
    return Installs(tmp_path_factory.mktemp("installs"))


def uart_line(board) -> str:
    """What raspi-config's do_serial_hw 0 writes: UART0 on the Pi 5, enable_uart elsewhere."""
    return "dtparam=uart0=on" if board.is_pi5 else "enable_uart=1"


def standin_log(root: Path) -> list[str]:
    path = root / "var/log/raspi-config-standin.log"
    return path.read_text().splitlines() if path.exists() else []


def put_raspi_config(root: Path, text: str | None = None) -> Path:
    """raspi-config installed in the root, as on every Raspberry Pi OS image."""
    tool = root / "usr/bin/raspi-config"
    tool.parent.mkdir(parents=True, exist_ok=True)
    tool.write_text(text if text is not None else STANDIN.read_text())
    tool.chmod(0o755)
    return tool


def test_spi1_the_uart_and_no_console_when_raspi_config_is_present(tmp_path):
    """The bug: with raspi-config in the image, only I2C and SPI0 were switched on."""
    root = make_root(tmp_path, BOARDS["pi4"])
    put_raspi_config(root)
    result = install(root)
    active = effective((root / CONFIG).read_text(), BOARDS["pi4"])
    assert "spi1-1cs" in active["dtoverlay"]                     # the right pan
    assert active["settings"].get("enable_uart") == "1"          # the link
    assert active["dtparam"].get("i2c_arm_baudrate") == "400000"  # the OLED at 400 kHz
    assert active["dtparam"].get("i2c_arm") == "on" and active["dtparam"].get("spi") == "on"
    assert "console=serial0" not in (root / CMDLINE).read_text()
    assert "reboot needed" in result.stdout


@pytest.mark.parametrize("key, system", list(itertools.product(BOARDS, SYSTEMS)),
                         ids=lambda v: v if isinstance(v, str) else f"{v[0]}-{v[1]}bit")
def test_each_board_through_raspi_configs_nonint_functions(tmp_path, installs, key, system):
    board = BOARDS[key]
    os_name, bits = system
    root, first = installs.copy(tmp_path, standin=True, board=board, os_name=os_name, bits=bits)
    stock = stock_config_txt(bits)
    assert (root / CONFIG).read_text() == (
        stock.replace("#dtparam=i2c_arm=on", "dtparam=i2c_arm=on")
             .replace("#dtparam=spi=on", "dtparam=spi=on")
        # raspi-config appends its UART line; ours follow, the overlay last
        + f"{uart_line(board)}\ndtparam=i2c_arm_baudrate=400000\ndtoverlay=spi1-1cs\n"
        + "dtoverlay=i2c-sensor,tmp102\n")  # the cells' thermometer
    assert (root / CMDLINE).read_text() == NO_CONSOLE
    calls = [c for c in standin_log(root) if c.startswith("nonint do_")]
    assert calls == ["nonint do_i2c 0", "nonint do_spi 0", "nonint do_serial_hw 0",
                     "nonint do_serial_cons 1"]
    assert "/boot/firmware/config.txt: + dtoverlay=spi1-1cs" in first.stdout
    assert f"/boot/firmware/config.txt: + {uart_line(board)}" in first.stdout
    assert "/boot/firmware/cmdline.txt: + " + NO_CONSOLE.strip() in first.stdout
    assert "reboot needed" in first.stdout

    before = {p: p.read_bytes() for p in (root / CONFIG, root / CMDLINE)}
    second = install(root, standin=True)
    assert {p: p.read_bytes() for p in before} == before
    assert [c for c in standin_log(root) if c.startswith("nonint do_")] == calls
    assert "boot settings: unchanged" in second.stdout and "no reboot needed" in second.stdout


@pytest.mark.parametrize("key", BOARDS)
def test_raspi_config_and_the_file_edits_leave_the_same_settings(installs, key):
    board = BOARDS[key]
    os_name, bits = SYSTEMS[-1]  # the root test_each_board_... installs with raspi-config first
    with_tool, _ = installs.get(standin=True, board=board, os_name=os_name, bits=bits)
    # plain Debian on a Pi: no raspi-config
    plain, result = installs.get(board=board, os_name=os_name, bits=bits)
    assert "running" not in " ".join(line for line in result.stdout.splitlines()
                                     if "raspi-config" in line)
    assert effective((with_tool / CONFIG).read_text(), board) == \
        effective((plain / CONFIG).read_text(), board)
    assert (with_tool / CMDLINE).read_text() == (plain / CMDLINE).read_text() == NO_CONSOLE


def test_an_older_raspi_config_without_the_serial_functions(tmp_path):
    """raspi-config before autumn 2023 had no do_serial_hw/do_serial_cons: the files then."""
    text = STANDIN.read_text()
    for name in ("get_serial_hw", "do_serial_hw", "get_serial_cons", "do_serial_cons"):
        start = text.index(f"\n{name}() {{")
        text = text[:start] + text[text.index("\n}\n", start) + 2:]
    old = tmp_path / "old-raspi-config"
    old.write_text(text)
    old.chmod(0o755)
    root = make_root(tmp_path, BOARDS["pi5"])
    install(root, "--raspi-config", str(old))
    assert [c for c in standin_log(root) if c.startswith("nonint do_")] == \
        ["nonint do_i2c 0", "nonint do_spi 0"]
    active = effective((root / CONFIG).read_text(), BOARDS["pi5"])
    assert active["dtparam"]["uart0"] == "on" and "enable_uart" not in active["settings"]
    assert (root / CMDLINE).read_text() == NO_CONSOLE


def test_a_raspi_config_that_fails_is_done_by_hand(tmp_path):
    broken = tmp_path / "broken-raspi-config"
    broken.write_text(STANDIN.read_text().replace('do_spi() {\n', 'do_spi() {\n  return 1\n'))
    broken.chmod(0o755)
    root = make_root(tmp_path, BOARDS["pi3"])
    result = install(root, "--raspi-config", str(broken))
    assert "warning: raspi-config nonint do_spi 0 failed" in result.stdout
    assert effective((root / CONFIG).read_text(), BOARDS["pi3"])["dtparam"]["spi"] == "on"


def test_the_i2c_speed_is_the_display_setting(tmp_path):
    root = make_root(tmp_path, BOARDS["zero2w"])
    site = root / "etc/spielleiter/config.toml"
    site.parent.mkdir(parents=True)
    site.write_text("[display]\ni2c_speed_hz = 100000\n")
    install(root, standin=True)
    assert "dtparam=i2c_arm_baudrate=100000" in (root / CONFIG).read_text().splitlines()
    site.write_text("[display]\ni2c_speed_hz = 400000\n")
    again = install(root, standin=True)
    lines = (root / CONFIG).read_text().splitlines()
    assert "dtparam=i2c_arm_baudrate=400000" in lines
    assert "dtparam=i2c_arm_baudrate=100000" not in lines
    assert "/boot/firmware/config.txt: - dtparam=i2c_arm_baudrate=100000" in again.stdout
    assert "reboot needed" in again.stdout


def test_a_bad_speed_in_the_site_config_falls_back_to_400_khz(tmp_path):
    root = make_root(tmp_path, BOARDS["pi4"])
    site = root / "etc/spielleiter/config.toml"
    site.parent.mkdir(parents=True)
    site.write_text('[display]\ni2c_speed_hz = "fast"\n')
    result = install(root)
    assert "dtparam=i2c_arm_baudrate=400000" in (root / CONFIG).read_text().splitlines()
    assert "display.i2c_speed_hz = fast is not 10000-1000000 Hz" in result.stderr


def test_a_console_on_ttyama0_or_ttys0_is_taken_off_without_raspi_config(tmp_path):
    root = make_root(tmp_path, BOARDS["pi3"],
                     cmdline="console=ttyAMA0,115200 console=ttyS0,9600 console=tty1 rootwait\n")
    install(root)
    assert (root / CMDLINE).read_text() == "console=tty1 rootwait\n"


def test_without_config_txt_it_says_what_to_do_by_hand(tmp_path):
    root = make_root(tmp_path, BOARDS["pi5"])
    (root / CONFIG).unlink()
    result = install(root)
    assert "warning: no /boot/firmware/config.txt or /boot/config.txt" in result.stdout
    assert "dtoverlay=spi1-1cs" in result.stdout and "no reboot needed" in result.stdout


def test_raspi_config_in_a_scratch_root_is_never_run(tmp_path):
    """The real raspi-config edits the running system's /boot: in a scratch root it must not
    run (the files are edited directly, and it says so)."""
    root = make_root(tmp_path, BOARDS["pi4"])
    marker = tmp_path / "ran"
    put_raspi_config(root, f"#!/bin/sh\ntouch {marker}\n")
    result = install(root)
    assert not marker.exists()
    assert "raspi-config is in the scratch root but cannot run on it" in result.stdout
    assert install(root, "--raspi-config", str(tmp_path / "missing"), check=False).returncode != 0
