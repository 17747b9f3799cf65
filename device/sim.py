"""``spielleiter sim``: the whole device in a terminal, on gpiozero's ``MockFactory``.

Interactive: the OLED is drawn with block characters, the keyboard presses the mock pins (a key
press is a 120 ms finger on the button), the real runtime runs on its own thread in real time.
Headless (``--headless``): commands on stdin, one JSON line out per command, on a ``ManualClock``;
this is how scripts and tests drive the device (``tap host.ok``, ``hold host.back 1.5``,
``idle 3``, ``keys 1 2 3``, ``show``).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

from PIL import Image

from ..drivers.buttons import mock_factory
from ..drivers.display import open_device, to_blocks
from ..drivers.link import NullModem
from . import config as config_mod
from .box import Box
from .runtime import ManualClock

log = logging.getLogger(__name__)

HOST_KEYS = {"b": "host.back", "o": "host.ok", "\n": "host.ok", " ": "host.next",
             "n": "host.next"}
STATION_KEYS = ["123", "456", "789", "qwe", "asd", "zxc", "rty", "fgh"]
UNDO_KEY = "u"
PAN_KEYS = {"[": "left", "]": "right"}
PAN_MASSES_G = (0.0, 5.0, 12.3, 12.4, 50.0, 200.0)  # what [ and ] cycle through, grams


def key_map(stations: int) -> dict[str, str]:
    """Keyboard key -> button name, for the host panel and each wired station."""
    keys = dict(HOST_KEYS)
    for number, row in enumerate(STATION_KEYS[:stations], start=1):
        for key, button in zip(row, "ABC"):
            keys[key] = f"s{number}.{button}"
    return keys


def legend(stations: int) -> list[str]:
    lines = ["Host panel:  b = BACK   o/Enter = OK   n/Space = NEXT   u = hold BACK (undo)"]
    for number, row in enumerate(STATION_KEYS[:stations], start=1):
        lines.append(f"Station {number}:   {row[0]} = A   {row[1]} = B   {row[2]} = C")
    lines.append("Pans:        [ = left pan mass   ] = right pan mass (cycles 0, 5, 12.3, "
                 "12.4, 50, 200 g)")
    lines.append("Q = quit")
    return lines


def half_blocks(image: Image.Image) -> str:
    """Full resolution: one character per pixel column, two pixel rows per character."""
    frame = image.convert("1")
    px = frame.load()
    rows = []
    for y in range(0, frame.height, 2):
        row = []
        for x in range(frame.width):
            top, bottom = px[x, y], px[x, y + 1] if y + 1 < frame.height else 0
            row.append("█" if top and bottom else "▀" if top else "▄" if bottom else " ")
        rows.append("".join(row))
    return "\n".join(rows)


def default_state_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "spielleiter-sim"


def run_sim(state_dir: Path | None = None, headless: bool = False,
            config_path: Path | None = None, link: str | None = None,
            link_pty: bool = False) -> int:
    try:
        config = config_mod.load(config_path)
    except config_mod.ConfigError as exc:
        for problem in exc.problems:
            print(f"spielleiter sim: {problem}", file=sys.stderr)
        return 2
    state_dir = state_dir or default_state_dir()
    if not headless and not sys.stdin.isatty():
        print("spielleiter sim: needs a terminal (or use --headless)", file=sys.stderr)
        return 2
    cable = None
    if link_pty:
        cable = NullModem()
        link = cable.ends[0]
        print(f"spielleiter sim: link on a simulated cable; follow it with: "
              f"spielleiter watch {cable.ends[1]}", file=sys.stderr, flush=True)
    try:
        if headless:
            return _headless(config, state_dir, link)
        return _interactive(config, state_dir, link, cable.ends[1] if cable else None)
    finally:
        if cable is not None:
            cable.close()


# -- headless -------------------------------------------------------------------------------------
def _headless(config: config_mod.Config, state_dir: Path, link: str | None) -> int:
    keys = key_map(len(config.stations))
    with Box.build(config, state_dir, pin_factory=mock_factory(),
                   display_device=open_device("dummy"), clock=ManualClock(),
                   link_url=link) as box:
        lock = threading.Lock()
        done = threading.Event()
        if link:
            # Link lines arrive on their own thread: handle them between stdin commands.
            def pump_link() -> None:
                while not done.is_set():
                    box.runtime.posted.wait()
                    with lock:
                        box.runtime.posted.clear()
                        box.runtime.pump()

            threading.Thread(target=pump_link, name="link pump", daemon=True).start()
        with lock:
            box.runtime.pump()
            _report(box, "start")
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            with lock:
                try:
                    _command(box, words, keys)
                except (KeyError, ValueError, IndexError) as exc:
                    print(json.dumps({"error": f"bad command {line.strip()!r}: {exc}"}),
                          flush=True)
                    continue
                _report(box, line.strip())
        done.set()
        box.runtime.posted.set()
    return 0


def _command(box: Box, words: list[str], keys: dict[str, str]) -> None:
    verb = words[0]
    if verb == "tap":
        for name in words[1:]:
            box.config.button_pins()[name]  # KeyError for an unknown button
            box.tap(name)
    elif verb == "hold":
        box.hold(words[1], float(words[2]))
        box.idle(0.2)
    elif verb == "idle":
        box.idle(float(words[1]))
    elif verb == "put":
        pan, grams = words[1], float(words[2])
        if pan not in ("left", "right"):
            raise ValueError("put left|right GRAMS (negative takes off)")
        box.put(pan, grams)
        box.idle(0.1)
    elif verb == "keys":
        for key in words[1:]:
            if key == UNDO_KEY:
                box.hold("host.back", box.config.hold_s + 0.2)
                box.idle(0.2)
            else:
                box.tap(keys[key])
    elif verb != "show":
        raise ValueError("use tap, hold, idle, keys, put or show")


def _report(box: Box, command: str) -> None:
    session = box.app.session
    print(json.dumps({
        "command": command,
        "mode": box.app.mode,
        "view": box.last_view.as_text(),
        "state": session.state.public() if session else None,
        "actions": len(session.actions) if session else 0,
        "frames": box.display.frames_sent,
    }, ensure_ascii=False), flush=True)


# -- interactive ----------------------------------------------------------------------------------
class _Screen:
    """Holds the newest frame for the curses thread (display writes come from the loop thread)."""

    def __init__(self) -> None:
        self.frame: Image.Image | None = None
        self.changed = threading.Event()

    def on_frame(self, image: Image.Image) -> None:
        self.frame = image.copy()
        self.changed.set()


def _interactive(config: config_mod.Config, state_dir: Path, link: str | None,
                 watch_path: str | None) -> int:
    import curses

    screen = _Screen()
    keys = key_map(len(config.stations))
    box = Box.build(config, state_dir, pin_factory=mock_factory(),
                    display_device=open_device("dummy"), on_frame=screen.on_frame,
                    link_url=link)
    help_lines = legend(len(config.stations))
    if watch_path:
        help_lines.append(f"Serial link: spielleiter watch {watch_path}")
    loop = threading.Thread(target=box.runtime.run_forever, name="runtime", daemon=True)
    loop.start()

    free_at: dict[str, float] = {}
    pan_mass: dict[str, float] = {}

    def press(name: str, seconds: float) -> None:
        """A finger on the button; keys typed faster than a finger queue up behind it."""
        pin = box._pin(name)
        start = max(time.monotonic(), free_at.get(name, 0.0))
        free_at[name] = start + seconds + 0.06
        delay = start - time.monotonic()
        threading.Timer(delay, pin.drive_low).start()
        threading.Timer(delay + seconds, pin.drive_high).start()

    def ui(stdscr: Any) -> None:
        curses.curs_set(0)
        stdscr.timeout(100)
        note = ""
        while True:
            ch = stdscr.getch()
            if ch == ord("Q"):
                return
            if ch != -1:
                key = "\n" if ch in (10, 13, curses.KEY_ENTER) else chr(ch) if ch < 256 else ""
                if ch in (curses.KEY_BACKSPACE, 127, curses.KEY_LEFT):
                    key = "b"
                elif ch == curses.KEY_RIGHT:
                    key = "n"
                if key == UNDO_KEY:
                    press("host.back", config.hold_s + 0.3)
                    note = "holding BACK (undo)"
                elif key in PAN_KEYS and box.scales is not None and box.scales.sim is not None:
                    pan = PAN_KEYS[key]
                    now = pan_mass.get(pan, 0.0)
                    nxt = PAN_MASSES_G[(PAN_MASSES_G.index(now) + 1) % len(PAN_MASSES_G)]
                    box.put(pan, nxt - now)
                    pan_mass[pan] = nxt
                    note = f"{pan} pan: {nxt:g} g"
                elif key in keys:
                    press(keys[key], 0.12)
                    note = f"pressed {keys[key]}"
            if ch == -1 and not screen.changed.is_set() and not note:
                continue
            screen.changed.clear()
            _draw(stdscr, screen.frame, help_lines, note, box)
            note = ""

    try:
        curses.wrapper(ui)
    finally:
        box.runtime.stop("quit")
        loop.join(timeout=2)
        box.close()
    return 0


def _draw(stdscr: Any, frame: Image.Image | None, help_lines: list[str], note: str,
          box: Box) -> None:
    stdscr.erase()
    height, width = stdscr.getmaxyx()
    art = ""
    if frame is not None:
        art = half_blocks(frame) if width >= 130 else to_blocks(frame)
    lines = art.splitlines()
    frame_width = len(lines[0]) if lines else 64
    rows = ["┌" + "─" * frame_width + "┐"] + [f"│{line}│" for line in lines] + \
        ["└" + "─" * frame_width + "┘"]
    beeps = " ".join(list(box.beeper.played)[-4:])
    rows += help_lines + [f"buzzer: {beeps}", note]
    for y, row in enumerate(rows[: height - 1]):
        try:
            stdscr.addstr(y, 0, row[: width - 1])
        except Exception:  # curses refuses the bottom-right cell; nothing to do
            pass
    stdscr.refresh()
