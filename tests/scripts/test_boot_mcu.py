"""The booted check's serial weighing: the stand-in microcontroller on the host streams the serial
reader's own lines and puts on its pan what the guest's console asks for, once per line; the host
judges the grams the box committed against the basket it put down."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

from spielleiter.drivers.loadcell.serial import parse_line

ROOT = Path(__file__).resolve().parents[2]


def module():
    spec = importlib.util.spec_from_file_location("boot_mcu", ROOT / "scripts" / "boot_mcu.py")
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


def log(*events: dict) -> list[str]:
    return [json.dumps(e) for e in events]


BASKET = {"event": "basket", "items": [4.3, 5.1, 3.8], "grams": 13.2, "at_s": 210.0}
END = {"event": "end", "lines_sent": 3120, "lines_dropped": 0}


def test_the_box_reading_the_basket_within_the_tolerance_passes():
    ok, text = module().judge("\r\nBOOTCHECK [ 400.2s] SERIAL WEIGHED grams=13.21 uart=/dev/ttyS0"
                              " after=3.9s\r\n", log(BASKET, END))
    assert ok, text
    assert text == ("serial weighing: the host put a basket of 13.20 g (4.3 + 5.1 + 3.8) on the "
                    "stand-in's pan, the box read 13.21 g through /dev/ttyS0 (off by +0.01 g; "
                    "within 0.05 g: yes); 3120 lines sent, 0 dropped")


def test_a_reading_off_by_more_or_none_at_all_fails():
    mcu = module()
    ok, text = mcu.judge("BOOTCHECK [ 400.2s] SERIAL WEIGHED grams=13.3 uart=/dev/ttyS0",
                         log(BASKET, END))
    assert not ok and "off by +0.10 g" in text
    ok, text = mcu.judge("BOOTCHECK [ 400.2s] FAIL serial weighing ...", log(BASKET))
    assert not ok and "the box committed no weighing" in text
    ok, text = mcu.judge("", log({"event": "start"}))
    assert not ok and "never asked for a basket" in text


def test_each_console_command_is_taken_once_even_when_the_console_shows_it_twice(tmp_path):
    console = tmp_path / "console.log"
    console.write_bytes(b"[  OK  ] Started spielleiter.service\r\n"
                        b"BOOTCHECK [ 120.0s] SERIAL PUT 200\r\nBOOTCHECK [ 120.0s] SERIAL PU")
    new = module().commands(console)
    assert new() == [("put", 200.0)]
    with console.open("ab") as f:  # the rest of a line written in two pieces, then a repeat
        f.write(b"T 0\r\nBOOTCHECK [ 120.0s] SERIAL PUT 200\r\nBOOTCHECK [ 130.5s] SERIAL BASKET\r\n")
    assert new() == [("put", 0.0), ("basket", None)]
    assert new() == []


def test_the_stand_in_streams_the_serial_readers_lines_and_puts_what_it_is_asked(tmp_path):
    mcu = module()
    master, slave = os.openpty()
    console = tmp_path / "console.log"
    console.write_text("BOOTCHECK [ 1.0s] SERIAL BASKET\n")
    guest = subprocess.Popen(  # the guest: gone once it has read a second of lines
        [sys.executable, "-c", "import os, sys\n"
         "fd, got = int(sys.argv[1]), b''\n"
         "while got.count(b'\\n') < 12:\n    got += os.read(fd, 4096)\n"
         "open(sys.argv[2], 'wb').write(got)\n", str(master), str(tmp_path / "got")],
        pass_fds=(master,))
    os.close(master)  # the guest's end is the child's alone: its exit closes the pty
    try:
        assert mcu.run(os.ttyname(slave), console, tmp_path / "mcu.jsonl", None, 7) == 0
    finally:
        guest.wait(timeout=60)
        os.close(slave)
    lines = (tmp_path / "got").read_bytes().decode().splitlines()
    assert [parse_line(line)[0] for line in lines[:12]] == ["D"] * 12
    events = [json.loads(line) for line in (tmp_path / "mcu.jsonl").read_text().splitlines()]
    assert [e["event"] for e in events] == ["start", "basket", "end"]
    assert events[1]["items"] == mcu.basket(7) and events[1]["grams"] == round(sum(mcu.basket(7)), 2)
