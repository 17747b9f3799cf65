"""Bunte Runde's screens: the pieces as glyphs, the lay-out walk, the pages after a move, the end."""

from __future__ import annotations

from typing import Any

from ....games.bunte_runde import BunteRunde
from ....games.core import Event
from ...screens import CHARS, View, pack
from ..base import Page

PAGE_S = 2.5        # a take page; the next player's press skips it
SCORE_S = 3.5       # scoring, large coin and standings pages
PER_PAGE = 4        # circle places per lay-out screen

# The glyph each standard shape or animal is drawn with (screens.GLYPHS holds the bitmaps).
GLYPH = {"circle": "\u25cf", "square": "\u25a0", "triangle": "\u25b2", "star": "\u2605",
         "heart": "\u2665", "cross": "\u271a", "cat": "\U0001f431", "dog": "\U0001f436",
         "fish": "\U0001f41f", "bird": "\U0001f426", "frog": "\U0001f438"}


def glyph(shape: str) -> str:
    """The glyph of a shape (or animal), "" for a name without one (a custom layout)."""
    return GLYPH.get(shape, "")


def piece_text(colour: str, shape: str) -> str:
    """"● red circle": glyph, colour and shape."""
    mark = glyph(shape)
    return f"{mark} {colour} {shape}" if mark else f"{colour} {shape}"


def _steps(n: int) -> str:
    return f"{n} step" if n == 1 else f"{n} steps"


def pick_colours(takes: list[dict[str, Any]]) -> list[str]:
    """Free layout: the colours of the legal takes, in the engine's order."""
    return list(dict.fromkeys(a["colour"] for a in takes))


def pick_shapes(takes: list[dict[str, Any]], colour: str) -> list[str]:
    """Free layout: the shapes of ``colour`` among the legal takes."""
    return [a["shape"] for a in takes if a["colour"] == colour]


def layout_pages(state: BunteRunde) -> list[View]:
    """The walk-through of a dealt circle: an introduction, four places a screen, the figure."""
    size = len(state.pieces)
    first_piece = piece_text(*state.pieces[state.figure or 0])
    pages = [View("Lay out the circle", ("Clockwise, place 1", f"first. {PER_PAGE} places a",
                                         "screen; the figure", "starts on place 1."),
                  footer="OK next  BACK menu")]
    for first in range(0, size, PER_PAGE):
        last = min(size, first + PER_PAGE)
        lines = _block([f"{i + 1:>2} {piece_text(*state.pieces[i])}" for i in range(first, last)])
        pages.append(View(f"Lay out {first + 1}-{last} of {size}", lines,
                          footer="OK next  BACK back"))
    start = (state.figure or 0) + 1
    pages.append(View("Start", (f"Put the figure on {start}:", first_piece,
                                 f"{state.players[0]} starts.", "A/B/C: 1/2/3 steps"),
                      footer="OK play  BACK back"))
    return pages


def _block(lines: list[str]) -> tuple[str, ...]:
    """Lines padded to one width, so the centred body keeps a straight left edge."""
    width = max(len(line) for line in lines)
    return tuple(line.ljust(width) for line in lines)


def standings_lines(state: BunteRunde) -> list[str]:
    """Every player's coins, packed into lines."""
    return pack([f"{p} {state.coins(p)}" for p in state.players])


def move_pages(events: list[Event], state: BunteRunde) -> list[Page]:
    """What the table sees after a move: the take, a double scoring, the large coin, each scoring,
    then the standings (or, at the end, the ranking that ``final_view`` shows)."""
    pages: list[Page] = []
    scorings = [e for e in events if e.kind == "scoring"]
    n = state.n
    for event in events:
        data = event.data
        if event.kind == "take":
            colour, shape = data["colour"], data["shape"]
            mark = glyph(shape)
            big = f"{mark} {colour}" if mark else colour
            line = shape if data["steps"] is None else f"{shape}, {_steps(data['steps'])}"
            verb = "took" if data["steps"] is None else "takes"
            pages.append(Page(View(f"{data['player']} {verb}", (line,), big=big), PAGE_S,
                              minor=not scorings))
            if len(scorings) == 2:
                named = f"{mark} {shape}" if mark else shape
                pages.append(Page(View("Double scoring!", (
                    f"The last {colour} and", f"the last {named}:", f"{n} coins for each.",
                ))))
        elif event.kind == "large_coin":
            pages.append(Page(View("Large coin", (
                f"Only {n} coins left:", f"{data['player']} swaps {n} small",
                "coins for the large", f"coin (worth {n}).",
            ))))
        elif event.kind == "large_coin_skipped":
            pages.append(Page(View("Large coin", (
                f"Only {n} coins left,", f"nobody holds {n}:", "no swap. Both paid",
                "in full anyway.",
            ))))
        elif event.kind == "scoring":
            value = data["value"]
            mark = glyph(value) if data["what"] == "shape" else ""
            title = f"Last {mark} {value}!" if mark else f"Last {value}!"
            lines = pack([f"{p} +{c}" for p, c in data["payouts"].items() if c])[:3]
            left = data["coins_left"]
            lines.append(f"{left} coins left" if left else "No coins left!")
            if len(title) > CHARS:
                title = "Scoring!"
            pages.append(Page(View(title, tuple(lines))))
    if scorings and not state.is_over:
        pages.append(Page(View(f"Coins ({state.coins_left} left)",
                               tuple(standings_lines(state)[:4]))))
    return pages


def final_view(state: BunteRunde, page: int = 0) -> View:
    """The ranking (B6), one player a line; five or six players take two screens (NEXT)."""
    winners = state.winners()
    title = f"{winners[0]} wins!" if len(winners) == 1 else "Shared win!"
    lines = [f"{place}. {player}"[:CHARS - 4].ljust(CHARS - 4) + f"{coins:>4}"
             for place, player, coins in state.standings()]
    footer = "OK: menu"
    if len(lines) > 4:
        lines = lines[4:] if page % 2 else lines[:4]
        footer = "NEXT more  OK menu"
    return View(title if len(title) <= CHARS else "Winner!", tuple(lines), footer=footer)
