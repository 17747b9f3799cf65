"""``spielleiter sim`` in a terminal: the picture, a line of status and the
key legend fit the terminal it runs in, an 80x24 one included, every pixel of the screen shown.
Tested on ``layout``, the curses-free function the interactive view draws."""

from __future__ import annotations

from PIL import Image

from spielleiter.device import i18n
from spielleiter.device.cli.hand import Hand
from spielleiter.device.cli.keys import STATION_KEYS, key_map, legend
from spielleiter.device.cli.terminal import layout
from spielleiter.device.screen.render import View, render

STATIONS = ["Red", "Blue", "Green"]
PANS = ("left", "right")
ON_PANS = "left 12.3 + 12.3 g   right 5 pieces, 61.5 g   in hand 12.3 g"
VIEW = View("Tatort Tonne", ("5 players", "Trash pile: 25", "Seats 4-5: host panel"),
            footer="OK start  BACK change")
_BITS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10), (1, 2, 0x20),
         (0, 3, 0x40), (1, 3, 0x80))


def screen(width: int, height: int, view: View = VIEW) -> list[str]:
    return layout(width, height, render(view), legend(STATIONS, width, PANS, ON_PANS),
                  "pressed host.ok", view)


def picture(rows: list[str]) -> list[str]:
    """The lines inside the frame's border."""
    top = rows.index(next(r for r in rows if r.startswith("┌")))
    bottom = rows.index(next(r for r in rows if r.startswith("└")))
    return [row[1:-1] for row in rows[top + 1:bottom]]


def from_braille(lines: list[str]) -> Image.Image:
    image = Image.new("1", (len(lines[0]) * 2, len(lines) * 4), 0)
    for cy, line in enumerate(lines):
        for cx, ch in enumerate(line):
            bits = ord(ch) - 0x2800
            assert 0 <= bits < 256, ch
            for dx, dy, bit in _BITS:
                if bits & bit:
                    image.putpixel((cx * 2 + dx, cy * 4 + dy), 1)
    return image


def test_an_80x24_terminal_shows_the_whole_screen_its_footer_and_the_legend():
    rows = screen(80, 24)
    assert len(rows) <= 24 and all(len(row) <= 80 for row in rows)
    art = picture(rows)
    assert len(art) == 16 and all(len(line) == 64 for line in art)
    assert from_braille(art).tobytes() == render(VIEW).tobytes()  # every pixel, footer too
    assert "(OK start  BACK change)" in rows[len(art) + 2]     # and the footer as plain text
    assert "pressed host.ok" in rows
    assert rows[-len(legend(STATIONS, 80, PANS, ON_PANS)):] == legend(STATIONS, 80, PANS, ON_PANS)
    assert f"Pans: {ON_PANS}" in rows                           # what lies where, always in view


def test_the_legend_explains_every_key_and_fits_80_columns():
    for stations in (1, 3, 8):
        names = [f"Seat {n}" for n in range(1, stations + 1)]
        text = "\n".join(lines := legend(names, 80, PANS, ON_PANS))
        assert all(len(line) <= 80 for line in lines) and len(lines) <= 5
        assert all(name in text for name in names)
        assert all(" ".join(STATION_KEYS[n]) in text for n in range(stations))
        assert all(key in text for key in ("b BACK", "o/Enter OK", "n/Space NEXT",
                                           "u undo", "h+key hold", "Q quit",
                                           "[ ] put on left/right", "{ } lift last",
                                           "- + m mass in hand", "0 empty both", ON_PANS))
        rows = layout(80, 24, render(VIEW), lines, "", VIEW)  # eight stations still fit
        assert len(picture(rows)) == 16 and rows[-len(lines):] == lines
    assert len(key_map(3)) == 5 + 9


def test_a_blank_screen_still_shows_its_footer_in_the_caption():
    rows = screen(80, 24, View(blank=True, footer="OK show"))
    assert any(row.strip() == "(OK show)" for row in rows)


def test_the_caption_names_the_menu_line_the_cursor_is_on():
    rows = screen(80, 24, View("Games", ("Tatort Tonne", "Bunte Runde", "Settings"), cursor=1,
                               footer="NEXT move  OK choose"))
    assert "[Games]  > Bunte Runde  (NEXT move  OK choose)" in rows


def test_the_caption_leads_with_the_big_word_as_the_screen_does():
    rows = screen(80, 24, View("3, 2, 1, POINT!", ("Anna",), big="2"))
    assert "*2*  [3, 2, 1, POINT!]" in rows


def test_taller_terminals_get_block_characters():
    quadrants = picture(screen(80, 40))
    assert len(quadrants) == 32 and len(quadrants[0]) == 64
    assert set("".join(quadrants)) <= set(" ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█")
    halves = picture(screen(132, 40))
    assert len(halves) == 32 and len(halves[0]) == 128
    assert set("".join(halves)) <= set(" ▀▄█")


def test_a_terminal_too_small_for_a_picture_gets_the_screen_as_text():
    rows = screen(60, 12)
    assert len(rows) <= 12 and all(len(row) <= 60 for row in rows)
    assert "66x" in rows[0]
    assert "[Tatort Tonne]" in rows and "(OK start  BACK change)" in rows


def test_before_the_first_frame_the_picture_is_blank():
    rows = layout(80, 24, None, legend(STATIONS, 80), "")
    assert set("".join(picture(rows))) == {" "}
    assert len(rows) <= 24


def test_the_pan_keys_use_no_key_of_the_buttons():
    from spielleiter.device.cli.keys import (EMPTY_KEY, HEAVIER_KEYS, HOLD_KEY, LIFT_KEYS,
                                             LIGHTER_KEY, PUT_KEYS, QUIT_KEY, TYPE_KEY, UNDO_KEY)
    pan_keys = set(PUT_KEYS + LIFT_KEYS + LIGHTER_KEY + HEAVIER_KEYS + TYPE_KEY + EMPTY_KEY)
    assert len(pan_keys) == 9
    assert not pan_keys & (set(key_map(8)) | {HOLD_KEY, QUIT_KEY, UNDO_KEY})


def test_a_one_pan_box_gets_the_one_pan_legend():
    lines = legend(STATIONS, 80, ("pan",), "pan empty   in hand 10 g")
    assert lines[-2:] == ["Pans: pan empty   in hand 10 g",
                          "      [ put on pan  { lift last  - + m mass in hand  0 empty it"]


def test_the_legend_speaks_german_too_and_still_fits_an_80x24_terminal():
    i18n.use("de")
    on_pans = Hand(PANS, lambda pan, grams: None).on_pans()
    assert on_pans == "links leer   rechts leer   in der Hand 10 g"
    lines = legend([f"Platz {n}" for n in range(1, 9)], 80, PANS, on_pans)
    text = "\n".join(lines)
    assert all(len(line) <= 80 for line in lines) and len(lines) <= 5
    assert all(words in text for words in ("u Zug zurück", "h+Taste halten", "Q Ende",
                                           f"Schalen: {on_pans}", "[ ] auf links/rechts",
                                           "{ } Letztes runter", "0 beide leer"))
    rows = layout(80, 24, render(VIEW), lines, "", VIEW)
    assert len(picture(rows)) == 16 and rows[-len(lines):] == lines
