"""Screens: a ``View`` (what to say) rendered to a 128x64 1-bit image (how it looks).

Referees and menus only build Views, so their logic is tested on text; ``render`` is the one pure
function that draws. The type is a bitmap font drawn for each size it is used at (``fonts``):
the small text 12 px high in 6 px cells (21 characters a line) in a title bar, up to three body
lines and a footer of button hints; the word that matters (``big``) in the largest bold size,
16 to 32 px, that fits the screen with the lines below it. ``layout`` is where both ``render``
and ``misfits`` (the fit check) take their measures from, ``letters`` where every character
goes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, NamedTuple

from PIL import Image, ImageDraw

from .fonts import GLYPHS, Face, drawn_as, font_problem, type_set
from .view import CHARS, PAGE_LINES, View, crowded, pack, wrap

__all__ = ["CHARS", "GLYPHS", "HEIGHT", "PAGE_LINES", "WIDTH", "Layout", "Letter", "View",
           "big_width", "cannot_show", "crowded", "drawn_as", "first_fit", "font_problem",
           "layout", "letters", "misfits", "pack", "render", "wrap"]

WIDTH, HEIGHT = 128, 64
MARGIN = 2                     # left edge of a menu's lines (inside the cursor's bar)
MARK_W, MARK_H = 5, 3          # a list longer than the screen: its marks at the right edge,
MARK_CLEAR = 6                 # blank columns at least between a mark and any text: a cell
TAG_GAP = 3                    # blank columns between the title's bar and a notice beside it


def cannot_show(text: str) -> str:
    """The characters of ``text`` the screen can only draw as "?" (empty when all show)."""
    return "".join(ch for ch in text if ch not in GLYPHS and drawn_as(ch) == "?")


# -- layout ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """Where a view's parts go on the 128x64 screen: the one place ``render``, ``letters`` and
    ``misfits`` (the fit check in the tests) take their measures from."""

    top: int          # first pixel row of the big word's cells, or of the body when there is none
    size: int         # the big word's type size in pixels (0: no big word)
    body_top: int
    footer_top: int   # where the body must end: HEIGHT when there is no footer
    room: int         # body lines that fit


def _big_faces() -> tuple[Face, ...]:
    return type_set().big


def _big_face(size: int | None) -> Face:
    """The big type of ``size`` px (None: the smallest); the nearest smaller one if that size
    is not drawn."""
    faces = _big_faces()
    if size is None:
        return faces[-1]
    fitting = [face for face in faces if face.cell_h <= size]
    return fitting[0] if fitting else faces[-1]


def big_width(text: str, size: int | None = None) -> int:
    """How wide ``text``'s ink is drawn as ``big`` at ``size`` px (None: the smallest big size,
    so ``big_width(word) <= WIDTH`` says whether the word can be big at all)."""
    return _big_face(size).width(text)


def layout(view: View) -> Layout:
    """Lay ``view`` out: the big word in the largest size that fits the width and leaves room
    for the view's lines (the smallest size when none does; ``misfits`` says so)."""
    types = type_set()
    top = (types.title_h if view.bar and not view.blank else 0) + (types.line if view.row else 0)
    footer_top = HEIGHT - types.footer_h if view.footer else HEIGHT
    if not view.big or view.blank:
        return Layout(top, 0, top, footer_top, max(0, (footer_top - top) // types.line))
    wanted = len(view.lines)
    face = next((f for f in types.big if f.width(view.big) <= WIDTH and
                 (footer_top - top - f.cell_h) // types.line >= wanted), types.big[-1])
    room = max(0, (footer_top - top - face.cell_h) // types.line)
    spare = max(0, footer_top - top - face.cell_h - min(room, wanted) * types.line)
    above = spare // 3 if wanted else spare // 2   # and as much again between word and lines
    body_top = top + above + face.cell_h + (spare - above + 1) // 2
    return Layout(top + above, face.cell_h, body_top, footer_top, room)


# -- letters -----------------------------------------------------------------------------------------
class Letter(NamedTuple):
    """One character as ``render`` draws it: its ``mask`` at (``x``, ``y``) in ``fill``; ``part``
    names the text it belongs to ("title", "big", "line 2", "footer")."""

    part: str
    char: str
    x: int
    y: int
    mask: Image.Image
    fill: int


def _fit(text: str, fits: Callable[[str], bool]) -> str:
    """``text``, or as much of it as ``fits`` with "~" for the rest."""
    while not fits(text) and len(text) > 1:
        text = text[:-2] + "~"
    return text


class Run(NamedTuple):
    """One text of a view as drawn: ``text`` in ``face`` from pen (``x``, ``y``) in ``fill``."""

    part: str
    face: Face
    text: str
    x: int
    y: int
    fill: int

    def letters(self) -> list[Letter]:
        return [Letter(self.part, ch, self.x + pen + glyph.dx, self.y + glyph.dy, glyph.mask,
                       self.fill)
                for ch, (pen, glyph) in zip(self.text, self.face.place(self.text))
                if glyph.box is not None]


@lru_cache(maxsize=2048)
def _strip(face: Face, text: str) -> tuple[Image.Image, int, int] | None:
    """``text``'s glyphs set in one mask, with where its corner goes from the pen (None: no
    ink). Frames repeat their texts, so a frame is mostly a few pastes of these."""
    placed = [(pen + g.dx, g.dy, g) for pen, g in face.place(text) if g.box is not None]
    if not placed:
        return None
    left = min(x for x, _, _ in placed)
    top = min(y for _, y, _ in placed)
    right = max(x + g.mask.width for x, _, g in placed)
    bottom = max(y + g.mask.height for _, y, g in placed)
    mask = Image.new("1", (right - left, bottom - top), 0)
    for x, y, glyph in placed:
        mask.paste(1, (x - left, y - top), glyph.mask)
    return mask, left, top


def _centred(part: str, face: Face, text: str, y: int, fill: int, room: int = WIDTH) -> Run:
    text = _fit(text, lambda t: face.width(t) <= room)
    left, right = face.extent(text)
    return Run(part, face, text, (WIDTH - (right - left)) // 2 - left, y, fill)


def _scrolls(view: View, room: int) -> bool:
    return view.cursor is not None and len(view.lines) > room


def _shown(view: View, place: Layout) -> list[tuple[int, int]]:
    """The body lines on screen, as (index into ``view.lines``, box top): a long menu shows the
    part around its cursor."""
    room, lines = place.room, view.lines
    first = 0
    if view.cursor is not None and len(lines) > room > 0:
        first = min(max(0, view.cursor - room // 2), len(lines) - room)
    return [(index, place.body_top + row * type_set().line)
            for row, index in enumerate(range(first, min(len(lines), first + room)))]


def _reaches_top(face: Face, text: str) -> bool:
    """Whether ``text`` inks the top row of its cells (only capital accents do: "Ü")."""
    return any(glyph.box is not None and glyph.dy + glyph.box[1] <= 0
               for _, glyph in face.place(text))


def _title_y(view: View) -> int:
    """The title's glyph row 0: a row above the screen (only capital accents lose their top
    row there), or on it when the title has them, its bar then a row taller."""
    types = type_set()
    raised = types.bar_dy and _reaches_top(types.small, view.bar)
    return -types.bar_dy + types.text_dy + (1 if raised else 0)


def _bars(view: View, place: Layout) -> list[tuple[int, int]]:
    """The inverted bars, as (first row, last row): the title's and the cursor's line. A bar
    starts ``bar_dy`` below its text box, unless its text has capital accents."""
    types = type_set()
    out = []
    if view.bar and not view.blank:
        out.append((0, types.line - 1 + _title_y(view) - (-types.bar_dy + types.text_dy)))
    if not view.blank and view.cursor is not None:
        for index, y in _shown(view, place):
            if index == view.cursor:
                top = y + types.bar_dy
                if types.bar_dy and _reaches_top(types.small, view.lines[index]):
                    top -= 1
                out.append((top, y + types.bar_dy + types.line - 1))
    return out


def _tag_runs(view: View, y: int) -> tuple[Run, Run, int] | None:
    """A title with a notice beside it: the title from the bar's left edge, the notice ending at
    the screen's right edge in plain type, ``TAG_GAP`` blank columns between the bar and it; with
    the column where the bar ends. None when the two do not fit side by side."""
    small = type_set().small
    (t_left, t_right), (n_left, n_right) = small.ink(view.title), small.ink(view.tag)
    title = Run("title", small, view.title, 1 - t_left, y, 0)
    bar_end = 1 + t_right - t_left
    notice = Run("notice", small, view.tag, WIDTH - 1 - n_right, y, 1)
    if bar_end + 1 + TAG_GAP > notice.x + n_left:
        return None
    return title, notice, bar_end


def _runs(view: View) -> list[Run]:
    """Every text of ``view`` where it goes: title, big word, the lines shown, footer."""
    types = type_set()
    small = types.small
    place = layout(view)
    out: list[Run] = []
    tag = _tag_runs(view, _title_y(view)) if view.tag else None
    if tag is not None:
        out += tag[:2]
    elif view.bar and not view.blank:
        out.append(_centred("title", small, view.bar, _title_y(view), 0))
    if view.row:
        out.append(_centred("notice", small, view.row, types.title_h + types.text_dy, 1))
    footer = [_centred("footer", small, view.footer, HEIGHT - small.cell_h, 1)] \
        if view.footer else []
    if view.blank:
        return out + footer
    if view.big:
        out.append(_centred("big", _big_face(place.size), view.big, place.top, 1))
    for index, y in _shown(view, place):
        part, text = f"line {index}", view.lines[index]
        fill = 0 if index == view.cursor else 1
        if view.cursor is None:
            out.append(_centred(part, small, text, y + types.text_dy, fill, WIDTH - MARGIN))
        else:
            text = _fit(text, lambda t: MARGIN + small.ink(t)[1] <= WIDTH)
            out.append(Run(part, small, text, MARGIN, y + types.text_dy, fill))
    return out + footer


def letters(view: View) -> list[Letter]:
    """Every inked character of ``view`` where ``render`` draws it (the legibility test checks
    these for letters that touch)."""
    return [letter for run in _runs(view) for letter in run.letters()]


# -- the fit check -------------------------------------------------------------------------------
def first_fit(*texts: str) -> str:
    """The first of ``texts`` that fits a line of the screen (a title, a body line), else the
    last one, cut to the line: say it fully when there is room, shorter when not."""
    for text in texts:
        if not misfits(View(lines=(text,), cursor=0)):
            return text
    return texts[-1][:CHARS] if texts else ""


def misfits(view: View) -> list[str]:
    """What of ``view`` the OLED would clip, cut or crowd (empty when it fits): the check every
    screen of every demo, and every set-up choice, passes in both languages."""
    small = type_set().small
    out = []
    for name, text in (("title", view.bar), ("footer", view.footer), ("notice", view.row)):
        if small.width(text) > WIDTH:
            out.append(f"{name} {small.width(text)} px wide")
    if view.tag and _tag_runs(view, 0) is None:
        out.append(f"title and notice {small.width(view.title + view.tag)} px wide")
    if view.blank:
        return out
    place = layout(view)
    if view.big and big_width(view.big) > WIDTH:
        out.append(f"big {view.big!r} {big_width(view.big)} px wide")
    for line in view.lines:
        if view.cursor is None and small.width(line) > WIDTH - MARGIN:
            out.append(f"line {line!r} {small.width(line)} px wide")
        elif view.cursor is not None and MARGIN + small.ink(line)[1] > WIDTH:
            out.append(f"line {line!r} ends at {MARGIN + small.ink(line)[1]} px")
    if view.cursor is None and len(view.lines) > place.room:  # menus scroll; pages must not
        out.append(f"{len(view.lines)} lines, room for {place.room}")
    return out


# -- drawing -----------------------------------------------------------------------------------------
def _marks(draw: ImageDraw.ImageDraw, view: View, place: Layout,
           bars: list[tuple[int, int]]) -> None:
    """A list longer than the screen says so with a mark pointing up when lines are above those
    shown and one pointing down when lines are below: at the right end of the title bar, away
    from the list's text; without a title (or beside a long one) at the right end of the first
    and last line shown. A mark keeps a character cell of blank from any text, so it never reads
    as a letter of it (a quote, a comma); where there is no such room it is left out."""
    shown = _shown(view, place)
    if not _scrolls(view, place.room) or not shown:
        return
    types, small = type_set(), type_set().small
    left, right = WIDTH - 2 - MARK_W, WIDTH - 3
    mid = (left + right) // 2
    (first, first_y), (last, last_y) = shown[0], shown[-1]
    up, down = first > 0, last < len(view.lines) - 1

    def mark(apex: int, base: int, fill: int) -> None:
        draw.polygon((left, base, right, base, mid, apex), fill=fill)

    if view.bar and not view.blank and not view.tag:  # a notice beside the title: at the lines
        start, end = small.extent(view.bar)
        ink = (WIDTH - (end - start)) // 2 - start + small.ink(view.bar)[1]
        if ink + MARK_CLEAR <= left:
            bottom = _bars(view, place)[0][1]
            centre = bottom // 2
            if up:
                mark(centre - MARK_H, centre - 1, 0)
            if down:
                mark(centre + MARK_H, centre + 1, 0)
            return

    def fill(y: int) -> int:
        return 0 if any(low <= y <= high for low, high in bars) else 1

    def room(index: int) -> bool:
        return MARGIN + small.ink(view.lines[index])[1] + MARK_CLEAR <= left

    if up and room(first):
        y = first_y + types.bar_dy + 2                       # the apex, two rows into the line
        mark(y, y + MARK_H - 1, fill(y))
    if down and room(last):
        y = last_y + types.bar_dy + types.line - 3           # the apex, two rows above its end
        mark(y, y - MARK_H + 1, fill(y))


def render(view: View) -> Image.Image:
    """Draw ``view`` on a fresh 128x64 1-bit image."""
    types = type_set()
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    place = layout(view)
    bars = _bars(view, place)
    tag = _tag_runs(view, 0) if view.tag else None
    for i, (top, bottom) in enumerate(bars):
        right = tag[2] if tag is not None and i == 0 else WIDTH - 1  # the title's bar first
        draw.rectangle((0, top, right, bottom), fill=1)
    if view.footer:
        rule = HEIGHT - types.small.cell_h - 1
        draw.line((0, rule, WIDTH - 1, rule), fill=1)
    if not view.blank:
        _marks(draw, view, place, bars)
    for run in _runs(view):
        strip = _strip(run.face, run.text)
        if strip is not None:
            mask, left, top = strip
            image.paste(run.fill, (run.x + left, run.y + top), mask)
    return image
