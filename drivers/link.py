"""The serial link's transport: pyserial, newline-delimited lines both ways, on a reader thread.

Outgoing lines are queued (at most ``OUT_QUEUE``; beyond that they are dropped and counted) and
written by a writer thread with a write timeout, so a peer that stops reading can never block the
caller, which is the runtime's loop. Incoming lines go to ``on_event`` (which only enqueues) with
back-pressure: at most ``window``
lines are waiting for the consumer at any time, and the reader stops reading until the consumer
calls ``done()``. A flood therefore waits in the UART's buffer, not in the runtime's queue, and can
never starve the buttons. Lines longer than ``max_line`` bytes are dropped whole and reported; a
cable pulled mid-line discards the partial line, reports the link down, and the reader keeps
trying to reopen the port. The port may be a label naming the UART by its device
(``drivers.uart``), found again at each open. Twins: ``serial_for_url("loop://")`` and pty pairs.
"""

from __future__ import annotations

import logging
import queue
import threading
from dataclasses import dataclass
from typing import Any, Callable

import serial

from .uart import resolve_port

log = logging.getLogger(__name__)

MAX_LINE = 4096
OUT_QUEUE = 64
WRITE_TIMEOUT_S = 1.0


@dataclass(frozen=True)
class LinkLine:
    """One complete line, decoded. ``error`` instead of ``text`` for a line that was refused."""

    text: str = ""
    error: str = ""


@dataclass(frozen=True)
class LinkStatus:
    up: bool
    detail: str = ""


class SerialLink:
    """A pyserial port (any URL pyserial takes) read by one daemon thread."""

    def __init__(self, url: str, on_event: Callable[[Any], None], *, baud: int = 115200,
                 max_line: int = MAX_LINE, window: int = 8, reopen_s: float = 2.0,
                 port: Any = None) -> None:
        self.url = url
        self.baud = baud
        self.on_event = on_event
        self.max_line = max_line
        self.reopen_s = reopen_s
        self._port = port
        self._slots = threading.Semaphore(window)
        self._out: queue.Queue[bytes | None] = queue.Queue(OUT_QUEUE)
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None
        self._writer: threading.Thread | None = None
        self.lines_in = 0
        self.lines_refused = 0
        self.lines_dropped = 0  # outgoing lines lost: link down, queue full or a write timeout
        self.up = False
        self._reported: bool | None = None

    # -- lifecycle -------------------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._read_forever, name=f"link {self.url}",
                                        daemon=True)
        self._writer = threading.Thread(target=self._write_forever,
                                        name=f"link {self.url} writer", daemon=True)
        self._thread.start()
        self._writer.start()

    def close(self) -> None:
        if self._closed.is_set():
            return
        self._closed.set()
        port = self._port
        if port is not None:
            try:
                port.cancel_read()
            except Exception:  # not every port type can cancel; closing wakes it too
                pass
            port.close()
        for _ in range(64):  # wake a reader blocked on back-pressure
            self._slots.release()
        try:
            self._out.put_nowait(None)  # wake the writer
        except queue.Full:
            pass
        for thread in (self._thread, self._writer):
            if thread is not None and thread is not threading.current_thread():
                thread.join(timeout=2)

    def __enter__(self) -> "SerialLink":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing (loop thread) -------------------------------------------------------------------
    def send_line(self, text: str) -> bool:
        """Queue one line for the writer; False if it was dropped (link down or queue full).
        Never blocks: messages for a peer that is not listening are lost, never queued up.
        Never raises on encoding: a character UTF-8 cannot hold (a lone surrogate) goes out as
        ``?``, so one odd string can never silence the link."""
        if self._port is None or not self.up:
            self.lines_dropped += 1
            return False
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            log.warning("link line not valid Unicode; unencodable characters replaced")
            data = text.encode("utf-8", "replace")
        try:
            self._out.put_nowait(data + b"\n")
            return True
        except queue.Full:
            self.lines_dropped += 1
            return False

    def _write_forever(self) -> None:
        while True:
            data = self._out.get()
            if data is None or self._closed.is_set():
                return
            port = self._port
            if port is None:
                self.lines_dropped += 1
                continue
            try:
                port.write(data)
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                # SerialTimeoutException: the peer stopped reading; the others: port closed
                self.lines_dropped += 1
                log.warning("link write failed: %s", exc or type(exc).__name__)

    def done(self) -> None:
        """The consumer has handled one line: let the reader take another."""
        self._slots.release()

    # -- reading (reader thread) -----------------------------------------------------------------
    def _open(self) -> bool:
        if self._port is None:
            try:
                self._port = serial.serial_for_url(resolve_port(self.url), baudrate=self.baud,
                                                   timeout=None, write_timeout=WRITE_TIMEOUT_S)
            except (serial.SerialException, OSError, ValueError) as exc:
                self._report(False, f"cannot open {self.url}: {exc}")
                return False
        self.up = True
        self._report(True, self.url)
        return True

    def _report(self, up: bool, detail: str) -> None:
        """Tell the consumer when the link changes between up and down (not every retry)."""
        if self._reported != up:
            self._reported = up
            self.on_event(LinkStatus(up, detail))

    def _down(self, why: str) -> None:
        self.up = False
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except Exception:
                pass
        if not self._closed.is_set():
            log.warning("link down: %s", why)
            self._report(False, why)

    def _read_forever(self) -> None:
        while not self._closed.is_set():
            if not self.up and not self._open():
                self._closed.wait(self.reopen_s)
                continue
            try:
                self._read_lines()
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                # pyserial raises SerialException on hang-up; a port closed under a blocked read
                # can surface as OSError, TypeError or AttributeError inside pyserial.
                if self._closed.is_set():
                    return
                self._down(str(exc) or type(exc).__name__)
                self._closed.wait(self.reopen_s)

    def _read_lines(self) -> None:
        port = self._port
        skipping = False
        while not self._closed.is_set():
            chunk = port.read_until(b"\n", self.max_line + 1)
            if self._closed.is_set():
                return
            if not chunk:
                raise serial.SerialException("the port returned no data (hung up)")
            if not chunk.endswith(b"\n"):
                if len(chunk) <= self.max_line:
                    raise serial.SerialException("the port closed mid-line")
                if not skipping:
                    self._deliver(LinkLine(error=f"line longer than {self.max_line} bytes"))
                skipping = True
                continue
            if skipping:
                skipping = False
                continue
            try:
                text = chunk.rstrip(b"\r\n").decode("utf-8")
            except UnicodeDecodeError:
                self._deliver(LinkLine(error="line is not UTF-8"))
                continue
            if text.strip():
                self._deliver(LinkLine(text))

    def _deliver(self, line: LinkLine) -> None:
        self._slots.acquire()
        if self._closed.is_set():
            return
        self.lines_in += 1
        if line.error:
            self.lines_refused += 1
        self.on_event(line)


class NullModem:
    """Two pty pairs joined by a relay thread: a null-modem cable between two real tty paths.

    Each end is a real ``/dev/pts/N`` that pyserial opens like a UART, so the box and
    ``spielleiter watch`` both run their production code. ``pull()`` is the cable coming out.
    Like a UART without flow control, a receiver that stops reading makes the sender wait only
    while ``BUFFER`` bytes are in flight; the relay itself never blocks.
    """

    BUFFER = 16384

    def __init__(self) -> None:
        import os
        import tty

        self._fds: list[int] = []
        self.ends: list[str] = []
        for _ in range(2):
            master, slave = os.openpty()
            tty.setraw(slave)
            self._fds += [master, slave]
            self.ends.append(os.ttyname(slave))
        self._stop_r, self._stop_w = os.pipe()
        self._thread = threading.Thread(target=self._relay, name="null modem", daemon=True)
        self._thread.start()

    def _relay(self) -> None:
        import os
        import select

        a, b = self._fds[0], self._fds[2]
        peer = {a: b, b: a}
        pending = {a: bytearray(), b: bytearray()}  # bytes waiting to be written to that master
        for fd in (a, b):
            os.set_blocking(fd, False)
        while True:
            readable = [fd for fd in (a, b) if len(pending[peer[fd]]) < self.BUFFER]
            writable = [fd for fd in (a, b) if pending[fd]]
            ready, can_write, _ = select.select(readable + [self._stop_r], writable, [])
            if self._stop_r in ready:
                return
            for fd in ready:
                try:
                    data = os.read(fd, 4096)
                except (BlockingIOError, OSError):  # EIO: the far end is not open yet
                    data = b""
                pending[peer[fd]] += data
            for fd in can_write:
                try:
                    written = os.write(fd, pending[fd])
                except (BlockingIOError, OSError):
                    written = 0
                del pending[fd][:written]

    def pull(self) -> None:
        """Unplug: stop carrying bytes and hang up both ends."""
        import os

        if self._thread.is_alive():
            os.write(self._stop_w, b"x")
            self._thread.join(timeout=2)
        for fd in self._fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self._fds = []

    close = pull
