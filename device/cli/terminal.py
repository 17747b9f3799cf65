"""``spielleiter sim`` in a terminal: the OLED drawn with text characters, the keyboard pressing
gpiozero's mock pins (``Finger``: a key is a 50 ms tap, keys in the order typed), the real runtime
on its own thread in real time.

``layout`` is the whole picture as lines for a terminal of a given size, without curses (so it is
tested as text): the largest drawing of the 128x64 frame that leaves room for a status line and
the key legend. Every drawing shows every pixel: half blocks (1x2 pixels a character, 130x38
terminals), quadrant blocks (2x2, 66 columns and 38 rows) or Braille dots (2x4, from 66x22, so an
80x24 terminal shows the whole screen, its footer and the legend). A spare row carries the
screen's title and footer as plain text. A terminal too small for any drawing gets the screen as
text.

The status line tells what became of each press (``PressReport``: pressed, or ignored because the
screen had just changed); the legend's "Pans:" line what lies on the simulated pans and the mass
in hand (``hand.Hand``).
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from PIL import Image

from ...drivers.buttons import mock_factory
from ...drivers.display import open_device, to_blocks
from ..box import Box
from ..config.core import Config
from ..i18n import N_, _, seat_name
from ..screen.render import View
from .finger import Finger
from .hand import BACKSPACE, Hand
from .headless import trim_pin_history
from .keys import HOLD_KEY, QUIT_KEY, UNDO_KEY, key_map, legend

if TYPE_CHECKING:
    from ..app import App

FRAME_W, FRAME_H = 128, 64
_BRAILLE_BITS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10),
                 (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))  # (dx, dy, bit) of a 2x4 cell


def half_blocks(image: Image.Image) -> str:
    """Full resolution: one character per pixel column, two pixel rows per character."""
    frame = image.convert("1")
    px = frame.load()
    assert px is not None
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
    assert px is not None
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
    """The screen's big word, its title, the menu line the cursor is on and the footer in one
    line of plain text, under the picture (Braille dots draw the small font legibly only on
    some terminal fonts, and a menu is worked by its highlighted line). The big word leads, as
    it does on the OLED: "3" and then "POINT!" before the countdown's title, which names all of
    it ("3, 2, 1, POINT!") from the start."""
    shown = not view.blank
    big = f"*{view.big}*" if view.big and shown else ""
    title = f"[{view.title}]" if view.title and shown else ""
    cursor = view.cursor
    chosen = f"> {view.lines[cursor]}" if shown and cursor is not None \
        and 0 <= cursor < len(view.lines) else ""
    footer = f"({view.footer})" if view.footer else ""
    return "  ".join(part for part in (big, title, chosen, footer) if part)


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


def decode(ch: int, names: Mapping[str, int]) -> str:
    """A curses key code as the character the key maps use: Enter "\n", Backspace "\b",
    Esc "\x1b", the right arrow "n" (NEXT); "" for any other key without a character.
    ``names`` is curses' codes (``KEY_ENTER`` ...), passed in so this runs without a terminal."""
    special = {10: "\n", 13: "\n", 127: BACKSPACE, 8: BACKSPACE, 27: "\x1b"}
    if ch in special:
        return special[ch]
    if ch == names.get("KEY_ENTER"):
        return "\n"
    if ch in (names.get("KEY_BACKSPACE"), names.get("KEY_LEFT")):
        return BACKSPACE
    if ch == names.get("KEY_RIGHT"):
        return "n"
    return chr(ch) if 0 <= ch < 256 else ""


# The buzzer's patterns as the status line says them.
BEEPS = {"click": N_("click"), "error": N_("error"), "go": N_("go"), "score": N_("score"),
         "tick": N_("tick"), "win": N_("win")}


class PressReport:
    """What became of each button press, for the status line: after a screen changes the box
    ignores short presses for ``guard_s`` (a press meant for the old screen never acts on the new
    one), and a press that finds the screen off only wakes it. So the status says "pressing"
    when the key is typed and the truth once the box has taken the press.

    It follows the App's own decision: ``app.inputs.guarded``, which ``App.on_press`` asks once
    for every press that reached it (the screen was on), is wrapped to record the answer.
    """

    def __init__(self, app: "App", on_outcome: Callable[[], None] = lambda: None) -> None:
        self.app = app
        self.outcomes: queue.SimpleQueue[tuple[bool, str]] = queue.SimpleQueue()
        self._on_outcome = on_outcome
        inner = app.inputs.guarded

        def guarded(press: Any) -> bool:  # on the loop thread
            ignored = inner(press)
            self.outcomes.put((ignored, self.describe(press.name, press.hold, ignored)))
            self._on_outcome()
            return ignored

        app.inputs.guarded = guarded  # type: ignore[method-assign]  # the sim's status line hears it

    def button(self, name: str) -> str:
        """A pin-map name as the table knows the key: "host.next" is NEXT, "s1.A" is the first
        station's A ("Red A")."""
        place, _dot, key = name.partition(".")
        if place == "host":
            return key.upper()
        if place.startswith("s") and place[1:].isdigit():
            return f"{self.app.station_name(int(place[1:]) - 1)} {key}"
        return name

    def describe(self, name: str, hold: bool, ignored: bool) -> str:
        name = self.button(name)
        if ignored:
            return _("ignored {button}: the screen had just changed").format(button=name)
        return (_("held {button}") if hold else _("pressed {button}")).format(button=name)

    def typed(self, name: str, hold: bool) -> str:
        """The note when the key is typed (the press reaches the box when the finger lifts)."""
        name = self.button(name)
        if self.app.saver.state == "off":
            return _("{button} wakes the screen (the press does nothing else)").format(button=name)
        return (_("holding {button}") if hold else _("pressing {button}")).format(button=name)

    def latest(self) -> str | None:
        """The newest outcome since the last call (several fast presses: the last one, with a
        count of the ignored ones among them), or None."""
        got = []
        while True:
            try:
                got.append(self.outcomes.get_nowait())
            except queue.Empty:
                break
        if not got:
            return None
        ignored = sum(was_ignored for was_ignored, _text in got[:-1])
        more = _(" ({n} more ignored: the screen had just changed)").format(n=ignored) \
            if ignored else ""
        return got[-1][1] + more


def new_game_note(hand: Hand, seen: dict[str, Any], kind: str, payload: dict[str, Any]) -> str:
    """An App listener's work: when a new game starts while something lies on the simulated pans,
    the note that says so (a real pan keeps it too); otherwise ""."""
    state = payload.get("state") if kind == "state" else None
    if not isinstance(state, dict) or state.get("game_id") == seen.get("game_id"):
        return ""
    seen["game_id"] = state.get("game_id")
    if state.get("actions") or not hand.loaded:
        return ""
    return _("new game: the pans still hold what lay on them (0 lifts it all)")


class _Screen:
    """Holds the newest frame for the curses thread (display writes come from the loop thread)."""

    def __init__(self) -> None:
        self.frame: Image.Image | None = None
        self.changed = threading.Event()

    def on_frame(self, image: Image.Image) -> None:
        self.frame = image.copy()
        self.changed.set()


def run_terminal(config: Config, state_dir: Path, link: str | None,
                 watch_path: str | None, language: str | None = None,
                 cells: str = "real") -> int:
    """The interactive simulator: curses draws the screen, keys press the mock pins."""
    import curses

    screen = _Screen()
    keys = key_map(len(config.stations))
    box = Box.build(config, state_dir, pin_factory=mock_factory(),
                    display_device=open_device("dummy"), on_frame=screen.on_frame,
                    link_url=link, language=language, sim_cells=cells)
    sim = box.scales.sim if box.scales is not None else None
    sim_pans = tuple(box.scales.pans) if box.scales is not None and sim is not None else ()
    hand = Hand(sim_pans, box.put, box.pieces if sim is not None else None)
    stations = [seat_name(station.name) for station in config.stations]
    report = PressReport(box.app, screen.changed.set)
    told: list[str] = []  # a note from the loop thread (a new game on loaded pans)
    seen: dict[str, Any] = {}

    def on_app(kind: str, payload: dict[str, Any]) -> None:
        note = new_game_note(hand, seen, kind, payload)
        if note:
            told.append(note)
            screen.changed.set()

    box.app.listeners.append(on_app)
    loop = threading.Thread(target=box.runtime.run_forever, name="runtime", daemon=True)
    loop.start()

    finger = Finger(box._pin, debounce_s=config.debounce_s)

    def draw(stdscr: Any, note: str) -> None:
        height, width = stdscr.getmaxyx()
        beeps = " ".join(_(BEEPS.get(b, b)) for b in list(box.beeper.played)[-4:])
        status = "   ".join(part for part in (note, _("buzzer: {sounds}").format(sounds=beeps)
                                               if beeps else "") if part)
        if watch_path:
            status = f"{status}   link: spielleiter watch {watch_path}".strip()
        keys_help = legend(stations, width, hand.pans, hand.on_pans(), hand.prompt())
        rows = layout(width, height, screen.frame, keys_help, status, box.last_view)
        stdscr.erase()
        for y, row in enumerate(rows):
            try:
                stdscr.addstr(y, 0, row[: width - 1] if y == height - 1 else row)
            except curses.error:  # curses refuses the bottom-right cell; nothing to do
                pass
        stdscr.refresh()

    def ui(stdscr: Any) -> None:
        curses.curs_set(0)
        curses.set_escdelay(25)  # Esc (cancel a typed mass) without curses' one-second wait
        stdscr.timeout(100)
        names = {name: getattr(curses, name) for name in
                 ("KEY_ENTER", "KEY_BACKSPACE", "KEY_LEFT", "KEY_RIGHT")}
        note = ""  # the status line's news: kept until newer news replaces it
        holding = False  # HOLD_KEY was typed: the next button is held
        dirty = True
        while True:
            ch = stdscr.getch()
            if ch == ord(QUIT_KEY) and hand.typed is None:
                return
            if ch == -1:  # idle for a moment: gpiozero's pin histories start afresh
                trim_pin_history(box.pin_factory)
            if ch != -1:
                dirty = True
                key = decode(ch, names)
                if hand.wants(key):
                    note = hand.key(key) or note
                elif key == UNDO_KEY:
                    finger.press("host.back", config.hold_s + 0.3)
                    note = report.typed("host.back", True) + _(" (undo)")
                elif key == HOLD_KEY:
                    holding = True
                    note = _("hold: now the button")
                elif key in keys or (key == BACKSPACE and "b" in keys):
                    name = keys[key if key in keys else "b"]
                    finger.press(name, config.hold_s + 0.3 if holding else None)
                    note = report.typed(name, holding)
                    holding = False
            outcome = report.latest()
            if outcome is not None:
                note = outcome
            while told:
                note = told.pop(0)
            if screen.changed.is_set() or dirty:
                screen.changed.clear()
                draw(stdscr, note)
                dirty = False

    try:
        curses.wrapper(ui)
    finally:
        box.runtime.stop("quit")
        loop.join(timeout=2)
        box.close()
    return 0
