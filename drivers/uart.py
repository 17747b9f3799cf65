"""A UART found by what the kernel says of its device, not by its number.

Serial devices are numbered in the order their drivers find them: a microcontroller on USB is
``ttyACM0`` or ``ttyACM1`` depending on which was plugged in first, a PCI serial card's port is
``ttyS0`` on one kernel and ``ttyS4`` on another, and a Pi's UARTs move between ``ttyAMA0`` and
``ttyS0`` with ``dtoverlay=disable-bt``. What does not move is the device behind the tty, as
sysfs shows it under ``/sys/class/tty/<tty>/device``. A port setting without a ``/`` is a label
naming it by one of:

- the device's name: on a Raspberry Pi the UART's address in the device tree (``fe201000.serial``
  is a Pi 4's PL011, ``fe215040.serial`` its mini UART, ``1f00030000.serial`` a Pi 5's UART0 on
  GPIO 14/15); a PCI card's address (``0000:01:00.0``); a USB interface's port path
  (``1-1.3:1.0``: the same socket, whatever was plugged in before);
- its driver (``uart-pl011``, ``bcm2835-aux-uart``, ``cdc_acm``, ``ch341``, ``serial`` for a PCI
  card), when only one UART has it;
- its USB or PCI vendor and product id (``2e8a:000a`` a Raspberry Pi Pico, ``1a86:7523`` a CH340
  adapter), when only one device has it.

``ls -l /sys/class/tty/*/device`` shows the names; ``spielleiter config check`` lists the UARTs
with their labels when one is not found. A label that matches more than one UART is refused with
the names that tell them apart. Paths (``/dev/ttyACM0``, ``/dev/serial/by-id/...``) and pyserial
URLs (``loop://``) are used as they are.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from . import DriverError


# Devices the kernel puts between a tty and its hardware: serial_core's controller and port
# (Linux 6.5 and later: ``fe201000.serial:0/fe201000.serial:0.0``) and a USB serial adapter's port
# (``ttyUSB0`` under its USB interface). A label names the hardware above them.
SERIAL_LAYERS = ("serial-base", "usb-serial")


class UartNotFound(DriverError, FileNotFoundError):
    """No UART, or more than one, answers to a label."""


@dataclass(frozen=True)
class Uart:
    """One serial device: its path and what sysfs says of it ("" where it says nothing)."""

    path: str  # /dev/ttyS0
    device: str  # fe201000.serial, 0000:00:02.0, 1-1.3:1.0
    driver: str = ""  # uart-pl011, serial, cdc_acm
    ident: str = ""  # vendor:product of a PCI or USB device

    def labels(self) -> tuple[str, ...]:
        return tuple(label for label in (self.device, self.driver, self.ident) if label)

    def describe(self) -> str:
        return f"{self.path} ({', '.join(self.labels())})"


def is_label(port: str) -> bool:
    """A port setting that names a UART by label: anything without a ``/`` (a path and a
    pyserial URL have one)."""
    return bool(port) and "/" not in port


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""


def _subsystem(device: Path) -> str:
    link = device / "subsystem"
    return link.resolve().name if link.exists() else ""


def _ident(device: Path) -> str:
    """``vendor:product`` of a PCI device, or of the USB device a USB interface belongs to."""
    for where, vendor, product in ((device, "vendor", "device"),
                                   (device.parent, "idVendor", "idProduct")):
        v, p = _read(where / vendor), _read(where / product)
        if v and p:
            return f"{v.removeprefix('0x')}:{p.removeprefix('0x')}".lower()
    return ""


def uarts(root: Path = Path("/")) -> list[Uart]:
    """Every serial device of the system under ``root``, by name. Ttys without a device (virtual
    consoles, ptys) are left out, and so are the 8250 driver's empty slots (``type`` 0)."""
    base = root / "sys" / "class" / "tty"
    try:
        names = sorted(os.listdir(base))
    except OSError:
        return []
    found = []
    for name in names:
        link = base / name / "device"
        if not link.exists() or _read(base / name / "type") == "0":
            continue
        device = link.resolve()
        while _subsystem(device) in SERIAL_LAYERS:
            device = device.parent
        driver = device / "driver"
        found.append(Uart(f"/dev/{name}", device.name,
                          driver.resolve().name if driver.exists() else "", _ident(device)))
    return found


def find_uart(label: str, root: Path = Path("/")) -> Uart:
    """The one UART ``label`` names (see the module's doc); UartNotFound says which there are."""
    present = uarts(root)
    wanted = label.lower()
    hits = [u for u in present if wanted in (lab.lower() for lab in u.labels())]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        there = "; ".join(u.describe() for u in present) or "none"
        raise UartNotFound(f"no UART labelled {label}; UARTs here: {there}")
    raise UartNotFound(f"{len(hits)} UARTs labelled {label} ({'; '.join(u.describe() for u in hits)})"
                       ": name one by its device name or its path")


def resolve_port(port: str, root: Path = Path("/")) -> str:
    """A port setting as the device (or URL) to open: a label found, a path or URL as given."""
    return find_uart(port, root).path if is_label(port) else port


__all__ = ["Uart", "UartNotFound", "find_uart", "is_label", "resolve_port", "uarts"]
