"""The SPI reader: hardware-clocked reads, PD_SCK on MOSI and DOUT on MISO (recommended)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .chip import PULSES_FOR
from .events import LoadCellError, ReadAttempt, ReaderEvent
from .reader import LoadCellReader

DATA_BYTES = [0xAA] * 6  # 10101010: four PD_SCK pulses per byte, 24 in all
# 1, 2 or 3 more pulses after the 24 data bits (0x80, 0xA0, 0xA8): gain and channel of the next
TRAILER_BYTE = {setting: sum(0x80 >> (2 * i) for i in range(pulses - 24))
                for setting, pulses in PULSES_FOR.items()}
DATA_MASKS = (0x40, 0x10, 0x04, 0x01)  # MISO in the low half of each pulse holds the bit
TRAILER_DOUT_MASK = 0x40  # DOUT right after the 25th pulse: must be high
POWER_CYCLE = [0xFF] * 16 + [0x00]  # PD_SCK high for 128 bit times (>= 60 us up to 2 MHz)


def decode_spi(rx: Sequence[int]) -> int:
    """The 24-bit code from the six MISO bytes of ``DATA_BYTES``."""
    code = 0
    for byte in rx[:6]:
        for mask in DATA_MASKS:
            code = (code << 1) | (1 if byte & mask else 0)
    return code


class SpiReader(LoadCellReader):
    """Reads through the SPI controller: PD_SCK on MOSI, DOUT on MISO (SCLK and CE unused).

    A MOSI bit of 1 is a PD_SCK pulse one bit time long, so the high phase is fixed by the
    hardware (2 us at the default 500 kHz) and no preemption can stretch it: every byte ends
    with a 0 bit, so PD_SCK is low across any gap between bytes or transfers. A one-byte
    transfer of 0x00 samples DOUT without clocking the chip (0x00 back: data ready).
    """

    kind = "spi"

    def __init__(self, pan: str, on_event: Callable[[ReaderEvent], Any], *, bus: int = 0,
                 device: int = 0, speed_hz: int = 500_000, gain: int = 128,
                 channel: str = "A", spi_factory: Callable[[], Any] | None = None,
                 **kw: Any) -> None:
        super().__init__(pan, on_event, **kw)
        if not 20_000 <= speed_hz <= 2_000_000:
            raise ValueError("speed_hz: 20 kHz (50 us pulse) .. 2 MHz (power-cycle >= 60 us)")
        if (gain, channel) not in TRAILER_BYTE:
            raise ValueError("gain/channel: 128/A, 64/A or 32/B")
        self.bus, self.device, self.speed_hz = bus, device, speed_hz
        self._read_bytes = DATA_BYTES + [TRAILER_BYTE[(gain, channel)]]
        self._factory = spi_factory
        self._spi: Any = None

    def _open(self) -> None:
        factory = self._factory
        if factory is None:
            try:
                import spidev  # noqa: PLC0415 - lazy: Linux only
            except ImportError as exc:
                raise LoadCellError(f"{self.pan}: spidev is missing ({exc})") from exc
            factory = spidev.SpiDev
        spi = factory()
        spi.open(self.bus, self.device)
        spi.max_speed_hz = self.speed_hz
        spi.mode = 0
        self._spi = spi
        self._recover()

    def _attempts(self) -> list[ReadAttempt]:
        t = self.clock.now()
        if self._spi.xfer2([0x00])[0] != 0x00:
            return [ReadAttempt(t, "not_ready")]
        rx = self._spi.xfer2(list(self._read_bytes))
        code = decode_spi(rx)
        if not rx[6] & TRAILER_DOUT_MASK:
            return [ReadAttempt(t, "misaligned", code)]
        return [ReadAttempt(t, "ok", code)]

    def _recover(self) -> None:
        self._spi.xfer2(list(POWER_CYCLE))

    def _release(self) -> None:
        if self._spi is not None:
            self._spi.close()


__all__ = ["SpiReader", "decode_spi"]
