"""The serial reader: a microcontroller reads the HX711 and streams its codes as text lines."""

from __future__ import annotations

import logging
from typing import Any, Callable, Sequence

from ..uart import resolve_port
from .events import LoadCellError, ReadAttempt, ReaderEvent
from .reader import LoadCellReader

log = logging.getLogger(__name__)

def parse_line(line: str) -> tuple[str, int | None, int | None, str]:
    """Parse one line of the serial format: (kind, seq, code, text); kind is D, E, # or ?."""
    parts = line.strip().split()
    if not parts:
        return "?", None, None, line
    if parts[0] == "D" and len(parts) == 3 and len(parts[2]) == 6:
        try:
            seq, code = int(parts[1]), int(parts[2], 16)
        except ValueError:
            return "?", None, None, line
        if 0 <= seq < 65536:
            return "D", seq, code, ""
    if parts[0] == "E":
        return "E", None, None, " ".join(parts[1:])
    if parts[0].startswith("#"):
        return "#", None, None, line.strip()
    return "?", None, None, line


class SerialReader(LoadCellReader):
    """Counts streamed by a microcontroller that reads the HX711 itself.

    Line format, ASCII, one line per conversion, ended by LF (CR LF accepted)::

        D <seq> <hex6>   a conversion: seq is decimal 0..65535 and wraps (lost lines show as
                         gaps), hex6 the chip's raw 24-bit two's complement code, 6 hex digits
        E <reason>       the microcontroller saw a fault, e.g. "E timeout" (DOUT stayed high)
        # <text>         a comment, logged at debug level

    Anything else counts as an error. Rails, saturation and settling are checked here as for
    the other readers, cadence by sequence number. One port per pan: a path, a pyserial URL,
    or a label naming the UART by its device (``drivers.uart``), found again at each open.
    """

    kind = "serial"

    def __init__(self, pan: str, on_event: Callable[[ReaderEvent], Any], *,
                 port: str = "/dev/ttyACM0", baudrate: int = 115200,
                 serial_port: Any = None, **kw: Any) -> None:
        kw.setdefault("poll_s", 0.005)
        super().__init__(pan, on_event, **kw)
        self.port, self.baudrate = port, baudrate
        self.device: str | None = None  # what ``port`` named when it was last opened
        self._port: Any = serial_port
        self._own_port = serial_port is None
        self._buf = b""
        self._reopen_at = 0.0

    def _open(self) -> None:
        if self._port is None:
            self._port = self._open_port()

    def _open_port(self) -> Any:
        try:
            import serial  # noqa: PLC0415
        except ImportError as exc:
            raise LoadCellError(f"{self.pan}: pyserial is missing ({exc})") from exc
        self.device = resolve_port(self.port)  # a label: the UART it names now (drivers.uart)
        return serial.serial_for_url(self.device, baudrate=self.baudrate, timeout=0)

    def _attempts(self) -> list[ReadAttempt]:
        t = self.clock.now()
        if self._port is None:
            if t < self._reopen_at:
                return [ReadAttempt(t, "not_ready")]
            self._port = self._open_port()
        waiting = self._port.in_waiting
        if waiting:
            self._buf += self._port.read(waiting)
        out: list[ReadAttempt] = []
        while b"\n" in self._buf:
            raw, self._buf = self._buf.split(b"\n", 1)
            kind, seq, code, text = parse_line(raw.decode("ascii", "replace"))
            if kind == "D":
                out.append(ReadAttempt(t, "ok", code, seq=seq))
            elif kind == "E":
                log.debug("%s: microcontroller: %s", self.pan, text)
                out.append(ReadAttempt(t, "not_ready", detail=text))
            elif kind == "#":
                log.debug("%s: microcontroller: %s", self.pan, text)
            else:
                out.append(ReadAttempt(t, "error", detail=f"bad line {raw[:40]!r}"))
        if len(self._buf) > 256:  # no newline in sight: garbage
            self._buf = b""
            out.append(ReadAttempt(t, "error", detail="line too long"))
        return out or [ReadAttempt(t, "not_ready")]

    def _wake_after(self, attempts: Sequence[ReadAttempt], now: float) -> float:
        return now + self.poll_s

    def _on_error(self, exc: Exception) -> None:
        if self._own_port and self._port is not None:
            try:
                self._port.close()
            except Exception:  # noqa: BLE001
                pass
            self._port = None
            self._reopen_at = self.clock.now() + 1.0

    def _release(self) -> None:
        if self._own_port and self._port is not None:
            self._port.close()
            self._port = None


__all__ = ["SerialReader", "parse_line"]
