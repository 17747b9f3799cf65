"""A dependency-free ``sd_notify`` client: READY=1, STATUS=, STOPPING=1, WATCHDOG=1.

systemd passes ``$NOTIFY_SOCKET`` to a ``Type=notify`` service: a path (``/run/systemd/notify``)
or an abstract socket name written with a leading ``@``. Each message is one datagram of
``KEY=value`` lines on an ``AF_UNIX``/``SOCK_DGRAM`` socket. Without ``$NOTIFY_SOCKET`` (a
terminal, a test, ``spielleiter sim``) every call is a no-op that returns False.

``$WATCHDOG_USEC`` (with ``$WATCHDOG_PID``, when set, naming this process) is the ``WatchdogSec=``
of the unit; the service pings at half of it from its event loop. Sending never raises: a notify
socket that went away must not take the referee down with it, so failures are logged once.
"""

from __future__ import annotations

import errno
import logging
import os
import socket
from typing import Mapping

log = logging.getLogger(__name__)

SEND_TIMEOUT_S = 1.0


def socket_address(value: str | None) -> str | bytes | None:
    """The ``sendto`` address for a ``$NOTIFY_SOCKET`` value, or None if unusable or absent."""
    if not value:
        return None
    if value.startswith("@"):
        return b"\0" + value[1:].encode()  # Linux abstract namespace
    if value.startswith("/"):
        return value
    log.warning("NOTIFY_SOCKET=%r is not a path or an @abstract name; not notifying", value)
    return None


def watchdog_interval(env: Mapping[str, str], pid: int | None = None) -> float | None:
    """``WatchdogSec=`` in seconds, or None when no watchdog is asked of this process."""
    usec = env.get("WATCHDOG_USEC")
    if not usec:
        return None
    owner = env.get("WATCHDOG_PID")
    if owner:
        try:
            if int(owner) != (os.getpid() if pid is None else pid):
                return None
        except ValueError:
            return None
    try:
        value = int(usec)
    except ValueError:
        log.warning("WATCHDOG_USEC=%r is not a number; no watchdog pings", usec)
        return None
    return value / 1_000_000 if value > 0 else None


def _clean(text: str) -> str:
    """One protocol line: newlines would start a new (bogus) assignment."""
    return " ".join(str(text).split())


class Notifier:
    """Talks to systemd's notify socket; every method returns True if the datagram went out."""

    def __init__(self, address: str | None, watchdog_s: float | None = None) -> None:
        self.name = address
        self.address = socket_address(address)
        self.watchdog_s = watchdog_s if self.address is not None else None
        self.sent = 0
        self.failures = 0
        self._sock: socket.socket | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "Notifier":
        env = os.environ if env is None else env
        return cls(env.get("NOTIFY_SOCKET"), watchdog_interval(env))

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, *assignments: str) -> bool:
        """Send ``KEY=value`` lines as one datagram."""
        if self.address is None or not assignments:
            return False
        message = "\n".join(assignments).encode("utf-8", "replace")
        try:
            if self._sock is None:
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
                sock.settimeout(SEND_TIMEOUT_S)  # never block the loop for long
                self._sock = sock
            self._sock.sendto(message, self.address)
        except OSError as exc:
            self.failures += 1
            if self.failures == 1 or self.failures % 100 == 0:
                why = "not there" if exc.errno in (errno.ENOENT, errno.ECONNREFUSED) else exc
                log.warning("notify socket %s: %s (%d failures)", self.name, why, self.failures)
            return False
        self.sent += 1
        return True

    def ready(self, status: str | None = None) -> bool:
        return self.send("READY=1", *([f"STATUS={_clean(status)}"] if status else []))

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={_clean(text)}")

    def stopping(self, status: str | None = None) -> bool:
        return self.send("STOPPING=1", *([f"STATUS={_clean(status)}"] if status else []))

    def watchdog(self, status: str | None = None) -> bool:
        return self.send("WATCHDOG=1", *([f"STATUS={_clean(status)}"] if status else []))

    def close(self) -> None:
        sock, self._sock = self._sock, None
        if sock is not None:
            sock.close()

    def __enter__(self) -> "Notifier":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
