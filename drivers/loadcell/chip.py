"""The HX711's facts, in one place: its 24-bit code, the four rail codes, the pulses that pick
gain and channel, and the counts per gram of the load cells the box is built with.

Readers (``loadcell``), signal processing (``weighing``) and the simulated chip (``sim``) all
take these from here.
"""

from __future__ import annotations

FULL_SCALE = 1 << 23  # the code is 24-bit two's complement: -2^23 .. 2^23 - 1
RAIL_ZERO, RAIL_ONES = 0x000000, 0xFFFFFF  # a floating or stuck DOUT
RAIL_HIGH, RAIL_LOW = 0x7FFFFF, 0x800000  # the input is out of range (saturation)
RAILS = frozenset({RAIL_ZERO, RAIL_ONES, RAIL_HIGH, RAIL_LOW})
RATES = (10, 80)  # samples per second, as the RATE pin is wired (GND = 10, VCC = 80)
POWER_DOWN_S = 60e-6  # PD_SCK high this long powers the chip down; its falling edge resets it
PULSES_FOR = {(128, "A"): 25, (32, "B"): 26, (64, "A"): 27}  # gain/channel of the next read
SETTING_FOR = {pulses: setting for setting, pulses in PULSES_FOR.items()}
# A 1 kg bar cell at 1 mV/V, 3.3 V excitation, gain 128: 3.3 uV/g over 12.9 mV/2^23.
COUNTS_PER_GRAM = 2147.5
CAPACITY_G = 1000.0  # the rated capacity of those cells (hardware/README.md: 1 kg bar cells)


def from_code(code: int) -> int:
    """24-bit two's complement code to signed counts."""
    return code - (1 << 24) if code & 0x800000 else code


def to_code(counts: int) -> int:
    """Signed counts to the 24-bit two's complement code, clamped to the chip's rails."""
    counts = max(-FULL_SCALE, min(FULL_SCALE - 1, counts))
    return counts & 0xFFFFFF


__all__ = ["CAPACITY_G", "COUNTS_PER_GRAM", "FULL_SCALE", "POWER_DOWN_S", "PULSES_FOR", "RAILS", "RAIL_HIGH",
           "RAIL_LOW", "RAIL_ONES", "RAIL_ZERO", "RATES", "SETTING_FOR", "from_code", "to_code"]
