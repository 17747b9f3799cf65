"""``spielleiter run`` as systemd sees it: READY, watchdog pings from the loop, SIGTERM, goodbye.

Everything talks to a real datagram socket bound by the test (``NOTIFY_SOCKET``). The service runs
on gpiozero's MockFactory and luma's dummy display, in-process or as ``spielleiter run --sim``.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from PIL import Image

from spielleiter.device.config import core as config_mod
from spielleiter.device.box import Box
from spielleiter.device.journal.store import Journal
from spielleiter.device.journal.header import Header
from spielleiter.device.runtime import ManualClock
from spielleiter.device.screen.render import View, render
from support import english_config
from spielleiter.device.service.loop import (SIM_FRAME, Service, goodbye_view, open_display,
                                             run_service)
from spielleiter.device.service.notify import Notifier
from spielleiter.drivers.buttons import mock_factory
from spielleiter.drivers.display import open_device


class Listener:
    """systemd's side of the notify socket."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path)
        self.messages: list[str] = []

    def recv(self, timeout: float = 5.0) -> str | None:
        self.sock.settimeout(timeout)
        try:
            message = self.sock.recv(4096).decode()
        except socket.timeout:
            return None
        self.messages.append(message)
        return message

    @staticmethod
    def _has(message: str, field: str) -> bool:
        return any(line.startswith(field) for line in message.splitlines())

    def wait_for(self, field: str, timeout: float = 20.0, count: int = 1) -> list[str]:
        """Receive until ``count`` messages with a line starting with ``field`` have arrived."""
        deadline = time.monotonic() + timeout
        seen = [m for m in self.messages if self._has(m, field)]
        while len(seen) < count:
            left = deadline - time.monotonic()
            message = self.recv(left) if left > 0 else None
            if message is None:
                pytest.fail(f"no {field} within {timeout} s; got {self.messages!r}")
            if self._has(message, field):
                seen.append(message)
        return seen

    def drain(self) -> None:
        while self.recv(0.0001) is not None:
            pass

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def listener():
    directory = tempfile.mkdtemp(prefix="sl-svc-")  # AF_UNIX paths must stay short
    lis = Listener(os.path.join(directory, "notify"))
    yield lis
    lis.close()
    shutil.rmtree(directory, ignore_errors=True)


def sim_box(state_dir: Path, clock=time.monotonic, cfg=None) -> Box:
    return Box.build(cfg or config_mod.load(None), state_dir, pin_factory=mock_factory(),
                     display_device=open_device("dummy"), clock=clock, seed_source=lambda: 7)


# -- watchdog -------------------------------------------------------------------------------------
def test_watchdog_pings_are_runtime_timers_every_half_period(tmp_path, listener):
    clock = ManualClock()
    with sim_box(tmp_path, clock) as box:
        service = Service(box, Notifier(listener.path, watchdog_s=10))
        service.start()
        assert listener.recv() == "READY=1\nSTATUS=Refereeing: main menu"
        assert listener.recv() == "WATCHDOG=1"
        # The idle loop sleeps until the next ping: no polling in between.
        assert box.runtime.next_deadline() == pytest.approx(clock() + 5)
        box.runtime.run_until(clock() + 35)
        assert service.pings == 7
        box.runtime.run_until(clock() + 4.9)
        assert service.pings == 7
        assert [listener.recv(1) for _ in range(7)] == ["WATCHDOG=1"] * 7
        assert listener.recv(0.01) is None


def test_no_watchdog_no_timer(tmp_path, listener):
    with sim_box(tmp_path, ManualClock()) as box:
        saver = box.runtime.next_deadline()           # only the screen's sleep is due, later
        assert saver == pytest.approx(box.runtime.clock() + box.app.settings.dim_after_s)
        service = Service(box, Notifier(listener.path))
        service.start()
        assert listener.recv() == "READY=1\nSTATUS=Refereeing: main menu"
        assert box.runtime.next_deadline() == saver


def test_a_hung_loop_stops_pinging_and_a_free_one_resumes(tmp_path, listener):
    with sim_box(tmp_path) as box:
        service = Service(box, Notifier(listener.path, watchdog_s=0.2))  # a ping every 0.1 s
        exit_code: list[int] = []
        entered, release = threading.Event(), threading.Event()

        def hang() -> None:
            entered.set()
            release.wait(10)

        runner = threading.Thread(target=lambda: exit_code.append(service.run()))
        runner.start()
        try:
            listener.wait_for("READY=1", 5)
            listener.wait_for("WATCHDOG=1", 5, count=3)
            box.runtime.post(hang)
            assert entered.wait(5)
            listener.drain()  # pings sent before the hang
            assert listener.recv(0.6) is None, "a stuck loop must not ping (6 periods)"
            release.set()
            assert listener.recv(5) == "WATCHDOG=1"
        finally:
            release.set()
            box.runtime.stop("test")
            runner.join(5)
        assert exit_code == [0]
        assert "STOPPING=1" in listener.wait_for("STOPPING=1", 5)[0].splitlines()


# -- status and goodbye ---------------------------------------------------------------------------
def test_status_says_what_the_box_does_and_what_is_missing(tmp_path):
    with Journal(tmp_path / "journal.sqlite3") as journal:
        journal.start_game(Header("tatort-tonne", ("Red", "Blue", "Green"), {}, 7))
    with sim_box(tmp_path, ManualClock()) as box:
        service = Service(box, Notifier(None), notes=["no OLED (I2C 1/0x3C: not found)"])
        assert service.describe() == ("Refereeing: playing Tatort Tonne (0 actions); "
                                      "no OLED (I2C 1/0x3C: not found)")
        assert goodbye_view(box) == View("Spielleiter", ("Game saved:", "0 actions kept"),
                                         big="Goodbye")
        assert service.shutdown("SIGTERM") == 0
        assert box.frame().tobytes() == render(goodbye_view(box)).tobytes()
    with Journal(tmp_path / "journal.sqlite3") as journal:
        saved = journal.latest()
        assert saved is not None and saved.status == "running"


def test_goodbye_without_a_game(tmp_path, listener):
    with sim_box(tmp_path, ManualClock()) as box:
        service = Service(box, Notifier(listener.path), keep_frame=tmp_path / "bye.png")
        assert service.shutdown("SIGTERM") == 0
        assert listener.recv() == "STOPPING=1\nSTATUS=Stopping (SIGTERM): goodbye shown, game saved"
        expected = render(View("Spielleiter", ("See you soon!",), big="Goodbye"))
        assert Image.open(tmp_path / "bye.png").convert("1").tobytes() == expected.tobytes()
        assert box._closed


# -- the display may be missing -------------------------------------------------------------------
def test_no_oled_falls_back_to_the_dummy_device(tmp_path):
    raw = config_mod.read(None)
    raw["display"]["i2c_port"] = 97  # /dev/i2c-97 does not exist
    cfg = config_mod.validate(raw)
    device, note = open_display(cfg)
    assert type(device).__name__ == "dummy"
    assert note is not None and note.startswith("no OLED")


def test_run_service_keeps_refereeing_without_an_oled(tmp_path, listener):
    site = tmp_path / "config.toml"
    site.write_text("[display]\ni2c_port = 97\n")
    boxes: list[Box] = []

    def factory(cfg, state_dir):  # the hardware path, but with mock pins
        device, note = open_display(cfg)
        boxes.append(Box.build(cfg, state_dir, pin_factory=mock_factory(), display_device=device))
        return boxes[0], [note]

    def stop_when_ready():
        listener.wait_for("READY=1", 10)
        boxes[0].runtime.stop("test")

    stopper = threading.Thread(target=stop_when_ready)
    stopper.start()
    code = run_service(site, tmp_path / "state", box_factory=factory,
                       env={"NOTIFY_SOCKET": listener.path})
    stopper.join(5)
    assert code == 0
    ready = listener.wait_for("READY=1")[0]
    assert "STATUS=Refereeing: main menu; no OLED" in ready
    assert (tmp_path / "state" / "journal.sqlite3").exists()


# -- start-up failures ----------------------------------------------------------------------------
def test_a_bad_config_exits_2_with_every_problem(tmp_path, listener, capsys):
    bad = tmp_path / "config.toml"
    bad.write_text('[display]\ndriver = "lcd"\n[buzzer]\npin = 2\n')
    code = run_service(bad, tmp_path / "state", sim=True, env={"NOTIFY_SOCKET": listener.path})
    assert code == 2
    err = capsys.readouterr().err
    assert "spielleiter run: display.driver" in err
    assert "spielleiter run: buzzer.pin: GPIO2 is reserved" in err
    assert "display.driver" in listener.wait_for("STATUS=Config error: ", 1)[0]
    assert not (tmp_path / "state").exists()


def test_a_missing_config_file_exits_2(tmp_path, capsys):
    assert run_service(tmp_path / "nope.toml", tmp_path, sim=True, env={}) == 2
    assert "no such file" in capsys.readouterr().err


def test_a_box_that_cannot_start_exits_1(tmp_path, listener, capsys):
    def broken(cfg, state_dir):
        raise OSError("GPIO busy")

    code = run_service(None, tmp_path, box_factory=broken, env={"NOTIFY_SOCKET": listener.path})
    assert code == 1
    assert "cannot start: GPIO busy" in capsys.readouterr().err
    assert listener.wait_for("STATUS=Failed to start: GPIO busy", 1)


# -- the real process, stopped by a signal --------------------------------------------------------
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_stops_the_service_cleanly_within_2_s(tmp_path, listener, sig):
    site = english_config(tmp_path)
    state = tmp_path / "state"
    env = dict(os.environ, NOTIFY_SOCKET=listener.path, WATCHDOG_USEC="200000",
               PYTHONUNBUFFERED="1")
    env.pop("WATCHDOG_PID", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "spielleiter.device.cli", "run", "--sim", "--config", str(site),
         "--state-dir", str(state)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        ready = listener.wait_for("READY=1", 30)[0]
        assert "STATUS=Refereeing: main menu; simulated hardware" in ready
        listener.wait_for("WATCHDOG=1", 10, count=3)  # pings from the running loop
        proc.send_signal(sig)
        code = proc.wait(timeout=10)  # a guard against a hang, not a timing: that is a benchmark
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    out, err = proc.communicate()
    assert code == 0, err
    stopping = listener.wait_for("STOPPING=1", 1)[0]
    assert f"STATUS=Stopping ({sig.name}): goodbye shown, game saved" in stopping
    assert "Traceback" not in err
    frame = Image.open(state / SIM_FRAME).convert("1")
    assert frame.tobytes() == render(View("Spielleiter", ("See you soon!",),
                                          big="Goodbye")).tobytes()
    assert (state / "journal.sqlite3").exists()
