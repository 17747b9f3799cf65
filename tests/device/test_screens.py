"""The renderer: type drawn for its size, the big word as large as fits, the fit check measuring
what is drawn, a long list's marks clear of its text, and a box without its font still drawing."""

from __future__ import annotations

import logging

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from spielleiter.device.screen import fonts, render as screens
from spielleiter.device import i18n
from spielleiter.device.screen.fonts import BIG_SIZES, GLYPHS, PIECE
from spielleiter.device.modes import MODES
from spielleiter.device.ui.home import home_view
from spielleiter.device.screen.render import (
    HEIGHT, WIDTH, View, big_width, layout, letters, misfits, render
)


def _shown_text(view: View) -> str:
    """Every character ``letters`` says is drawn, in order."""
    return "".join(letter.char for letter in letters(view))


def _ink_only(text: str) -> str:
    return "".join(ch for ch in text if not ch.isspace())


# -- type drawn for its size -------------------------------------------------------------------
def test_the_big_word_is_the_largest_type_that_fits_the_screen_and_its_lines():
    assert layout(View(big="GLEICH!", lines=("20 g = 0 g",), footer="OK")).size == 32
    assert layout(View("The winner is", ("most coins",), big="Anna", footer="OK")).size == 24
    assert layout(View("Currency Torraku", ("Money",), big="alles verteilt",
                       footer="NEXT change  OK next")).size == 16
    assert layout(View("Title", big="Anna")).size == 32


def test_every_size_is_a_font_drawn_at_that_size_not_a_scaled_copy():
    types = fonts.type_set()
    assert [face.cell_h for face in types.big] == list(BIG_SIZES)
    assert types.small.cell_h == 12 and types.small.cell_w * screens.CHARS <= WIDTH
    for face in types.big:
        n = face.glyph("n").mask
        # a stroke of the bold type is two pixels at every size: a scaled 6x11 font's would
        # grow with the size (3 px at 3x)
        row = [n.getpixel((x, face.baseline - 2)) for x in range(n.width)]
        assert "".join("#" if p else "." for p in row).count("##") == 2, face.name


@pytest.mark.parametrize("size", BIG_SIZES)
@pytest.mark.parametrize("piece", sorted(GLYPHS))
def test_a_piece_is_its_bitmap_at_a_whole_multiple_standing_on_the_baseline(piece, size):
    face = screens._big_face(size)
    glyph = face.glyph(piece)
    scale = glyph.mask.width // PIECE
    assert glyph.mask.size == (PIECE * scale, PIECE * scale) and scale >= 1
    small = Image.new("1", (PIECE, PIECE), 0)
    for row, bits in enumerate(GLYPHS[piece].split("/")):
        for col, bit in enumerate(bits):
            small.putpixel((col, row), bit == "#")
    assert glyph.mask.tobytes() == small.resize(glyph.mask.size, Image.NEAREST).tobytes()
    assert glyph.dy + glyph.mask.height == face.baseline
    assert abs(glyph.mask.height - face.cap_height) <= PIECE // 2 + 1


def test_letters_that_would_touch_get_a_pixel_between_them():
    bold16 = screens._big_face(16)   # its T and Y reach the edge of their cell
    assert bold16.gap("T", "T") == 1 and bold16.gap("n", "n") == 0
    pen = [x for x, _ in bold16.place("TTn")]
    assert pen == [0, 9, 17]


# -- the fit check measures what render draws ------------------------------------------------------
LATIN = st.characters(min_codepoint=0x20, max_codepoint=0xFF,
                      blacklist_categories=("Cc", "Cf", "Zl", "Zp"))
TEXT = st.text(st.one_of(LATIN, st.sampled_from(sorted(GLYPHS))), max_size=24)


@settings(max_examples=150, deadline=None)
@given(title=TEXT, big=st.one_of(st.none(), TEXT.filter(bool)),
       lines=st.lists(TEXT, max_size=4), footer=TEXT, menu=st.booleans())
def test_a_view_the_fit_check_passes_is_drawn_whole(title, big, lines, footer, menu):
    view = View(title, tuple(lines), big=big, footer=footer, cursor=0 if menu and lines else None)
    drawn = letters(view)
    for letter in drawn:  # nothing is ever drawn beyond the 128x64 frame but the cells' margins
        box = letter.mask.getbbox()
        assert box and letter.x + box[0] >= 0 and letter.x + box[2] <= WIDTH
    if misfits(view):
        return
    place = layout(view)
    shown = range(len(lines)) if view.cursor is None else \
        range(min(len(lines), place.room))
    expected = title + (big or "") + "".join(lines[i] for i in shown) + footer
    assert _shown_text(view) == _ink_only(expected)


def test_the_fit_check_names_a_big_word_too_wide_for_the_smallest_type():
    assert big_width("alles verteilt") <= WIDTH
    assert misfits(View("T", ("Geld",), big="alles verteilt", footer="OK")) == []
    assert misfits(View("T", ("x",), big="alles verteilt!!!", footer="OK")) == \
        [f"big 'alles verteilt!!!' {big_width('alles verteilt!!!')} px wide"]
    assert misfits(View("T", ("a", "b", "c", "d"), footer="OK")) == ["4 lines, room for 3"]


# -- a long list's marks ---------------------------------------------------------------------------
def _marks(view: View) -> set[tuple[int, int]]:
    """The pixels ``render`` draws beyond the bars and the letters: the scroll marks."""
    frame = render(view)
    plain = render(View(view.title, view.lines, view.big, view.footer, view.cursor, view.blank))
    assert frame.tobytes() == plain.tobytes()  # rendering is pure
    bare = Image.new("1", (WIDTH, HEIGHT), 0)
    for top, bottom in screens._bars(view, layout(view)):
        bare.paste(1, (0, top, WIDTH, bottom + 1))
    if view.footer:
        rule = HEIGHT - fonts.type_set().small.cell_h - 1
        bare.paste(1, (0, rule, WIDTH, rule + 1))
    for letter in letters(view):
        bare.paste(letter.fill, (letter.x, letter.y), letter.mask)
    return {(x, y) for y in range(HEIGHT) for x in range(WIDTH)
            if frame.getpixel((x, y)) != bare.getpixel((x, y))}


def _text_pixels(view: View) -> set[tuple[int, int]]:
    out = set()
    for letter in letters(view):
        box = letter.mask.getbbox()
        for y in range(box[1], box[3]):
            for x in range(box[0], box[2]):
                if letter.mask.getpixel((x, y)):
                    out.add((letter.x + x, letter.y + y))
    return out


def _clear(view: View) -> bool:
    """No mark pixel within a character cell (6 px) of the text in the rows around it: a
    mark closer than that reads as a letter of the line, a quote or a comma ("Trödel'")."""
    marks, text = _marks(view), _text_pixels(view)
    cell = fonts.type_set().small.cell_w
    return not any((x - dx, y + dy) in text for x, y in marks
                   for dx in range(cell + 1) for dy in (-1, 0, 1))


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_home_menus_scroll_marks_never_touch_a_game_name(language):
    i18n.use(language)
    views = [home_view(MODES, cursor) for cursor in range(len(MODES))]
    assert all(_clear(view) for view in views), [v.lines[v.cursor] for v in views
                                                 if not _clear(v)]
    assert all(_marks(view) for view in views)  # each shows that the list goes on


def test_a_long_lists_marks_sit_in_its_title_bar_away_from_the_lines():
    full = "C 3 \u25b2 yellow triangle"
    view = View("Carla's turn", ("A 1 x", "B 2 y", full, "You: 0 coins"), cursor=0,
                footer="OK")
    assert len(full) == screens.CHARS and misfits(view) == []
    marks = _marks(view)
    assert marks and _clear(view) and max(y for _, y in marks) < fonts.type_set().line


def test_without_room_in_the_title_a_mark_goes_beside_a_line_that_leaves_it_room_or_not_at_all():
    full = "C 3 \u25b2 yellow triangle"
    for title in ("", "Carla: which purple?"):
        room = layout(View(title, ("x",) * 9, cursor=0, footer="OK")).room
        view = View(title, ("A 1 x",) * (room - 1) + (full, "You: 0 coins"), cursor=0,
                    footer="OK")
        shown = screens._shown(view, layout(view))
        assert view.lines[shown[-1][0]] == full
        assert _clear(view) and not _marks(view)
        shorter = View(title, view.lines[:-2] + ("C 3 short", "You: 0 coins"), cursor=0,
                       footer="OK")
        assert _clear(shorter) and _marks(shorter)
        assert min(y for _, y in _marks(shorter)) > fonts.type_set().line


# -- without its font, the box still draws ---------------------------------------------------------
@pytest.fixture
def no_terminus(monkeypatch, tmp_path):
    monkeypatch.setattr(fonts, "TERMINUS", tmp_path / "nowhere")
    fonts.type_set.cache_clear()
    yield
    fonts.type_set.cache_clear()


def test_a_missing_font_is_said_once_and_the_screens_draw_in_the_built_in_font(no_terminus,
                                                                               caplog):
    with caplog.at_level(logging.WARNING, logger="spielleiter.device.screen.fonts"):
        problem = screens.font_problem()
        for _ in range(3):
            frame = render(View("Spielleiter", ("Tatort Tonne", "Bunte Runde"), big="\u2605 Anna",
                                footer="OK"))
    assert problem and "fonts-terminus-otb" in problem
    assert [r.getMessage() for r in caplog.records].count(caplog.records[0].getMessage()) == 1
    assert len(caplog.records) == 1
    assert frame.size == (WIDTH, HEIGHT) and frame.getbbox() is not None
    assert layout(View("T", ("a", "b", "c", "d"), footer="OK")).room == 4   # the 6x11 font's
    assert layout(View("T", ("a",), big="Anna", footer="OK")).size in (22, 33)


def test_the_type_ships_with_the_box():
    assert screens.font_problem() is None
