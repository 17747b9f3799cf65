"""A fake ``spidev.SpiDev`` wired to a simulated chip: PD_SCK on MOSI, DOUT on MISO."""

from __future__ import annotations

from .chip import SimHX711


class FakeSpiDev:
    """``spidev.SpiDev`` with PD_SCK on MOSI and DOUT on MISO of a simulated chip.

    Bits go out MSB first; each MOSI bit drives PD_SCK for one bit time (1/max_speed_hz); MISO
    is sampled in the middle of the bit, as in SPI mode 0. ``xfer`` and ``xfer2`` both send
    bytes back to back (``xfer`` leaves ``inter_byte_gap_s`` between bytes, MOSI holding its
    last bit); ``readbytes`` sends zeros, which samples DOUT without clocking the chip. Each
    transfer costs ``syscall_s`` before the first bit (the ioctl).
    """

    def __init__(self, chip: SimHX711, *, syscall_s: float = 30e-6,
                 inter_byte_gap_s: float = 2e-6) -> None:
        self.chip = chip
        self.clock = chip.clock
        self.max_speed_hz = 500_000
        self.mode = 0
        self.bits_per_word = 8
        self.lsbfirst = False
        self.cshigh = False
        self.no_cs = False
        self.syscall_s = syscall_s
        self.inter_byte_gap_s = inter_byte_gap_s
        self.opened: tuple[int, int] | None = None
        self.transfers = 0

    def open(self, bus: int, device: int) -> None:
        self.opened = (bus, device)

    def close(self) -> None:
        self.opened = None
        self.chip.set_sck(False)

    def _transfer(self, data: list[int], speed_hz: int, gap_s: float) -> list[int]:
        if self.opened is None:
            raise OSError(9, "Bad file descriptor")
        self.transfers += 1
        half = 0.5 / (speed_hz or self.max_speed_hz)
        self.clock.advance(self.syscall_s)
        out = []
        for i, byte in enumerate(data):
            if i and gap_s:
                self.clock.advance(gap_s)
            out.append(self.chip.shift_byte(byte, half))
        self.chip.set_sck(False)  # MOSI idles low after a transfer
        return out

    def xfer(self, data: list[int], speed_hz: int = 0, delay_usec: int = 0,
             bits_per_word: int = 0) -> list[int]:
        return self._transfer(list(data), speed_hz, self.inter_byte_gap_s + delay_usec * 1e-6)

    def xfer2(self, data: list[int], speed_hz: int = 0, delay_usec: int = 0,
              bits_per_word: int = 0) -> list[int]:
        return self._transfer(list(data), speed_hz, 0.0)

    def readbytes(self, n: int) -> list[int]:
        return self._transfer([0] * n, 0, 0.0)

    def writebytes(self, data: list[int]) -> None:
        self._transfer(list(data), 0, 0.0)


__all__ = ["FakeSpiDev"]
