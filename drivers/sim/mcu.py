"""A simulated microcontroller that streams a chip's codes in the serial reader's format."""

from __future__ import annotations

from typing import Callable

from .chip import SimHX711


class SimMicrocontroller:
    """A microcontroller that bit-bangs the chip (no preemption) and writes one line per
    conversion, ``D <seq> <hex6>``, in the format the serial reader documents."""

    def __init__(self, chip: SimHX711, write: Callable[[bytes], object], *,
                 pulses: int = 25) -> None:
        self.chip = chip
        self.write = write
        self.pulses = pulses
        self.seq = 0

    def run_until(self, t: float) -> None:
        clock = self.chip.clock
        while clock.now() < t:
            if self.chip.dout() == 0:
                code = 0
                for _ in range(24):
                    self.chip.set_sck(True)
                    clock.advance(1e-6)
                    code = (code << 1) | self.chip.dout()
                    self.chip.set_sck(False)
                    clock.advance(1e-6)
                for _ in range(self.pulses - 24):
                    self.chip.set_sck(True)
                    clock.advance(1e-6)
                    self.chip.set_sck(False)
                    clock.advance(1e-6)
                self.write(f"D {self.seq} {code:06X}\n".encode())
                self.seq = (self.seq + 1) % 65536
            else:
                clock.advance(min(0.0005, max(0.0, t - clock.now())) or 1e-6)


__all__ = ["SimMicrocontroller"]
