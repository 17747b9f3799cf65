"""Screens: a ``View`` (what to say) rendered to a 128x64 1-bit image (how it looks).

Referees and menus only build Views, so their logic is tested on text; ``render`` is the one pure
function that draws. The font is Pillow's built-in bitmap font (6x11 px, crisp without
anti-aliasing): 21 characters a line, a title bar, four body lines and a footer of button hints.
The word that matters (``big``) is that font scaled up without blur: three times (18 px capitals,
about 7 characters, a pixel apart) when the screen has room, else twice (12 px capitals, up to 10 characters).
"""

from __future__ import annotations

import textwrap
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
CHARS = 21
LINE = 10
GLYPH_W, GLYPH_H = 6, 11       # one character cell of the bitmap font
TITLE_H, FOOTER_H = 12, 11     # the title bar (with its gap) and the footer (with its rule)
PAGE_LINES = 3                 # small lines a page (not a menu) may carry: one idea a screen


@lru_cache(maxsize=1)
def font() -> ImageFont.ImageFont:
    return ImageFont.load_default_imagefont()


# Symbols the Latin-1 bitmap font lacks (game pieces), each a 7x7 bitmap drawn over one character
# cell; write them as these characters in any View text. Other characters beyond Latin-1 show as
# their letter without the accent, or "?" (``drawn_as``).
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
    "\U0001f426": "......./##...##/.##.##./..###../...#.../......./.......",  # bird
    "\U0001f438": ".#...#./#.#.#.#/.#####./#######/#.###.#/.#####./##...##",  # frog
}


@lru_cache(maxsize=1024)
def drawn_as(ch: str) -> str:
    """The character the Latin-1 bitmap font draws for ``ch``: itself, its letter without the
    accent the font lacks ("Ş" as "S", "ł" as "l"), or "?" when it has no Latin letter."""
    if ord(ch) < 256:
        return ch
    base = unicodedata.normalize("NFKD", ch)[:1]
    folded = {"ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ı": "i"}
    if ch in folded:
        return folded[ch]
    return base if base and ord(base) < 256 and base != ch else "?"


def cannot_show(text: str) -> str:
    """The characters of ``text`` the screen can only draw as "?" (empty when all show)."""
    return "".join(ch for ch in text if ch not in GLYPHS and drawn_as(ch) == "?")


def _plain(text: str) -> str:
    """``text`` as the bitmap font can draw it: glyph cells blank, others as ``drawn_as``."""
    return "".join(" " if ch in GLYPHS else drawn_as(ch) for ch in text)


def _text(draw: ImageDraw.ImageDraw, x: int, y: int, text: str, fill: int) -> None:
    """Draw ``text`` at (x, y) with the bitmap font, then any ``GLYPHS`` in their cells."""
    plain = _plain(text)
    draw.text((x, y), plain, font=font(), fill=fill)
    for index, ch in enumerate(text):
        bitmap = GLYPHS.get(ch)
        if bitmap is not None:
            left = x + int(draw.textlength(plain[:index], font=font())) - 1
            for row, bits in enumerate(bitmap.split("/")):
                for col, bit in enumerate(bits):
                    if bit == "#":
                        draw.point((left + col, y + 2 + row), fill=fill)


@dataclass(frozen=True)
class View:
    """What one screen says.

    ``lines`` fill the body (menus mark ``cursor``); ``big`` is one short word drawn double size
    (a countdown, a score); ``footer`` names what the buttons do. ``blank`` clears the screen
    (privacy between hot-seat players) but may still carry a footer.
    """

    title: str = ""
    lines: tuple[str, ...] = ()
    big: str | None = None
    footer: str = ""
    cursor: int | None = None
    blank: bool = False

    def as_text(self) -> str:
        """The view as plain text, for logs, the serial link and the closing notes."""
        out = [f"[{self.title}]"] if self.title else []
        if self.big:
            out.append(f"  ** {self.big} **")
        for i, line in enumerate(self.lines):
            out.append(("> " if i == self.cursor else "  ") + line)
        if self.footer:
            out.append(f"({self.footer})")
        return "\n".join(out)


def wrap(text: str, width: int = CHARS) -> list[str]:
    """Break ``text`` into lines of at most ``width`` characters (long words are cut)."""
    return textwrap.wrap(text, width, break_long_words=True) or [""]


def pack(parts: list[str], sep: str = ", ") -> list[str]:
    """Join ``parts`` into lines of at most CHARS characters without breaking a part."""
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + len(sep) + len(part) <= CHARS:
            lines[-1] += sep + part
        else:
            lines.append(part[:CHARS])
    return lines


def _clip(text: str, width: int = CHARS) -> str:
    return text if len(text) <= width else text[: width - 1] + "~"


def _centre_x(draw: ImageDraw.ImageDraw, text: str, scale: int = 1) -> int:
    left, _, right, _ = draw.textbbox((0, 0), _plain(text), font=font())
    return max(0, (WIDTH - (right - left) * scale) // 2)


@dataclass(frozen=True)
class Layout:
    """Where a view's parts go on the 128x64 screen: the one place both ``render`` and
    ``misfits`` (the fit check in the tests) take their measures from."""

    top: int          # first pixel row of the big word, or of the body when there is none
    scale: int        # the big word's scale (0: no big word)
    body_top: int
    footer_top: int   # HEIGHT when there is no footer
    room: int         # body lines that fit


def layout(view: View) -> Layout:
    """Lay ``view`` out: the big word at 3x when it and the body fit, else at 2x."""
    top = TITLE_H if view.title and not view.blank else 0
    footer_top = HEIGHT - FOOTER_H if view.footer else HEIGHT
    if not view.big or view.blank:
        return Layout(top, 0, top, footer_top, max(0, (footer_top - top) // LINE))
    for scale in (3, 2):
        body_top = top + GLYPH_H * scale + 2
        room = max(0, (footer_top - body_top) // LINE)
        wide_enough = big_width(view.big, scale) * scale <= WIDTH
        if scale == 2 or (wide_enough and room >= len(view.lines)):
            return Layout(top, scale, body_top, footer_top, room)
    raise AssertionError("unreachable")


def misfits(view: View) -> list[str]:
    """What of ``view`` the OLED would clip, cut or crowd (empty when it fits): the check every
    screen of every demo passes in both languages."""
    out = []
    if len(view.title) > CHARS:
        out.append(f"title {len(view.title)} chars")
    if len(view.footer) > CHARS:
        out.append(f"footer {len(view.footer)} chars")
    if view.blank:
        return out
    if view.big and big_width(view.big, 2) * 2 > WIDTH:
        out.append(f"big {view.big!r} {big_width(view.big, 2) * 2} px wide")
    out += [f"line {line!r} {len(line)} chars" for line in view.lines if len(line) > CHARS]
    room = layout(view).room
    if view.cursor is None and len(view.lines) > room:  # menus scroll; pages must not
        out.append(f"{len(view.lines)} lines, room for {room}")
    return out


def crowded(view: View) -> bool:
    """A page (not a menu, not a list the player scrolls) with more small lines than one idea
    needs: split it or say the point in ``big``."""
    return view.cursor is None and not view.blank and len(view.lines) > PAGE_LINES


def _ink(ch: str) -> tuple[int, int]:
    """Where a character's ink starts in its cell, and how wide it is (a space: half a cell)."""
    if ch in GLYPHS:
        return -1, 7
    box = font().getmask(_plain(ch)).getbbox()
    return (0, GLYPH_W // 2) if box is None else (box[0], box[2] - box[0])


def big_width(text: str, scale: int = 3) -> int:
    """Width of ``text`` as ``big`` draws it, before scaling. At 2x the font's own 6 px cells
    (10 characters fit); at 3x each character's ink and one pixel, since the font's capitals
    touch and scaled up that far read as one blob."""
    return max(0, sum(_advance(ch, scale) for ch in text) - 1)


def _advance(ch: str, scale: int) -> int:
    return _ink(ch)[1] + 1 if scale >= 3 or ch in GLYPHS else GLYPH_W


def _big(image: Image.Image, text: str, top: int, scale: int) -> None:
    """Draw ``text`` ``scale`` times the bitmap font's size, centred, without blur."""
    while big_width(text, scale) * scale > WIDTH and len(text) > 1:
        text = text[:-2] + "~"
    small = Image.new("1", (max(1, big_width(text, scale)), GLYPH_H), 0)
    draw = ImageDraw.Draw(small)
    x = 0
    for ch in text:
        _text(draw, x - (_ink(ch)[0] if scale >= 3 or ch in GLYPHS else 0), 0, ch, 1)
        x += _advance(ch, scale)
    scaled = small.resize((small.width * scale, small.height * scale), Image.NEAREST)
    image.paste(scaled, ((WIDTH - scaled.width) // 2, top), scaled)


def render(view: View) -> Image.Image:
    """Draw ``view`` on a fresh 128x64 1-bit image."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    place = layout(view)
    if view.title and not view.blank:
        draw.rectangle((0, 0, WIDTH - 1, 10), fill=1)
        _text(draw, _centre_x(draw, _clip(view.title)), 0, _clip(view.title), 0)
    footer_top = place.footer_top
    if view.footer:
        draw.line((0, footer_top - 1, WIDTH - 1, footer_top - 1), fill=1)
        _text(draw, _centre_x(draw, _clip(view.footer)), footer_top, _clip(view.footer), 1)
    if view.blank:
        return image
    if view.big:
        _big(image, view.big, place.top + 1, place.scale)
    top, room = place.body_top, place.room
    lines = list(view.lines)
    first = 0
    if view.cursor is not None and len(lines) > room > 0:
        first = min(max(0, view.cursor - room // 2), len(lines) - room)
    for row, index in enumerate(range(first, min(len(lines), first + room))):
        y = top + row * LINE
        text = _clip(lines[index])
        if index == view.cursor:
            draw.rectangle((0, y, WIDTH - 1, y + LINE - 1), fill=1)
            _text(draw, 2, y - 1, text, 0)
        else:
            _text(draw, 2 if view.cursor is not None else _centre_x(draw, text), y - 1, text, 1)
    if view.cursor is not None and len(lines) > room:
        if first > 0:
            draw.polygon((WIDTH - 5, top + 3, WIDTH - 2, top + 3, WIDTH - 4, top), fill=1)
        if first + room < len(lines):
            y = top + room * LINE - 4
            draw.polygon((WIDTH - 5, y, WIDTH - 2, y, WIDTH - 4, y + 3), fill=1)
    return image
