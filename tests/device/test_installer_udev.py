"""Where Raspberry Pi OS differs from plain Debian: the device nodes' groups. Raspberry Pi OS's
99-com.rules gives /dev/gpiochip*, /dev/i2c-* and /dev/spidev* to gpio, i2c and spi; on plain
Debian they stay root's and the service's user could not open them, so the installer writes the
same rules there, and says so."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from pi_root import BOARDS, install, make_root, skipped

RULES = "etc/udev/rules.d/60-spielleiter.rules"


def test_plain_debian_gets_the_device_group_rules_and_is_told(tmp_path):
    root = make_root(tmp_path, BOARDS["pi4"], os_name="trixie")
    result = install(root, "--no-start")
    rules = (root / RULES).read_text()
    for line in ('SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"',
                 'SUBSYSTEM=="i2c-dev", GROUP="i2c", MODE="0660"',
                 'SUBSYSTEM=="spidev", GROUP="spi", MODE="0660"'):
        assert line in rules.splitlines()
    assert "no Raspberry Pi OS rules here (plain Debian?)" in result.stdout
    commands = skipped(result)
    assert "udevadm control --reload" in commands
    assert any(c.startswith("udevadm trigger --subsystem-match=gpio") for c in commands)


@pytest.mark.parametrize("where", ["usr/lib/udev/rules.d", "lib/udev/rules.d", "etc/udev/rules.d"])
def test_raspberry_pi_os_keeps_its_own_rules(tmp_path, where):
    root = make_root(tmp_path, BOARDS["pi5"])
    (root / where).mkdir(parents=True, exist_ok=True)
    (root / where / "99-com.rules").write_text('SUBSYSTEM=="gpio", GROUP="gpio", MODE="0660"\n')
    result = install(root, "--no-start")
    assert not (root / RULES).exists()
    assert f"Raspberry Pi OS's /{where}/99-com.rules gives gpiochip" in result.stdout
    assert not any(c.startswith("udevadm") for c in skipped(result))


def test_a_second_run_leaves_the_rules_alone(tmp_path):
    root = make_root(tmp_path, BOARDS["pi4"], os_name="trixie")
    install(root, "--no-start")
    again = install(root, "--no-start")
    assert f"unchanged: /{RULES}" in again.stdout
    assert not any(c.startswith("udevadm") for c in skipped(again))


def test_uninstall_removes_the_rules(tmp_path):
    root = make_root(tmp_path, BOARDS["pi4"], os_name="trixie")
    install(root, "--no-start")
    result = install(root, "--uninstall")
    assert not (root / RULES).exists() and f"removed: /{RULES}" in result.stdout


@pytest.mark.skipif(shutil.which("udevadm") is None, reason="no udevadm here")
def test_the_rules_parse_for_udev(tmp_path):
    root = make_root(tmp_path, BOARDS["pi4"], os_name="trixie")
    install(root, "--no-start")
    done = subprocess.run(["udevadm", "verify", str(root / RULES)], capture_output=True, text=True)
    if "Unknown command" in done.stderr or "unknown" in done.stderr.lower() and done.returncode:
        pytest.skip("this udevadm has no verify")
    assert done.returncode == 0, done.stderr
