"""The link's default is the header's UART on every model, and the
self-test fails, with the fix, on a port that opens but is not that UART or that a console
holds. Each board is a folder laid out as the kernel and udev leave /dev, /proc and the device
tree; the port that should pass is a real pty, so the check also opens it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from spielleiter.device.config import core as config
from spielleiter.device.config.board import Board
from spielleiter.device.service.checks import check_link
from spielleiter.device.service.report import FAIL, PASS

MODELS = {"pi5": "Raspberry Pi 5 Model B Rev 1.0", "pi4": "Raspberry Pi 4 Model B Rev 1.4",
          "pi3": "Raspberry Pi 3 Model B Plus Rev 1.3", "zero2w": "Raspberry Pi Zero 2 W Rev 1.0"}



def lay_out(tmp_path: Path, model: str | None, links: dict[str, str], *, devices=(),
            cmdline: str = "console=tty1 root=PARTUUID=1-02 rootwait",
            boot_cmdline: str | None = None) -> Board:
    """``links``: /dev names and where they point (a name in /dev, or a pty's path)."""
    root = tmp_path / "root"
    (root / "dev").mkdir(parents=True)
    if model is not None:
        (root / "proc/device-tree").mkdir(parents=True)
        (root / "proc/device-tree/model").write_bytes(model.encode() + b"\0")
    (root / "proc").mkdir(exist_ok=True)
    (root / "proc/cmdline").write_text(cmdline + "\n")
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/cmdline.txt").write_text((boot_cmdline or cmdline) + "\n")
    for name in devices:
        (root / "dev" / name).write_text("")
    for name, target in links.items():
        (root / "dev" / name).symlink_to(target)
    return Board(root)


def link_row(board: Board, port: str):
    cfg = dataclasses.replace(config.load(None), link_port=port)
    return check_link(cfg, board=board)


def test_the_shipped_link_port_is_the_header():
    assert config.load(None).link_port == "header"


@pytest.mark.parametrize("model, header", [("pi5", "/dev/ttyAMA0"), ("pi4", "/dev/serial0"),
                                           ("pi3", "/dev/serial0"), ("zero2w", "/dev/serial0")])
def test_header_means_the_uart_on_gpio_14_and_15(tmp_path, model, header):
    board = lay_out(tmp_path, MODELS[model], {})
    assert board.device("header") == header
    assert board.device("/dev/ttyUSB0") == "/dev/ttyUSB0"


def test_serial0_on_a_pi5_is_the_debug_connector_and_fails(tmp_path, pty):
    board = lay_out(tmp_path, MODELS["pi5"], {"serial0": "ttyAMA10", "ttyAMA0": pty},
                    devices=["ttyAMA10"])
    row = link_row(board, "/dev/serial0")
    assert row.verdict == FAIL and row.short == "wrong UART"
    assert "/dev/serial0 -> /dev/ttyAMA10 is the debug connector's UART on a Pi 5" in row.detail
    assert 'set link.port = "header"' in row.detail and "dtparam=uart0=on" in row.detail


def test_the_header_on_a_pi5_passes_and_opens(tmp_path, pty):
    board = lay_out(tmp_path, MODELS["pi5"], {"serial0": "ttyAMA10", "ttyAMA0": pty},
                    devices=["ttyAMA10"])
    row = link_row(board, "header")
    assert row.verdict == PASS, row.detail
    assert row.detail == "header (/dev/ttyAMA0): the UART on GPIO 14/15; opens at 115200 baud"


def test_a_pi5_without_uart0_says_how_to_switch_it_on(tmp_path):
    board = lay_out(tmp_path, MODELS["pi5"], {"serial0": "ttyAMA10"}, devices=["ttyAMA10"])
    row = link_row(board, "header")
    assert row.verdict == FAIL
    assert "no /dev/ttyAMA0: the header's UART is off: dtparam=uart0=on" in row.detail


@pytest.mark.parametrize("model", ["pi4", "pi3", "zero2w"])
def test_ttyama0_serves_bluetooth_on_boards_with_it(tmp_path, pty, model):
    board = lay_out(tmp_path, MODELS[model], {"serial0": "ttyS0", "ttyS0": pty},
                    devices=["ttyAMA0"])
    row = link_row(board, "/dev/ttyAMA0")
    assert row.verdict == FAIL
    assert "/dev/ttyAMA0 serves Bluetooth on this board; the header has /dev/ttyS0" in row.detail
    assert 'set link.port = "header"' in row.detail and "dtoverlay=disable-bt" in row.detail
    good = link_row(board, "header")
    assert good.verdict == PASS, good.detail
    assert good.detail.startswith("header (/dev/serial0) -> /dev/ttyS0: the UART on GPIO 14/15")


def test_ttyama0_is_the_header_once_bluetooth_is_moved_off(tmp_path, pty):
    board = lay_out(tmp_path, MODELS["pi4"], {"serial0": "ttyAMA0", "ttyAMA0": pty})
    assert link_row(board, "/dev/ttyAMA0").verdict == PASS
    assert link_row(board, "header").verdict == PASS


def test_no_serial0_means_the_uart_is_off(tmp_path):
    board = lay_out(tmp_path, MODELS["pi3"], {})
    row = link_row(board, "header")
    assert row.verdict == FAIL
    assert "no /dev/serial0: the UART on GPIO 14/15 is off: enable_uart=1" in row.detail


def test_a_console_on_the_header_fails_with_the_fix(tmp_path, pty):
    board = lay_out(tmp_path, MODELS["pi4"], {"serial0": "ttyS0", "ttyS0": pty},
                    cmdline="console=ttyS0,115200 console=tty1 rootwait",
                    boot_cmdline="console=serial0,115200 console=tty1 rootwait")
    row = link_row(board, "header")
    assert row.verdict == FAIL and row.short == "console on it"
    assert "the serial console is on /dev/ttyS0: sudo raspi-config nonint do_serial_cons 1" \
        in row.detail


def test_a_console_already_gone_from_cmdline_txt_asks_for_the_reboot(tmp_path, pty):
    board = lay_out(tmp_path, MODELS["pi5"], {"serial0": "ttyAMA10", "ttyAMA0": pty},
                    devices=["ttyAMA10"], cmdline="console=ttyAMA0,115200 rootwait",
                    boot_cmdline="console=serial0,115200 rootwait")  # serial0: the debug port
    row = link_row(board, "header")
    assert row.verdict == FAIL
    assert "the serial console is still on /dev/ttyAMA0: cmdline.txt no longer has it, reboot" \
        in row.detail


def test_a_console_elsewhere_is_fine(tmp_path, pty):
    board = lay_out(tmp_path, MODELS["pi5"], {"serial0": "ttyAMA10", "ttyAMA0": pty},
                    devices=["ttyAMA10"], cmdline="console=serial0,115200 console=tty1")
    assert link_row(board, "header").verdict == PASS


def test_a_login_prompt_on_the_header_fails(tmp_path, pty):
    board = lay_out(tmp_path, MODELS["zero2w"], {"serial0": "ttyS0", "ttyS0": pty})
    wants = board.root / "etc/systemd/system/getty.target.wants"
    wants.mkdir(parents=True)
    (wants / "serial-getty@ttyS0.service").symlink_to("/lib/systemd/system/serial-getty@.service")
    row = link_row(board, "header")
    assert row.verdict == FAIL
    assert "sudo systemctl disable --now serial-getty@ttyS0.service" in row.detail


def test_a_usb_serial_adapter_is_taken_as_configured(tmp_path, pty):
    board = lay_out(tmp_path, MODELS["pi4"], {"serial0": "ttyS0", "ttyUSB0": pty},
                    devices=["ttyS0"])
    row = link_row(board, "/dev/ttyUSB0")
    assert row.verdict == PASS, row.detail
    assert "a USB serial adapter, not the header's UART (as configured)" in row.detail


def test_off_a_pi_the_port_is_only_opened(tmp_path, pty):
    board = lay_out(tmp_path, None, {"serial0": pty})
    row = link_row(board, "header")
    assert row.verdict == PASS
    assert "not a Raspberry Pi (no device-tree model), not checked against the header" in row.detail
    missing = link_row(lay_out(tmp_path / "b", None, {}), "/dev/ttyS9")
    assert missing.verdict == FAIL and missing.short == "port not open"


def test_the_i2c_speed_is_read_from_the_device_tree(tmp_path):
    board = lay_out(tmp_path, MODELS["pi4"], {})
    assert board.i2c_speed_hz(1) is None
    node = board.root / "sys/class/i2c-adapter/i2c-1/of_node"
    node.mkdir(parents=True)
    (node / "clock-frequency").write_bytes((400_000).to_bytes(4, "big"))
    assert board.i2c_speed_hz(1) == 400_000


def test_the_verdict_speaks_german_on_a_german_box(tmp_path, pty):
    from spielleiter.device import i18n
    from spielleiter.device.service.report import Row

    board = lay_out(tmp_path, MODELS["pi5"], {"serial0": "ttyAMA10", "ttyAMA0": pty},
                    devices=["ttyAMA10"])
    i18n.use("de")
    try:
        row = link_row(board, "/dev/serial0")
        good = link_row(board, "header")
        oled = Row("link", FAIL, row.detail, row.short).screen_line()
    finally:
        i18n.use("en")
    assert "ist auf einem Pi 5 der UART des Debug-Anschlusses" in row.detail
    assert 'link.port = "header" in /etc/spielleiter/config.toml setzen' in row.detail
    assert oled == "Kabel: falscher UART"  # the OLED's line, whole
    assert good.detail == "header (/dev/ttyAMA0): der UART an GPIO 14/15; öffnet mit 115200 Baud"
