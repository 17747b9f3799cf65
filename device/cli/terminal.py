"""``spielleiter sim`` in a terminal: the OLED drawn with block characters, the keyboard
pressing gpiozero's mock pins (a key press is a 120 ms finger on the button), the real runtime on
its own thread in real time.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from PIL import Image

from ...drivers.buttons import mock_factory
from ...drivers.display import open_device, to_blocks
from ..box import Box
from ..config import Config
from .keys import UNDO_KEY, key_map, legend

PAN_KEYS = {"[": "left", "]": "right"}
PAN_MASSES_G = (0.0, 5.0, 12.3, 12.4, 50.0, 200.0)  # what [ and ] cycle through, grams


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


class _Screen:
    """Holds the newest frame for the curses thread (display writes come from the loop thread)."""

    def __init__(self) -> None:
        self.frame: Image.Image | None = None
        self.changed = threading.Event()

    def on_frame(self, image: Image.Image) -> None:
        self.frame = image.copy()
        self.changed.set()


def run_terminal(config: Config, state_dir: Path, link: str | None,
                 watch_path: str | None) -> int:
    """The interactive simulator: curses draws the screen, keys press the mock pins."""
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
                elif (key in PAN_KEYS and box.scales is not None and box.scales.sim is not None
                      and PAN_KEYS[key] in box.scales.pans):
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
