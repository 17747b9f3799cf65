"""The 128x64 OLED: luma.oled's ``ssd1306``/``sh1106`` over I2C, or luma.core's ``dummy``.

``Display`` wraps any luma device and drops frames identical to the last one sent: the SSD1306
driver always resends all 1024 bytes, and an idle box should send nothing. ``RecordingBus`` is an
smbus-like bus for the real luma drivers that counts what would go over the wire (and can fail,
like a loose cable). ``to_blocks`` draws a frame with quadrant block characters for terminals.
"""

from __future__ import annotations

import inspect
import logging
import threading
from dataclasses import dataclass
from typing import Any, Callable

from PIL import Image

from .exc import DisplayError

WIDTH, HEIGHT = 128, 64
SH1106_OFFSET = 2  # luma's default column offset for the SH1106 (132 columns, 128 shown)
log = logging.getLogger(__name__)


@dataclass
class RecordingBus:
    """An smbus2-like I2C bus that records every transfer instead of sending it.

    ``fail`` makes every transfer raise ``OSError(EIO)``, as a pulled cable does; ``log`` (a
    list) keeps each transfer's control byte (0x00 commands, 0x40 pixel data) and bytes.
    """

    bytes_sent: int = 0
    transfers: int = 0
    fail: bool = False
    log: list[tuple[int, tuple[int, ...]]] | None = None  # (control byte, data) when a list

    def write_i2c_block_data(self, addr: int, register: int, data: list[int]) -> None:
        if self.fail:
            import errno

            raise OSError(errno.EIO, "I2C transfer failed")
        self.transfers += 1
        self.bytes_sent += len(data) + 2  # address and control byte go over the wire too
        if self.log is not None:
            self.log.append((register, tuple(data)))

    def close(self) -> None:
        pass


def open_device(kind: str, *, port: int = 1, address: int = 0x3C, rotate: int = 0,
                bus: Any = None, column_offset: int = SH1106_OFFSET) -> Any:
    """A luma device: ``ssd1306`` or ``sh1106`` over I2C (``bus`` for a recording bus) or ``dummy``.

    ``column_offset`` is the SH1106's: of its 132 columns of memory, the one the panel's first
    pixel shows (2 on most 1.3" modules, 0 on some). luma.oled takes it as ``sh1106``'s
    ``page_address_offset`` (3.16 and later; before, it was fixed at 2).
    """
    if kind == "dummy":
        from luma.core.device import dummy

        return dummy(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1")
    if kind not in ("ssd1306", "sh1106"):
        raise ValueError(f"unknown display {kind!r}: ssd1306, sh1106 or dummy")
    import luma.core.error
    from luma.core.interface.serial import i2c
    from luma.oled import device as oled

    options: dict[str, Any] = {}
    if kind == "sh1106":
        if "page_address_offset" in inspect.signature(oled.sh1106).parameters:
            options["page_address_offset"] = column_offset
        elif column_offset != SH1106_OFFSET:
            raise DisplayError(f"sh1106: this luma.oled has no column offset (fixed at "
                               f"{SH1106_OFFSET}); luma.oled 3.16 or later takes "
                               f"column_offset = {column_offset}")
    try:
        serial = i2c(bus=bus, address=address) if bus is not None else i2c(port=port,
                                                                         address=address)
        return getattr(oled, kind)(serial, width=WIDTH, height=HEIGHT, rotate=rotate,
                                   persist=True, **options)
    except (luma.core.error.Error, OSError) as exc:
        raise DisplayError(f"{kind} at I2C {port}/0x{address:02X}: {exc}") from exc


class Display:
    """Shows frames on a luma device, skipping repeats; errors are counted, never raised.

    A display that fails (loose wire) must not stop the referee: the frame is dropped, the error is
    logged once, and the next different frame tries again.
    """

    def __init__(self, device: Any, on_frame: Callable[[Image.Image], None] | None = None) -> None:
        self.device = device
        self.on_frame = on_frame
        self.frames_sent = 0
        self.frames_skipped = 0
        self.errors = 0
        self.last: Image.Image | None = None
        self._last_bytes: bytes | None = None
        self._lock = threading.Lock()

    def show(self, image: Image.Image) -> bool:
        """Send ``image`` unless it equals the last frame sent; True if it was sent."""
        frame = image if image.mode == "1" else image.convert("1")
        data = frame.tobytes()
        with self._lock:
            if data == self._last_bytes:
                self.frames_skipped += 1
                return False
            self.last = frame
            try:
                self.device.display(frame)
            except Exception as exc:  # OSError or luma.core.error.* on an I2C fault
                self.errors += 1
                self._last_bytes = None
                if self.errors == 1 or self.errors % 100 == 0:
                    log.error("display failed (%d errors): %s", self.errors, exc)
                return False
            self._last_bytes = data
            self.frames_sent += 1
        if self.on_frame is not None:
            self.on_frame(frame)
        return True

    def set_power(self, contrast: int | None) -> None:
        """Brightness 0-255 (luma's ``contrast``), or None to switch the panel off (``hide``);
        a panel that is off keeps its last frame and shows it again when switched on."""
        with self._lock:
            try:
                if contrast is None:
                    self.device.hide()
                else:
                    self.device.contrast(max(0, min(255, int(contrast))))
                    self.device.show()
            except Exception as exc:  # a loose wire: the referee goes on
                self.errors += 1
                log.error("display power: %s", exc)

    def close(self) -> None:
        device, self.device = self.device, None
        if device is not None:
            try:
                device.cleanup()
            except Exception as exc:  # pragma: no cover - hardware gone at shutdown
                log.warning("display cleanup: %s", exc)

    def __enter__(self) -> "Display":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_QUADRANTS = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"


def to_blocks(image: Image.Image) -> str:
    """The frame as 64x32 quadrant block characters (2x2 pixels per character)."""
    frame = image.convert("1")
    width, height = frame.size
    px = frame.load()
    assert px is not None
    lines = []
    for y in range(0, height, 2):
        row = []
        for x in range(0, width, 2):
            bits = 0
            for bit, (dx, dy) in enumerate(((0, 0), (1, 0), (0, 1), (1, 1))):
                if x + dx < width and y + dy < height and px[x + dx, y + dy]:
                    bits |= 1 << bit
            row.append(_QUADRANTS[bits])
        lines.append("".join(row))
    return "\n".join(lines)
