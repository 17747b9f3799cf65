"""A serial port setting may name its UART by what sysfs says of the device (its name, driver, or
USB/PCI id) instead of its number, which moves with plug order, kernel and overlays. Each system
is a folder laid out as sysfs links its ttys to their devices."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from spielleiter.device.cli import config_check
from spielleiter.device.config import core as config
from spielleiter.device.config.board import Board
from spielleiter.device.service.checks import check_link
from spielleiter.device.service.report import FAIL, PASS
from spielleiter.drivers.loadcell.serial import SerialReader
from spielleiter.drivers.uart import UartNotFound, find_uart, is_label, resolve_port, uarts

PI4 = "Raspberry Pi 4 Model B Rev 1.4"


def layer(folder: Path, root: Path, subsystem: str) -> None:
    """A device between a tty and its hardware, on its bus (sysfs's ``subsystem`` link)."""
    bus = root / "sys/bus" / subsystem
    bus.mkdir(parents=True, exist_ok=True)
    (folder / "subsystem").symlink_to(os.path.relpath(bus, folder))


def system(tmp_path: Path, ttys: dict[str, tuple[str, str, dict[str, str]]],
           model: str | None = None) -> Path:
    """``ttys``: name -> (the device's folder under /sys/devices, its driver, files in the
    device's folder or, as ``../idVendor``, its parent's); sysfs's relative links. Below a
    UART serial_core puts its controller and port, as Linux 6.5 and later do
    (``fe201000.serial:0/fe201000.serial:0.0``); a USB serial adapter's port is named in the
    folder already (``.../1-1.4:1.0/ttyUSB0``)."""
    root = tmp_path / "root"
    cls = root / "sys/class/tty"
    cls.mkdir(parents=True)
    (root / "dev").mkdir()
    for name, (device, driver, files) in ttys.items():
        folder = root / "sys/devices" / device
        port = folder
        if name.startswith(("ttyS", "ttyAMA")):
            port = folder / f"{folder.name}:0" / f"{folder.name}:0.0"
            port.mkdir(parents=True)
            layer(port.parent, root, "serial-base")
            layer(port, root, "serial-base")
        (port / "tty" / name).mkdir(parents=True, exist_ok=True)
        tty = port / "tty" / name
        (cls / name).symlink_to(os.path.relpath(tty, cls))
        (tty / "device").symlink_to(os.path.relpath(port, tty))
        if name.startswith("ttyUSB"):
            layer(folder, root, "usb-serial")
        if driver:
            drivers = root / "sys/bus/any/drivers" / driver
            drivers.mkdir(parents=True, exist_ok=True)
            if not (folder / "driver").exists():
                (folder / "driver").symlink_to(os.path.relpath(drivers, folder))
        for file, text in files.items():
            (folder / file).write_text(text + "\n")
    # a virtual console and the 8250 driver's empty slot: no UART behind either
    (root / "sys/devices/virtual/tty/tty1").mkdir(parents=True)
    (cls / "tty1").symlink_to("../../devices/virtual/tty/tty1")
    empty = root / "sys/devices/platform/serial8250/serial8250:0/serial8250:0.3/tty/ttyS3"
    empty.mkdir(parents=True)
    (empty / "device").symlink_to("../..")
    (empty / "type").write_text("0\n")
    (cls / "ttyS3").symlink_to(os.path.relpath(empty, cls))
    if model is not None:
        (root / "proc/device-tree").mkdir(parents=True)
        (root / "proc/device-tree/model").write_bytes(model.encode() + b"\0")
        (root / "proc/cmdline").write_text("console=tty1 root=PARTUUID=1-02\n")
    return root


PI4_UARTS = {
    "ttyAMA0": ("platform/soc/fe201000.serial", "uart-pl011", {}),
    "ttyS0": ("platform/soc/fe215040.serial", "bcm2835-aux-uart", {}),
}
PICOS = {  # two of the same microcontroller on USB: one id, two sockets
    "ttyACM0": ("platform/usb/1-1/1-1.2/1-1.2:1.0", "cdc_acm",
                {"../idVendor": "2e8a", "../idProduct": "000a"}),
    "ttyACM1": ("platform/usb/1-1/1-1.3/1-1.3:1.0", "cdc_acm",
                {"../idVendor": "2e8a", "../idProduct": "000a"}),
}
FTDI = {  # a USB serial adapter: the tty's device is its own port, under the USB interface
    "ttyUSB0": ("platform/usb/1-1/1-1.4/1-1.4:1.0/ttyUSB0", "ftdi_sio", {}),
}
PCI_CARD = {"ttyS1": ("pci0000:00/0000:00:02.0", "serial",
                      {"vendor": "0x1b36", "device": "0x0002"})}


def test_a_uart_is_found_by_its_device_name_its_driver_or_its_id(tmp_path):
    root = system(tmp_path, {**PI4_UARTS, **PCI_CARD})
    assert find_uart("fe215040.serial", root).path == "/dev/ttyS0"  # a Pi 4's mini UART
    assert find_uart("uart-pl011", root).path == "/dev/ttyAMA0"
    card = find_uart("1B36:0002", root)  # ids as lsusb and lspci print them, any case
    assert card.path == "/dev/ttyS1"
    assert card.describe() == "/dev/ttyS1 (0000:00:02.0, serial, 1b36:0002)"
    assert [u.path for u in uarts(root)] == ["/dev/ttyAMA0", "/dev/ttyS0", "/dev/ttyS1"]


def test_usb_uarts_are_told_apart_by_their_socket_not_their_plug_order(tmp_path):
    root = system(tmp_path, PICOS)
    assert find_uart("1-1.3:1.0", root).path == "/dev/ttyACM1"
    with pytest.raises(UartNotFound) as shared:
        find_uart("2e8a:000a", root)
    assert "2 UARTs labelled 2e8a:000a" in str(shared.value)
    assert "1-1.2:1.0" in str(shared.value) and "name one by its device name" in str(shared.value)


def test_a_usb_serial_adapter_is_named_by_its_interface_driver_and_id(tmp_path):
    root = system(tmp_path, FTDI)
    interface = root / "sys/devices/platform/usb/1-1/1-1.4/1-1.4:1.0"
    (interface / "driver").symlink_to(os.path.relpath(root / "sys/bus/any/drivers/ftdi_sio",
                                                      interface))
    (interface.parent / "idVendor").write_text("0403\n")
    (interface.parent / "idProduct").write_text("6001\n")
    assert find_uart("0403:6001", root).describe() == "/dev/ttyUSB0 (1-1.4:1.0, ftdi_sio, 0403:6001)"


def test_an_unknown_label_says_which_uarts_there_are(tmp_path):
    root = system(tmp_path, PI4_UARTS)
    with pytest.raises(UartNotFound) as missing:
        find_uart("cdc_acm", root)
    assert str(missing.value) == ("no UART labelled cdc_acm; UARTs here: /dev/ttyAMA0 "
                                  "(fe201000.serial, uart-pl011); /dev/ttyS0 (fe215040.serial, "
                                  "bcm2835-aux-uart)")
    assert isinstance(missing.value, FileNotFoundError)  # the readers' "cannot open, try again"
    with pytest.raises(UartNotFound, match="UARTs here: none"):
        find_uart("cdc_acm", tmp_path / "nothing")


def test_paths_and_urls_are_opened_as_they_are(tmp_path):
    assert not is_label("/dev/ttyACM0") and not is_label("loop://") and not is_label("")
    assert is_label("fe201000.serial") and is_label("2e8a:000a")
    root = system(tmp_path, PICOS)
    assert resolve_port("/dev/serial/by-id/usb-Raspberry_Pi_Pico-if00", root) == \
        "/dev/serial/by-id/usb-Raspberry_Pi_Pico-if00"
    assert resolve_port("1-1.2:1.0", root) == "/dev/ttyACM0"


def test_the_serial_reader_opens_the_uart_its_label_names_at_each_open(tmp_path, monkeypatch):
    root = system(tmp_path, PICOS)  # this machine's sysfs, as the reader reads it
    monkeypatch.setattr("spielleiter.drivers.loadcell.serial.resolve_port",
                        lambda port: resolve_port(port, root))
    reader = SerialReader("left", lambda event: None, port="1-1.3:1.0")
    with pytest.raises(OSError, match="ttyACM1"):  # this machine has no such device
        reader._open()
    assert reader.device == "/dev/ttyACM1"



def test_the_link_named_by_label_is_judged_as_the_uart_it_names(tmp_path, pty):
    root = system(tmp_path, PI4_UARTS, model=PI4)
    (root / "dev/serial0").symlink_to("ttyS0")  # Bluetooth keeps the PL011 (the default)
    (root / "dev/ttyS0").symlink_to(pty)
    (root / "dev/ttyAMA0").write_text("")
    cfg = config.load(None)
    good = check_link(dataclasses.replace(cfg, link_port="fe215040.serial"), board=Board(root))
    assert good.verdict == PASS, good.detail
    assert good.detail.startswith("fe215040.serial (/dev/ttyS0): the UART on GPIO 14/15")
    wrong = check_link(dataclasses.replace(cfg, link_port="uart-pl011"), board=Board(root))
    assert wrong.verdict == FAIL and "serves Bluetooth" in wrong.detail
    gone = check_link(dataclasses.replace(cfg, link_port="cdc_acm"), board=Board(root))
    assert gone.verdict == FAIL and gone.short == "no UART"
    assert gone.detail.startswith("no UART labelled cdc_acm; UARTs here: /dev/ttyAMA0")
    assert check_link(cfg, board=Board(root)).verdict == PASS  # "header" as before


def test_config_check_says_which_uart_each_port_names(tmp_path):
    root = system(tmp_path, PCI_CARD)
    site = tmp_path / "site.toml"
    site.write_text('[link]\nport = "/dev/ttyUSB0"\n'
                    '[loadcells.left]\nreader = "serial"\nport = "1b36:0002"\n'
                    '[loadcells.right]\nreader = "serial"\nport = "cdc_acm"\n')
    lines = config_check.uart_lines(config.load(site), root)
    assert lines == [
        "UART for loadcells.left.port (1b36:0002): /dev/ttyS1 (0000:00:02.0, serial, 1b36:0002)",
        "UART for loadcells.right.port (cdc_acm): not found here: no UART labelled cdc_acm; "
        "UARTs here: /dev/ttyS1 (0000:00:02.0, serial, 1b36:0002)",
        "UART for link.port (/dev/ttyUSB0): /dev/ttyUSB0"]


@pytest.mark.parametrize("port", ["", "two words", 5])
def test_a_serial_pan_port_that_names_nothing_is_refused(tmp_path, port):
    site = tmp_path / "site.toml"
    value = f'"{port}"' if isinstance(port, str) else port
    site.write_text(f'[loadcells.left]\nreader = "serial"\nport = {value}\n')
    with pytest.raises(config.ConfigError) as bad:
        config.load(site)
    assert any(p.startswith("loadcells.left.port:") and "a label such as" in p
               for p in bad.value.problems)
