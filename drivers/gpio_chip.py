"""The GPIO chip of the 40-pin header, found by its label, never by its number.

The kernel numbers its GPIO chips in the order their drivers probe: on a Pi 5 the header's chip
(the RP1's, labelled ``pinctrl-rp1``) was ``gpiochip4`` on older kernels and ``gpiochip0`` on
newer ones, and any other GPIO controller (an expander, a virtual machine's own) may come first.
Its label does not move: ``pinctrl-rp1`` (Pi 5), ``pinctrl-bcm2711`` (Pi 4, Pi 400, CM4),
``pinctrl-bcm2835`` (Pi 1, 2, 3, Zero, Zero 2 W).

A chip's label is read with the GPIO character device's own ``GPIO_GET_CHIPINFO_IOCTL`` (what
``gpiodetect`` prints), so no debugfs or legacy sysfs is needed; tests pass ``label_of``.
"""

from __future__ import annotations

import fcntl
import os
import re
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import DriverError
from .exc import Worded

HEADER_LABELS = ("pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835")
AUTO = "auto"
# struct gpiochip_info { char name[32]; char label[32]; __u32 lines; }: _IOR(0xB4, 0x01, 68)
_CHIPINFO = struct.Struct("32s32sI")
GPIO_GET_CHIPINFO_IOCTL = (2 << 30) | (_CHIPINFO.size << 16) | (0xB4 << 8) | 0x01
_CHIP_NAME = re.compile(r"gpiochip(\d+)\Z")


class ChipNotFound(Worded, DriverError, FileNotFoundError):
    """No GPIO chip answers to the configured label or path (a template, see ``Worded``)."""


@dataclass(frozen=True)
class Chip:
    """One GPIO chip: its device, number (``/dev/gpiochipN``), label and line count."""

    path: str
    number: int
    label: str
    lines: int

    def describe(self) -> str:
        return f"{self.path} ({self.label}, {self.lines} lines)"


def read_label(path: str) -> tuple[str, int]:
    """The label and line count of a GPIO character device (the kernel's chip info)."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        data = fcntl.ioctl(fd, GPIO_GET_CHIPINFO_IOCTL, bytes(_CHIPINFO.size))
    finally:
        os.close(fd)
    _name, label, lines = _CHIPINFO.unpack(data)
    return label.split(b"\0", 1)[0].decode(errors="replace"), lines


LabelReader = Callable[[str], "tuple[str, int]"]


def chips(dev: Path = Path("/dev"), label_of: LabelReader = read_label) -> list[Chip]:
    """Every GPIO chip under ``dev`` in number order; a chip that cannot be read is left out."""
    found = []
    try:
        names = os.listdir(dev)
    except OSError:
        return []
    for name in names:
        match = _CHIP_NAME.match(name)
        if not match:
            continue
        path = str(dev / name)
        try:
            label, lines = label_of(path)
        except OSError:
            continue
        found.append(Chip(path, int(match.group(1)), label, lines))
    return sorted(found, key=lambda chip: chip.number)


def find_chip(setting: str = AUTO, dev: Path = Path("/dev"),
              label_of: LabelReader = read_label) -> Chip:
    """The chip ``setting`` names: ``auto`` (the header's, by the labels above), a label, or a
    path (``/dev/gpiochip4``). Raises ChipNotFound saying which chips there are."""
    if setting.startswith("/"):
        match = _CHIP_NAME.match(Path(setting).name)
        try:
            label, lines = label_of(setting)
        except OSError as exc:
            raise ChipNotFound("GPIO chip {path}: {reason}", path=setting,
                               reason=exc.strerror or str(exc)) from None
        return Chip(setting, int(match.group(1)) if match else -1, label, lines)
    present = chips(dev, label_of)
    wanted = HEADER_LABELS if setting == AUTO else (setting,)
    for label in wanted:  # in the order of the list: a Pi's own chip before any other
        for chip in present:
            if chip.label == label:
                return chip
    there = ", ".join(f"{Path(c.path).name} ({c.label})" for c in present)
    if setting == AUTO:
        labels = ", ".join(HEADER_LABELS)
        if there:
            raise ChipNotFound("no GPIO chip with a header label ({labels}); chips here: "
                               "{chips}", labels=labels, chips=there)
        raise ChipNotFound("no GPIO chip with a header label ({labels}); chips here: none",
                           labels=labels)
    if there:
        raise ChipNotFound("no GPIO chip with the label {label}; chips here: {chips}",
                           label=setting, chips=there)
    raise ChipNotFound("no GPIO chip with the label {label}; chips here: none", label=setting)


__all__ = ["AUTO", "Chip", "ChipNotFound", "HEADER_LABELS", "chips", "find_chip", "read_label"]
