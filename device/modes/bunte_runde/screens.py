"""Bunte Runde's screens: the pieces as glyphs, the lay-out walk, the pages after a move, the end."""

from __future__ import annotations

from typing import Any

from ....games.bunte_runde import BunteRunde
from ....games.core import Event
from ...i18n import _, ngettext
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


def colour_name(colour: str) -> str:
    """A colour as the table says it (a custom layout's own names stay as given)."""
    return {"red": _("red"), "yellow": _("yellow"), "green": _("green"), "blue": _("blue"),
            "purple": _("purple"), "orange": _("orange")}.get(colour, colour)


def shape_name(shape: str) -> str:
    """A shape or animal as the table says it (a custom layout's own names stay as given)."""
    return {"circle": _("circle"), "square": _("square"), "triangle": _("triangle"),
            "star": _("star"), "heart": _("heart"), "cross": _("cross"), "cat": _("cat"),
            "dog": _("dog"), "fish": _("fish"), "bird": _("bird"),
            "frog": _("frog")}.get(shape, shape)


def piece_text(colour: str, shape: str) -> str:
    """"● red circle": glyph, colour and shape."""
    mark = glyph(shape)
    text = _("{colour} {shape}").format(colour=colour_name(colour), shape=shape_name(shape))
    return f"{mark} {text}" if mark else text


def _steps(n: int) -> str:
    return ngettext("{n} step", "{n} steps", n).format(n=n)


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
    pages = [View(_("Lay out the circle"), (_("Clockwise, place 1"),
                                            _("first. {n} places a").format(n=PER_PAGE),
                                            _("screen; the figure"), _("starts on place 1.")),
                  footer=_("OK next  BACK menu"))]
    for first in range(0, size, PER_PAGE):
        last = min(size, first + PER_PAGE)
        lines = _block([f"{i + 1:>2} {piece_text(*state.pieces[i])}" for i in range(first, last)])
        pages.append(View(_("Lay out {first}-{last} of {size}").format(
            first=first + 1, last=last, size=size), lines, footer=_("OK next  BACK back")))
    start = (state.figure or 0) + 1
    pages.append(View(_("Start"), (_("Put the figure on {n}:").format(n=start), first_piece,
                                   _("{player} starts.").format(player=state.players[0]),
                                   _("A/B/C: 1/2/3 steps")),
                      footer=_("OK play  BACK back")))
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
            big = f"{mark} {colour_name(colour)}" if mark else colour_name(colour)
            line = shape_name(shape) if data["steps"] is None else _("{shape}, {steps}").format(
                shape=shape_name(shape), steps=_steps(data["steps"]))
            title = _("{player} took") if data["steps"] is None else _("{player} takes")
            pages.append(Page(View(title.format(player=data["player"]), (line,), big=big), PAGE_S,
                              minor=not scorings))
            if len(scorings) == 2:
                named = f"{mark} {shape_name(shape)}" if mark else shape_name(shape)
                pages.append(Page(View(_("Double scoring!"), (
                    _("The last {colour} and").format(colour=colour_name(colour)),
                    _("the last {shape}:").format(shape=named),
                    ngettext("{n} coin for each.", "{n} coins for each.", n).format(n=n),
                ))))
        elif event.kind == "large_coin":
            pages.append(Page(View(_("Large coin"), (
                _("Only {n} coins left:").format(n=n),
                _("{player} swaps {n} small").format(player=data["player"], n=n),
                _("coins for the large"), _("coin (worth {n}).").format(n=n),
            ))))
        elif event.kind == "large_coin_skipped":
            pages.append(Page(View(_("Large coin"), (
                _("Only {n} coins left,").format(n=n), _("nobody holds {n}:").format(n=n),
                _("no swap. Both paid"), _("in full anyway."),
            ))))
        elif event.kind == "scoring":
            value = data["value"]
            mark = glyph(value) if data["what"] == "shape" else ""
            named = shape_name(value) if data["what"] == "shape" else colour_name(value)
            title = _("Last {what}!").format(what=f"{mark} {named}" if mark else named)
            lines = pack([f"{p} +{c}" for p, c in data["payouts"].items() if c])[:3]
            left = data["coins_left"]
            lines.append(ngettext("{n} coin left", "{n} coins left", left).format(n=left) if left
                         else _("No coins left!"))
            if len(title) > CHARS:
                title = _("Scoring!")
            pages.append(Page(View(title, tuple(lines))))
    if scorings and not state.is_over:
        pages.append(Page(View(_("Coins ({n} left)").format(n=state.coins_left),
                               tuple(standings_lines(state)[:4]))))
    return pages


def final_view(state: BunteRunde, page: int = 0) -> View:
    """The ranking (B6), one player a line; five or six players take two screens (NEXT)."""
    winners = state.winners()
    title = (_("{player} wins!").format(player=winners[0]) if len(winners) == 1
             else _("Shared win!"))
    lines = [f"{place}. {player}"[:CHARS - 4].ljust(CHARS - 4) + f"{coins:>4}"
             for place, player, coins in state.standings()]
    footer = _("OK: menu")
    if len(lines) > 4:
        lines = lines[4:] if page % 2 else lines[:4]
        footer = _("NEXT more  OK menu")
    return View(title if len(title) <= CHARS else _("Winner!"), tuple(lines), footer=footer)
