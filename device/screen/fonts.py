"""The type the OLED is drawn in: a bitmap font designed at each size the screens use.

Terminus (Debian's ``fonts-terminus-otb``: fixed width, Latin-1 complete, bitmaps drawn by hand
for every size) gives the small text at 12 px (6x12 cells: 21 characters a line) and the big word
in bold at 16 to 32 px; no size is a scaled copy of another, so letters keep the gaps their
designer gave them. Where a pair of glyphs would still touch (a few bold capitals and symbols
reach the edge of their cell) ``Face.place`` opens one pixel between them. The game pieces
(``GLYPHS``) are pictures, not letters: 7x7 bitmaps drawn at whole multiples, standing on the
baseline.

Without Terminus the box still starts: it draws with Pillow's built-in 6x11 font (scaled up for
the big word, as before there was Terminus), logs why once, and ``font_problem`` says so for the
self-test.
"""

from __future__ import annotations

import logging
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable

from PIL import Image, ImageDraw, ImageFont

log = logging.getLogger(__name__)

TERMINUS = Path("/usr/share/fonts/opentype/terminus")  # where fonts-terminus-otb installs
SMALL_SIZE = 12                                        # 6x12: 21 characters on 128 px
BIG_SIZES = (32, 28, 24, 22, 20, 18, 16)               # the big word, largest first
PIECE = 7                                              # a piece's bitmap: 7x7
PLACED_KEPT = 2048                                     # texts whose measures are kept

# Symbols the Latin-1 fonts lack (game pieces), each a 7x7 bitmap; write them as these characters
# in any View text. Other characters beyond Latin-1 show as their letter without the accent, or
# "?" (``drawn_as``).
GLYPHS: dict[str, str] = {  # rows top to bottom, "/" between rows
    "\u25cf": "..###../.#####./#######/#######/#######/.#####./..###..",  # circle
    "\u25a0": "#######/#######/##...##/##...##/##...##/#######/#######",  # square
    "\u25b2": "...#.../..###../..###../.#####./.#####./#######/#######",  # triangle
    "\u2605": "...#.../..###../#######/.#####./..###../.##.##./##...##",  # star
    "\u2665": ".##.##./#######/#######/#######/.#####./..###../...#...",  # heart
    "\u271a": "..###../..###../#######/#######/#######/..###../..###..",  # cross
    "\U0001f431": "#.....#/##...##/#######/#.###.#/#######/.#####./..###..",  # cat
    "\U0001f436": ".....##/....###/#...###/######./.####../.#..#../.#..#..",  # dog
    "\U0001f41f": "......./.###.../#.###.#/#######/#####.#/.###.../.......",  # fish
    "\U0001f426": ".##..../#.#..../####..#/.######/..####./...#.../..##...",  # bird (side)
    "\U0001f438": ".#...#./#.#.#.#/.#####./#######/#.###.#/.#####./##...##",  # frog
}


@lru_cache(maxsize=1024)
def drawn_as(ch: str) -> str:
    """The character the Latin-1 fonts draw for ``ch``: itself, its letter without the accent
    the fonts lack ("Ş" as "S", "ł" as "l"), or "?" when it has no Latin letter."""
    if ord(ch) < 256:
        return ch
    base = unicodedata.normalize("NFKD", ch)[:1]
    folded = {"ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ı": "i"}
    if ch in folded:
        return folded[ch]
    return base if base and ord(base) < 256 and base != ch else "?"


@dataclass(frozen=True, eq=False)
class Glyph:
    """One character's ink: ``mask`` goes at (pen + ``dx``, line top + ``dy``); the pen then moves
    on by ``advance``. ``left``/``right``: per row of the line, the first and last inked column
    from the pen (None: no ink in that row), to keep neighbours apart."""

    mask: Image.Image
    dx: int
    dy: int
    advance: int
    left: tuple[int | None, ...]
    right: tuple[int | None, ...]
    box: tuple[int, int, int, int] | None  # the ink's bounding box in ``mask``

    @classmethod
    def of(cls, mask: Image.Image, dx: int, dy: int, advance: int, rows: int) -> "Glyph":
        left: list[int | None] = [None] * rows
        right: list[int | None] = [None] * rows
        pixels = mask.load()
        assert pixels is not None
        for y in range(mask.height):
            row = y + dy
            if not 0 <= row < rows:
                continue
            inked = [x for x in range(mask.width) if pixels[x, y]]
            if inked:
                left[row], right[row] = inked[0] + dx, inked[-1] + dx
        return cls(mask, dx, dy, advance, tuple(left), tuple(right), mask.getbbox())


@dataclass(eq=False)
class Face:
    """A font at one size, as cells of ``cell_w`` x ``cell_h`` pixels. ``raster(ch)`` draws one
    character's cell (1-bit); ``spaced``: open a pixel where two glyphs' ink would touch."""

    name: str
    cell_w: int
    cell_h: int
    raster: Callable[[str], Image.Image]
    spaced: bool = True
    _glyphs: dict[str, Glyph] = field(default_factory=dict, repr=False)
    _gaps: dict[tuple[str, str], int] = field(default_factory=dict, repr=False)
    _placed: dict[str, list[tuple[int, Glyph]]] = field(default_factory=dict, repr=False)
    _inks: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False)

    @property
    def baseline(self) -> int:
        """The row below the capitals' feet (where a piece stands)."""
        return self._cap_rows[1]

    @property
    def cap_height(self) -> int:
        top, bottom = self._cap_rows
        return bottom - top

    @property
    def _cap_rows(self) -> tuple[int, int]:
        box = self.raster("H").getbbox()
        return (0, self.cell_h) if box is None else (box[1], box[3])

    def glyph(self, ch: str) -> Glyph:
        """The glyph drawn for ``ch``: a piece's bitmap, else the font's ``drawn_as(ch)``."""
        found = self._glyphs.get(ch)
        if found is None:
            found = self._glyphs[ch] = self._piece(ch) if ch in GLYPHS else \
                Glyph.of(self.raster(drawn_as(ch)), 0, 0, self.cell_w, self.cell_h)
        return found

    def _piece(self, ch: str) -> Glyph:
        scale = max(1, round(self.cap_height / PIECE))
        size = PIECE * scale
        small = Image.new("1", (PIECE, PIECE), 0)
        for row, bits in enumerate(GLYPHS[ch].split("/")):
            for col, bit in enumerate(bits):
                if bit == "#":
                    small.putpixel((col, row), 1)
        mask = small.resize((size, size), Image.Resampling.NEAREST)
        # one piece a cell of small text (it may reach a pixel into the blank edge of the cell
        # before); at the big sizes a cell as wide as the picture and a pixel
        advance = self.cell_w if scale == 1 else max(self.cell_w, size + 1)
        return Glyph.of(mask, (advance - size) // 2, max(0, self.baseline - size), advance,
                        self.cell_h)

    def gap(self, before: str, after: str) -> int:
        """Pixels to add between ``before`` and ``after`` so their ink keeps a blank column
        between them, also diagonally (0 for nearly every pair: the designer left one)."""
        key = (before, after)
        found = self._gaps.get(key)
        if found is None:
            found = self._gaps[key] = self._gap(self.glyph(before), self.glyph(after))
        return found

    def _gap(self, a: Glyph, b: Glyph) -> int:
        if not self.spaced:
            return 0
        need = 0
        for row, right in enumerate(a.right):
            if right is None:
                continue
            for near in (row - 1, row, row + 1):
                left = b.left[near] if 0 <= near < len(b.left) else None
                if left is not None:  # blank columns between them: a.advance + left - right - 1
                    need = max(need, 2 - (a.advance + left - right))
        return need

    def place(self, text: str) -> list[tuple[int, Glyph]]:
        """Each character of ``text`` with its pen position from the start of the text."""
        found = self._placed.get(text)
        if found is None:
            if len(self._placed) >= PLACED_KEPT:
                self._placed.clear()
            found = self._placed[text] = self._place(text)
        return found

    def _place(self, text: str) -> list[tuple[int, Glyph]]:
        out: list[tuple[int, Glyph]] = []
        pen, before = 0, None
        for ch in text:
            glyph = self.glyph(ch)
            if before is not None:
                pen += self.gap(before, ch)
            out.append((pen, glyph))
            pen += glyph.advance
            before = ch
        return out

    def ink(self, text: str) -> tuple[int, int]:
        """The first and one past the last inked column of ``text``, from its pen start
        ((0, 0) for text without ink)."""
        found = self._inks.get(text)
        if found is None:
            if len(self._inks) >= PLACED_KEPT:
                self._inks.clear()
            found = self._inks[text] = self._ink(text)
        return found

    def _ink(self, text: str) -> tuple[int, int]:
        lefts, rights = [], []
        for pen, glyph in self.place(text):
            if glyph.box is not None:
                lefts.append(pen + glyph.dx + glyph.box[0])
                rights.append(pen + glyph.dx + glyph.box[2])
        return (min(lefts), max(rights)) if lefts else (0, 0)

    def extent(self, text: str) -> tuple[int, int]:
        """Where ``text`` begins and ends from its pen start: its first cell to the last glyph's
        cell, less that cell's blank edge, widened by any ink beyond (a piece's); spaces count,
        so lines padded to one length line up when centred."""
        placed = self.place(text)
        if not placed:
            return 0, 0
        left, right = self.ink(text)
        pen, glyph = placed[-1]
        end = pen + glyph.advance - (1 if self.spaced or glyph.box is None else 0)
        return min(0, left), max(end, right)

    def width(self, text: str) -> int:
        """How wide ``text`` is drawn, in pixels (``extent``)."""
        left, right = self.extent(text)
        return right - left


@dataclass(frozen=True)
class TypeSet:
    """The faces and the vertical measures that go with them (``screens.layout`` uses these).

    A text line is a box ``line`` rows high, its glyphs drawn from ``text_dy`` rows below the box
    top; an inverted line (the title, the menu cursor) is a bar from ``bar_dy`` below the box top,
    ``line`` rows high. ``title_h``: rows the title takes, its gap below included; the footer's
    text sits on the bottom of the screen with its rule above it, ``rule_gap`` blank rows
    between the body and the rule."""

    small: Face
    big: tuple[Face, ...]            # largest first
    line: int
    text_dy: int
    bar_dy: int
    title_h: int
    rule_gap: int
    problem: str | None = None       # why this is not the type the box ships with

    @property
    def footer_h(self) -> int:
        """Rows from the end of the body to the bottom: the gap, the rule and the footer."""
        return self.rule_gap + 1 + self.small.cell_h + self.text_dy


def _terminus(weight: str, size: int) -> Face:
    path = TERMINUS / f"terminus-{weight}.otb"
    if not path.is_file():  # (Pillow would look for the name elsewhere; the box knows where)
        raise FileNotFoundError(f"no {path}")
    font = ImageFont.truetype(str(path), size)
    width, height = font.getmask("M", mode="1").size
    cells: dict[str, Image.Image] = {}

    def raster(ch: str) -> Image.Image:
        cell = cells.get(ch)
        if cell is None:
            cell = cells[ch] = Image.new("1", (width, height), 0)
            ImageDraw.Draw(cell).text((0, 0), ch, font=font, fill=1)
        return cell

    return Face(f"Terminus {weight} {size}", width, height, raster)


def _pillow(scale: int) -> Face:
    font = ImageFont.load_default_imagefont()
    width, height = 6, 11
    cells: dict[str, Image.Image] = {}

    def raster(ch: str) -> Image.Image:
        cell = cells.get(ch)
        if cell is None:
            cell = Image.new("1", (width, height), 0)
            ImageDraw.Draw(cell).text((0, 0), ch, font=font, fill=1)
            cell = cells[ch] = cell.resize((width * scale, height * scale), Image.Resampling.NEAREST)
        return cell

    return Face(f"Pillow default x{scale}", width * scale, height * scale, raster,
                spaced=scale > 1)


def terminus() -> TypeSet:
    """Terminus: normal 12 for the small text, bold for the big word (raises OSError when a
    file or a size is missing)."""
    return TypeSet(_terminus("normal", SMALL_SIZE),
                   tuple(_terminus("bold", size) for size in BIG_SIZES),
                   line=SMALL_SIZE, text_dy=0, bar_dy=1, title_h=13, rule_gap=1)


def fallback(problem: str) -> TypeSet:
    """Pillow's built-in 6x11 font, the big word that font scaled three or two times."""
    return TypeSet(_pillow(1), (_pillow(3), _pillow(2)), line=10, text_dy=-1, bar_dy=0,
                   title_h=12, rule_gap=0, problem=problem)


@lru_cache(maxsize=1)
def type_set() -> TypeSet:
    """The type the screens are drawn in: Terminus, else the fallback (logged once)."""
    try:
        return terminus()
    except OSError as error:
        problem = f"Terminus font missing ({error}): install fonts-terminus-otb"
        log.warning("%s; drawing with Pillow's built-in 6x11 font, scaled up for big words",
                    problem)
        return fallback(problem)


def font_problem() -> str | None:
    """Why the screens are not drawn in the type the box ships with (None: they are)."""
    return type_set().problem
