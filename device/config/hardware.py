"""``[hardware]`` of the config: whether this box drives real parts or simulated ones, and where
the header's GPIO chip is. A demo box, a virtual machine or a shop window runs the service as
shipped with ``simulated = true``; a Pi finds its header's chip by label (``drivers.gpio_chip``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...drivers.gpio_chip import AUTO
from ..text import shown


@dataclass(frozen=True)
class Hardware:
    """``simulated``: gpiozero's mock pins, luma's dummy screen, simulated pans, no link.
    ``gpio_chip``: ``auto`` (the header's chip by its label), a chip label, or a device path."""

    simulated: bool = False
    gpio_chip: str = AUTO


def check_hardware(c: Any, section: Any) -> Hardware:
    """Check ``[hardware]`` with the config's checker ``c`` (its ``get`` and ``problems``)."""
    if not isinstance(section, dict):
        return Hardware()  # reported by validate: a section that is not a table
    simulated = c.get("hardware", "simulated", bool, False)
    chip = c.get("hardware", "gpio_chip", str, AUTO)
    if not chip.strip() or any(ch.isspace() for ch in chip) or (
            chip.startswith("/") and not chip.startswith("/dev/")):
        c.problems.append(f"hardware.gpio_chip: {shown(chip)} (\"auto\", a chip label such as "
                          "\"pinctrl-bcm2711\", or a path such as \"/dev/gpiochip0\")")
        chip = AUTO
    return Hardware(simulated, chip)


__all__ = ["Hardware", "check_hardware"]
