"""A real Mosquitto on 127.0.0.1 at a free port, for the room's tests and benchmark (not a test
module). Debian: ``apt-get install mosquitto``; without the binary the tests that need it skip.

Persistence is on, in the broker's own folder, so a broker killed mid-game and started again
keeps what it had written (retained messages, the room's session), as a broker on a laptop does.
"""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

BINARY = shutil.which("mosquitto") or next(
    (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if os.path.exists(p)), None)
SKIP_REASON = "mosquitto is not installed (Debian: apt-get install mosquitto)"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Mosquitto:
    """``start``, ``kill`` (SIGKILL: the broker's power cut), ``start`` again on the same port."""

    def __init__(self, folder: Path, port: int | None = None,
                 max_queued: int = 0, autosave_s: int = 1, anonymous: bool = True,
                 tls: tuple[Path, Path] | None = None) -> None:
        assert BINARY, SKIP_REASON
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.conf = self.folder / "mosquitto.conf"
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\n"
            f"allow_anonymous {'true' if anonymous else 'false'}\n"
            "persistence true\n"
            f"persistence_location {self.folder}/\n"
            f"autosave_interval {autosave_s}\n"
            f"max_queued_messages {max_queued}\n"  # 0: no limit (the room's session)
            "max_inflight_messages 100\n"
            f"log_dest file {self.folder}/mosquitto.log\n"
            # (certificate, key): TLS on the listener; read as this user (run as root,
            # mosquitto would read the key as its own user, who may not enter the test's folder)
            + ("" if tls is None else f"certfile {tls[0]}\nkeyfile {tls[1]}\ncafile {tls[0]}\n"
               f"user {getpass.getuser()}\n"))

    def start(self, timeout: float = 10.0) -> "Mosquitto":
        self.proc = subprocess.Popen([BINARY, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"mosquitto exited: {self.log()[-500:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not listen in time")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None

    def log(self) -> str:
        path = self.folder / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def __enter__(self) -> "Mosquitto":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
