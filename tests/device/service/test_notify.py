"""The sd_notify client against real AF_UNIX datagram sockets, as systemd binds them."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import uuid
from pathlib import Path

import pytest

from spielleiter.device.service.notify import Notifier, socket_address, watchdog_interval


class Listener:
    """A datagram socket standing in for systemd's notify socket."""

    def __init__(self, address: str | bytes) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(address)

    def recv(self, timeout: float = 5.0) -> str | None:
        self.sock.settimeout(timeout)
        try:
            return self.sock.recv(4096).decode()
        except socket.timeout:
            return None

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def short_dir():
    # AF_UNIX paths are limited to 107 bytes; pytest's tmp_path can be longer.
    path = Path(tempfile.mkdtemp(prefix="sl-notify-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def listener(short_dir):
    path = str(short_dir / "notify")
    lis = Listener(path)
    lis.path = path
    yield lis
    lis.close()


def test_without_notify_socket_everything_is_a_no_op():
    notifier = Notifier.from_env({})
    assert not notifier.enabled
    assert notifier.watchdog_s is None
    assert notifier.ready("up") is False
    assert notifier.status("x") is False
    assert notifier.watchdog() is False
    assert notifier.stopping() is False
    notifier.close()


def test_messages_arrive_on_a_path_socket(listener):
    with Notifier.from_env({"NOTIFY_SOCKET": listener.path}) as notifier:
        assert notifier.enabled
        assert notifier.status("Starting: opening the hardware")
        assert listener.recv() == "STATUS=Starting: opening the hardware"
        assert notifier.ready("Refereeing: main menu")
        assert listener.recv() == "READY=1\nSTATUS=Refereeing: main menu"
        assert notifier.watchdog()
        assert listener.recv() == "WATCHDOG=1"
        assert notifier.watchdog("Refereeing: game menu")
        assert listener.recv() == "WATCHDOG=1\nSTATUS=Refereeing: game menu"
        assert notifier.stopping("Stopping")
        assert listener.recv() == "STOPPING=1\nSTATUS=Stopping"
        assert notifier.sent == 5


def test_abstract_socket_names_start_with_at():
    name = f"spielleiter-test-{uuid.uuid4().hex}"
    lis = Listener(b"\0" + name.encode())
    try:
        notifier = Notifier.from_env({"NOTIFY_SOCKET": "@" + name})
        assert notifier.ready()
        assert lis.recv() == "READY=1"
        notifier.close()
    finally:
        lis.close()


def test_a_status_is_one_line(listener):
    notifier = Notifier(listener.path)
    notifier.status("no OLED\n(DisplayError:\r\n  I2C)")
    assert listener.recv() == "STATUS=no OLED (DisplayError: I2C)"
    notifier.close()


def test_a_vanished_socket_never_raises(short_dir):
    notifier = Notifier(str(short_dir / "gone"), watchdog_s=10)
    assert notifier.ready() is False
    assert notifier.watchdog() is False
    assert notifier.failures == 2
    notifier.close()
    notifier.close()


def test_socket_addresses():
    assert socket_address(None) is None
    assert socket_address("") is None
    assert socket_address("/run/systemd/notify") == "/run/systemd/notify"
    assert socket_address("@abstract") == b"\0abstract"
    assert socket_address("relative/path") is None
    assert not Notifier("vsock:2:1234").enabled


def test_watchdog_interval_from_the_environment():
    assert watchdog_interval({}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "10000000"}) == 10.0
    mine = {"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": str(os.getpid())}
    assert watchdog_interval(mine) == 10.0
    assert watchdog_interval({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"}, pid=4242) is None
    assert watchdog_interval({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "x"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "0"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "soon"}) is None


def test_no_watchdog_without_a_socket(listener):
    assert Notifier.from_env({"WATCHDOG_USEC": "1000000"}).watchdog_s is None
    env = {"NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "1000000"}
    assert Notifier.from_env(env).watchdog_s == 1.0
