"""The Raspberry Pi under the box, as the kernel and firmware describe it: the model, which UART
is on the header's GPIO 14/15, what a console or a login prompt holds, the I2C bus's speed.

Everything is read from files under ``root`` (``/`` on the box), so a test can lay out a Pi 5 or
a Pi 3 in a folder. Which device is the header's UART differs by model (the Raspberry Pi
documentation, "Configuring UARTs"):

- Pi Zero, 1, 2, 3, 4, Zero 2 W: the primary UART, which udev links as ``/dev/serial0``. On
  boards with Bluetooth it is the mini UART (``ttyS0``) while the full PL011 (``ttyAMA0``) serves
  Bluetooth, unless ``dtoverlay=disable-bt`` swaps them.
- Pi 5, Pi 500, CM5: UART0 of the RP1, ``/dev/ttyAMA0``, once ``dtparam=uart0=on``; there
  ``/dev/serial0`` is the debug connector's UART (``ttyAMA10``).

``link.port = "header"`` (the shipped default) means that UART on every model.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

HEADER = "header"  # link.port: the UART on GPIO 14/15, whichever device that is on this board
PI5_HEADER_UART = "/dev/ttyAMA0"
PRIMARY_UART = "/dev/serial0"
PI5_DEBUG_UART = "/dev/ttyAMA10"
USB_SERIAL = re.compile(r"/dev/tty(USB|ACM)\d+\Z")
PI5_MODELS = ("Raspberry Pi 5", "Compute Module 5")  # the first matches the Pi 500 too


@dataclass(frozen=True)
class Board:
    """The files of one system (``root``) that say what board it is and how it is set up."""

    root: Path = Path("/")

    def path(self, system_path: str) -> Path:
        """Where a path of the system (``/dev/serial0``) is under ``root``."""
        return self.root / system_path.lstrip("/")

    def _read(self, system_path: str) -> str | None:
        try:
            return self.path(system_path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None

    def model(self) -> str | None:
        """``Raspberry Pi 5 Model B Rev 1.0``, or None off a Raspberry Pi (no device tree)."""
        for where in ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model"):
            text = self._read(where)
            if text is not None:
                return text.replace("\0", "").strip() or None
        return None

    def is_pi(self) -> bool:
        return "Raspberry Pi" in (self.model() or "")

    def is_pi5(self) -> bool:
        return any(name in (self.model() or "") for name in PI5_MODELS)

    def header_uart(self) -> str:
        """The device of the UART on GPIO 14/15 (see the module's doc)."""
        return PI5_HEADER_UART if self.is_pi5() else PRIMARY_UART

    def device(self, port: str) -> str:
        """``link.port`` as the device (or pyserial URL) to open: ``header`` resolved."""
        return self.header_uart() if port == HEADER else port

    def resolve(self, device: str) -> str:
        """Where a device path's symlinks lead (``/dev/serial0`` -> ``/dev/ttyS0``), as a
        system path; a URL or a path outside /dev is returned as given."""
        if not device.startswith("/dev/"):
            return device
        current = device
        for _ in range(16):  # udev's links are one or two deep; a loop ends here
            link = self.path(current)
            if not link.is_symlink():
                break
            target = os.readlink(link)
            following = (target if target.startswith("/")
                         else os.path.normpath(os.path.join(os.path.dirname(current), target)))
            if not os.path.lexists(self.path(following)):
                break  # it leads out of this root (a test's pty): the name here is the device
            current = following
        return current

    def exists(self, device: str) -> bool:
        return self.path(device).exists()

    def consoles(self) -> list[str]:
        """The serial consoles of the running kernel (``console=ttyS0,115200`` in
        /proc/cmdline), as resolved device paths; ``tty0``-``tty63`` (screens) are left out."""
        found = []
        for name in re.findall(r"(?:^|\s)console=([^,\s]+)", self._read("/proc/cmdline") or ""):
            if not re.fullmatch(r"tty\d*", name):
                found.append(self.resolve(f"/dev/{name}"))
        return found

    def boot_cmdline(self) -> str | None:
        """cmdline.txt as it will be at the next boot (None if there is none)."""
        for where in ("/boot/firmware/cmdline.txt", "/boot/cmdline.txt"):
            text = self._read(where)
            if text is not None:
                return text
        return None

    def login_prompt_on(self, device: str) -> bool:
        """A serial-getty enabled by hand for ``device`` (ttyS0, ttyAMA0, ...)."""
        name = Path(device).name
        unit = f"serial-getty@{name}.service"
        return any(self.path(f"{folder}/getty.target.wants/{unit}").exists()
                   for folder in ("/etc/systemd/system", "/lib/systemd/system"))

    def i2c_adapter(self, port: int) -> str | None:
        """The kernel's name of I2C bus ``port`` (``bcm2835 (i2c@7e804000)``), None if absent."""
        text = self._read(f"/sys/class/i2c-adapter/i2c-{port}/name")
        return text.strip() or None if text is not None else None

    def i2c_speed_hz(self, port: int) -> int | None:
        """The I2C bus's clock as the device tree gives it to the kernel (``dtparam=
        i2c_arm_baudrate`` for bus 1), or None when it cannot be read."""
        for where in (f"/sys/class/i2c-adapter/i2c-{port}/of_node/clock-frequency",
                      f"/sys/class/i2c-adapter/i2c-{port}/device/of_node/clock-frequency"):
            try:
                data = self.path(where).read_bytes()
            except OSError:
                continue
            if len(data) == 4:
                return int.from_bytes(data, "big")
        return None


__all__ = ["Board", "HEADER", "PI5_DEBUG_UART", "PI5_HEADER_UART", "PRIMARY_UART", "USB_SERIAL"]
