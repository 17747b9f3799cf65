"""``spielleiter sim`` in a terminal: the OLED drawn with text characters, the keyboard pressing
gpiozero's mock pins (a key press is a 120 ms finger on the button), the real runtime on its own
thread in real time.

``layout`` is the whole picture as lines for a terminal of a given size, without curses (so it is
tested as text): the largest drawing of the 128x64 frame that leaves room for a status line and
the key legend. Every drawing shows every pixel: half blocks (1x2 pixels a character, 130x38
terminals), quadrant blocks (2x2, 66 columns and 38 rows) or Braille dots (2x4, from 66x22, so an
80x24 terminal shows the whole screen, its footer and the legend). A spare row carries the
screen's title and footer as plain text. A terminal too small for any drawing gets the screen as
text.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from PIL import Image

from ...drivers.buttons import mock_factory
from ...drivers.display import open_device, to_blocks
from ..box import Box
from ..config import Config
from ..screens import View
from .keys import HOLD_KEY, PAN_KEYS, PAN_MASSES_G, QUIT_KEY, UNDO_KEY, key_map, legend

FRAME_W, FRAME_H = 128, 64
_BRAILLE_BITS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10),
                 (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))  # (dx, dy, bit) of a 2x4 cell


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


def braille(image: Image.Image) -> str:
    """Full resolution in a quarter of the rows: one Braille cell per 2x4 pixels, a dot per
    lit pixel (64x16 characters for the 128x64 screen)."""
    frame = image.convert("1")
    px = frame.load()
    width, height = frame.size
    rows = []
    for y in range(0, height, 4):
        row = []
        for x in range(0, width, 2):
            bits = 0
            for dx, dy, bit in _BRAILLE_BITS:
                if x + dx < width and y + dy < height and px[x + dx, y + dy]:
                    bits |= bit
            row.append(chr(0x2800 + bits))
        rows.append("".join(row))
    return "\n".join(rows)


# (draw, columns, rows) for the 128x64 frame, largest first
DRAWINGS: tuple[tuple[Callable[[Image.Image], str], int, int], ...] = (
    (half_blocks, FRAME_W, FRAME_H // 2), (to_blocks, FRAME_W // 2, FRAME_H // 2),
    (braille, FRAME_W // 2, FRAME_H // 4))


def caption(view: View) -> str:
    """The screen's title, big word and footer in one line of plain text, under the picture
    (Braille dots draw the small font legibly only on some terminal fonts)."""
    title = f"[{view.title}]" if view.title and not view.blank else ""
    big = view.big if view.big and not view.blank else ""
    footer = f"({view.footer})" if view.footer else ""
    return "  ".join(part for part in (title, big, footer) if part)


def layout(width: int, height: int, frame: Image.Image | None, legend_lines: Sequence[str],
           status: str = "", view: View | None = None) -> list[str]:
    """What a ``width`` x ``height`` terminal shows: the framed picture, the screen's
    ``caption`` if there is room, ``status``, then the legend; each line at most ``width`` long
    and at most ``height`` lines. Without room for a picture: ``view`` as text instead, the legend
    after it as far as it fits."""
    view = view if view is not None else View()
    legend_lines = [line[:width] for line in legend_lines]
    for draw, cols, rows in DRAWINGS:
        if cols + 2 <= width and rows + 3 + len(legend_lines) <= height:
            art = draw(frame).splitlines() if frame is not None else [" " * cols] * rows
            picture = (["┌" + "─" * cols + "┐"] + [f"│{line}│" for line in art]
                       + ["└" + "─" * cols + "┘"])
            spare = height - (rows + 3 + len(legend_lines))
            under = [caption(view)[:width]] if spare > 0 else []
            return picture + under + [status[:width]] + legend_lines
    smallest = DRAWINGS[-1]
    need = f"{smallest[1] + 2}x{smallest[2] + 3 + len(legend_lines)}"
    text = [f"(terminal {width}x{height}: the picture needs {need})",
            *view.as_text().splitlines(), status]
    return [line[:width] for line in (text + legend_lines)][:height]


class _Screen:
    """Holds the newest frame for the curses thread (display writes come from the loop thread)."""

    def __init__(self) -> None:
        self.frame: Image.Image | None = None
        self.changed = threading.Event()

    def on_frame(self, image: Image.Image) -> None:
        self.frame = image.copy()
        self.changed.set()


def run_terminal(config: Config, state_dir: Path, link: str | None,
                 watch_path: str | None, language: str | None = None) -> int:
    """The interactive simulator: curses draws the screen, keys press the mock pins."""
    import curses

    screen = _Screen()
    keys = key_map(len(config.stations))
    box = Box.build(config, state_dir, pin_factory=mock_factory(),
                    display_device=open_device("dummy"), on_frame=screen.on_frame,
                    link_url=link, language=language)
    sim_pans = tuple(box.scales.pans) if box.scales is not None and box.scales.sim else ()
    stations = [station.name for station in config.stations]
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

    def draw(stdscr: Any, note: str) -> None:
        height, width = stdscr.getmaxyx()
        beeps = " ".join(list(box.beeper.played)[-4:])
        status = "   ".join(part for part in (note, f"buzzer: {beeps}" if beeps else "") if part)
        if watch_path:
            status = f"{status}   link: spielleiter watch {watch_path}".strip()
        rows = layout(width, height, screen.frame, legend(stations, width, sim_pans), status,
                      box.last_view)
        stdscr.erase()
        for y, row in enumerate(rows):
            try:
                stdscr.addstr(y, 0, row[: width - 1] if y == height - 1 else row)
            except curses.error:  # curses refuses the bottom-right cell; nothing to do
                pass
        stdscr.refresh()

    def ui(stdscr: Any) -> None:
        curses.curs_set(0)
        stdscr.timeout(100)
        note = ""
        holding = False  # HOLD_KEY was typed: the next button is held
        while True:
            ch = stdscr.getch()
            if ch == ord(QUIT_KEY):
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
                elif key == HOLD_KEY:
                    holding = True
                    note = "hold: now the button"
                elif key in PAN_KEYS and PAN_KEYS[key] in sim_pans:
                    pan = PAN_KEYS[key]
                    now = pan_mass.get(pan, 0.0)
                    nxt = PAN_MASSES_G[(PAN_MASSES_G.index(now) + 1) % len(PAN_MASSES_G)]
                    box.put(pan, nxt - now)
                    pan_mass[pan] = nxt
                    note = f"{pan} pan: {nxt:g} g"
                elif key in keys:
                    press(keys[key], config.hold_s + 0.3 if holding else 0.12)
                    note = f"{'held' if holding else 'pressed'} {keys[key]}"
                    holding = False
            if ch == -1 and not screen.changed.is_set() and not note:
                continue
            screen.changed.clear()
            draw(stdscr, note)
            note = ""

    try:
        curses.wrapper(ui)
    finally:
        box.runtime.stop("quit")
        loop.join(timeout=2)
        box.close()
    return 0
