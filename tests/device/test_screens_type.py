"""Type a child can read across the table: on every screen of every demo, in both languages, no
two letters' ink touches (an "n" beside an "n" must not become an "m") and no counter closes
(the holes of a word are the holes of its letters), the big word and the small text alike.

``screens.letters(view)`` is each character as ``render`` draws it; the check takes the letters
from there, and makes sure ``render`` put every one of them on the frame."""

from __future__ import annotations

from collections import deque
from functools import lru_cache

import pytest
from PIL import Image, ImageChops, ImageFilter

from spielleiter.device.screen import render as screens
from spielleiter.device.screen.render import HEIGHT, WIDTH, View, letters, render
from tests.device.test_i18n import DEMOS, demo_views


def _frame(letter) -> Image.Image:
    """The letter's ink alone, where it lands on the 128x64 frame."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    image.paste(1, (letter.x, letter.y), letter.mask)
    return image


def _inked(mask: Image.Image) -> set[tuple[int, int]]:
    box = mask.getbbox()
    if box is None:
        return set()
    pixels = mask.load()
    return {(x, y) for y in range(box[1], box[3]) for x in range(box[0], box[2]) if pixels[x, y]}


def holes(ink: set[tuple[int, int]]) -> int:
    """Enclosed background regions (4-connected; the ink 8-connected): the counters. The same
    word recurs on many screens, so the count is kept per shape (moved to its corner)."""
    if not ink:
        return 0
    left, top = min(x for x, _ in ink), min(y for _, y in ink)
    return _holes(frozenset((x - left, y - top) for x, y in ink))


@lru_cache(maxsize=None)
def _holes(ink: frozenset[tuple[int, int]]) -> int:
    xs = [x for x, _ in ink]
    ys = [y for _, y in ink]
    left, top, right, bottom = min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1
    seen: set[tuple[int, int]] = set()
    count = 0
    for y in range(top, bottom + 1):
        for x in range(left, right + 1):
            if (x, y) in ink or (x, y) in seen:
                continue
            enclosed = True
            queue = deque([(x, y)])
            seen.add((x, y))
            while queue:
                px, py = queue.popleft()
                if px in (left, right) or py in (top, bottom):
                    enclosed = False
                for step in ((px + 1, py), (px - 1, py), (px, py + 1), (px, py - 1)):
                    sx, sy = step
                    if left <= sx <= right and top <= sy <= bottom and step not in ink \
                            and step not in seen:
                        seen.add(step)
                        queue.append(step)
            count += enclosed
    return count


@lru_cache(maxsize=None)
def _glyph_holes(key: tuple) -> int:
    return holes(_KEYED[key])


_KEYED: dict[tuple, set[tuple[int, int]]] = {}


def _touch(a: Image.Image, b: Image.Image) -> bool:
    """Whether ``a``'s ink meets ``b``'s, also across a corner."""
    grown = a.convert("L").filter(ImageFilter.MaxFilter(3))
    return ImageChops.multiply(grown, b.convert("L")).getbbox() is not None


def problems(view: View) -> list[str]:
    """What of ``view`` a child might misread: touching letters, closed counters, letters the
    frame cuts, and letters ``render`` did not draw."""
    drawn = render(view).load()
    placed = letters(view)
    frames = [_frame(letter) for letter in placed]
    inks = [_inked(frame) for frame in frames]
    out = []
    for letter, frame, ink in zip(placed, frames, inks):
        if any(drawn[x, y] != letter.fill for x, y in ink):
            out.append(f"{letter.part}: {letter.char!r} is not drawn where letters() says")
        if len(ink) < len(_inked(letter.mask)):
            out.append(f"{letter.part}: {letter.char!r} is cut by the edge of the screen")
        if letter.fill == 0 and any(drawn[0, y] != 1 for _, y in ink):
            # dark ink must lie on its bar (which spans the screen from column 0)
            out.append(f"{letter.part}: {letter.char!r} reaches off its bar")
    boxes = [frame.getbbox() for frame in frames]
    for i, (a, box_a) in enumerate(zip(placed, boxes)):
        for j in range(i + 1, len(placed)):
            b, box_b = placed[j], boxes[j]
            if box_a is None or box_b is None or a.fill != b.fill:
                continue  # ink on an inverted bar and ink on black do not run together
            if box_a[0] > box_b[2] or box_b[0] > box_a[2] or \
                    box_a[1] > box_b[3] or box_b[1] > box_a[3]:
                continue
            if _touch(frames[i], frames[j]):
                where = a.part if a.part == b.part else f"{a.part}/{b.part}"
                out.append(f"{where}: {a.char!r} and {b.char!r} touch")
    for part in dict.fromkeys(letter.part for letter in placed):
        members = [k for k, letter in enumerate(placed) if letter.part == part]
        word = set().union(*(inks[k] for k in members))
        alone = 0
        for k in members:
            key = (placed[k].char, placed[k].mask.size, placed[k].mask.tobytes(),
                   len(inks[k]))
            _KEYED[key] = {(x - placed[k].x, y - placed[k].y) for x, y in inks[k]}
            alone += _glyph_holes(key)
        if holes(word) != alone:
            out.append(f"{part}: {holes(word)} counters in the word, {alone} in its letters")
    return out


def _text_of(view: View, part: str) -> str:
    if part == "title":
        return view.title
    if part == "big":
        return view.big or ""
    if part == "footer":
        return view.footer
    return view.lines[int(part.split()[1])]


def _report(views: list[View]) -> list[str]:
    found: dict[str, None] = {}
    for view in dict.fromkeys(views):  # a screen shown twice is checked once
        for problem in problems(view):
            part = problem.split(":")[0].split("/")[0]
            found[f"{part} {_text_of(view, part)!r}: {problem.split(': ', 1)[1]}"] = None
    return list(found)


def test_the_screens_are_drawn_in_the_type_the_box_ships_with():
    assert screens.font_problem() is None, "install fonts-terminus-otb (scripts/dev.sh does)"


WORST = ["Runde 1: wählt!", "The winner is", "Tonne", "Beginnt", "Münzen", "gewinnt", "Anna",
         "Runde", "winner", "Anna nn un mm"]


@pytest.mark.parametrize("word", WORST)
def test_the_words_of_issue_17_read_as_written_small_and_large(word):
    views = [View(word), View(lines=(word,)), View(footer=word), View(lines=(word,), cursor=0),
             View(big=word[:8]), View("Title", ("line",), big=word[:10], footer="OK")]
    assert _report(views) == []


@pytest.mark.parametrize(("name", "language"), DEMOS)
def test_no_letters_touch_on_any_screen_of_any_demo(name, language, tmp_path_factory):
    found = _report(list(demo_views(name, language, tmp_path_factory)))
    assert not found, f"{len(found)} texts a child could misread:\n" + "\n".join(found)
