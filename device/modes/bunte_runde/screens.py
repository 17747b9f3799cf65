"""Bunte Runde's screens: the pieces as glyphs, the lay-out walk, the pages after a move, the end.

Every page says one thing with the word that matters in ``big``: a piece is its glyph and colour
in big type ("● red"), its shape in the line below. Lists that can grow with the players (payouts,
standings) are split over pages of at most three lines.
"""

from __future__ import annotations

from typing import Any, Mapping

from ....games.core import Event
from ...i18n import N_, _, ngettext
from ...screen.render import CHARS, PAGE_LINES, View, first_fit, pack
from ..base import Page
from .public import Public

PAGE_S = 2.5        # a take page; the next player's press skips it
SCORE_S = 3.5       # scoring, large coin and standings pages
BIG = CHARS // 2    # the most characters ``big`` holds (2x type)

# The glyph each standard shape or animal is drawn with (screens.GLYPHS holds the bitmaps).
GLYPH = {"circle": "\u25cf", "square": "\u25a0", "triangle": "\u25b2", "star": "\u2605",
         "heart": "\u2665", "cross": "\u271a", "cat": "\U0001f431", "dog": "\U0001f436",
         "fish": "\U0001f41f", "bird": "\U0001f426", "frog": "\U0001f438"}


def glyph(shape: str) -> str:
    """The glyph of a shape (or animal), "" for a name without one (a custom layout)."""
    return GLYPH.get(shape, "")


# The standard colours and shapes by the engine's word (translated where shown: the names are
# asked for on every frame, so only the one shown is looked up).
COLOURS = {"red": N_("red"), "yellow": N_("yellow"), "green": N_("green"), "blue": N_("blue"),
           "purple": N_("purple"), "orange": N_("orange")}
SHAPES = {"circle": N_("circle"), "square": N_("square"), "triangle": N_("triangle"),
          "star": N_("star"), "heart": N_("heart"), "cross": N_("cross"), "cat": N_("cat"),
          "dog": N_("dog"), "fish": N_("fish"), "bird": N_("bird"), "frog": N_("frog")}


def colour_name(colour: str) -> str:
    """A colour as the table says it (a custom layout's own names stay as given)."""
    return _(COLOURS[colour]) if colour in COLOURS else colour


def shape_name(shape: str) -> str:
    """A shape or animal as the table says it (a custom layout's own names stay as given)."""
    return _(SHAPES[shape]) if shape in SHAPES else shape


def piece_text(colour: str, shape: str) -> str:
    """"● red circle": glyph, colour and shape."""
    mark = glyph(shape)
    text = _("{colour} {shape}").format(colour=colour_name(colour), shape=shape_name(shape))
    return f"{mark} {text}" if mark else text


def piece_big(colour: str, shape: str) -> str:
    """"● red": what ``big`` shows of a piece (the shape's name goes on the line below)."""
    mark = glyph(shape)
    return f"{mark} {colour_name(colour)}" if mark else colour_name(colour)


def piece_view(title: str, piece: tuple[str, str], line: str | None = None,
               footer: str = "") -> View:
    """A page about one piece: its glyph and colour large, ``line`` (default: its shape) below.
    A custom layout's long colour name goes into the lines instead."""
    colour, shape = piece
    big = piece_big(colour, shape)
    below = shape_name(shape) if line is None else line
    if len(big) > BIG:
        return View(title, (piece_text(colour, shape)[:CHARS], below), footer=footer)
    return View(title, (below,), big=big, footer=footer)



def chunks(lines: list[str], size: int = PAGE_LINES) -> list[tuple[str, ...]]:
    """``lines`` in as few screenfuls of at most ``size`` as they need, shared out evenly (four
    players make two pages of two, never three and one alone)."""
    if not lines:
        return [()]
    pages = -(-len(lines) // size)
    base, extra = divmod(len(lines), pages)
    out, at = [], 0
    for page in range(pages):
        take = base + (1 if page < extra else 0)
        out.append(tuple(lines[at:at + take]))
        at += take
    return out


def coins_text(n: int) -> str:
    return ngettext("{n} coin", "{n} coins", n).format(n=n)


def _steps(n: int) -> str:
    return ngettext("{n} step", "{n} steps", n).format(n=n)


def pick_colours(takes: list[dict[str, Any]]) -> list[str]:
    """Free layout: the colours of the legal takes, in the engine's order."""
    return list(dict.fromkeys(a["colour"] for a in takes))


def pick_shapes(takes: list[dict[str, Any]], colour: str) -> list[str]:
    """Free layout: the shapes of ``colour`` among the legal takes."""
    return [a["shape"] for a in takes if a["colour"] == colour]


# -- laying out a dealt circle (B2) --------------------------------------------------------------
def layout_pages(pub: Public) -> list[View]:
    """The walk-through of a dealt circle: what to do, then one place a screen with the piece
    large (quick to read across the table: glance, lay it down, OK), then where the figure goes."""
    return [layout_page(pub, index) for index in range(layout_count(pub))]


def layout_count(pub: Public) -> int:
    """How many pages ``layout_pages`` has: the first, one a place, the figure's."""
    return len(pub.pieces) + 2


def layout_page(pub: Public, index: int) -> View:
    """Page ``index`` of ``layout_pages`` alone (the referee draws the walk one page a frame)."""
    pieces = pub.pieces
    size = len(pieces)
    if index == 0:
        what = _("pieces in a circle") if pub.set == "pieces" else _("tiles in a circle")
        return View(_("Lay out clockwise"), (what,), big=str(size),
                    footer=_("OK next  BACK menu"))
    if index <= size:
        return piece_view(_("Place {n} of {size}").format(n=index, size=size), pieces[index - 1],
                          footer=_("OK next  BACK back"))
    start = pub.figure or 0
    return piece_view(_("Put the figure on"), pieces[start],
                      _("{shape}, place {n}").format(shape=shape_name(pieces[start][1]),
                                                     n=start + 1),
                      footer=_("OK play  BACK back"))


# -- after a move --------------------------------------------------------------------------------
def standings_lines(pub: Public) -> list[str]:
    """Every player's coins, packed into lines."""
    return pack([f"{p} {pub.coins(p)}" for p in pub.names])


def ranking_lines(pub: Public) -> list[str]:
    """"1. Ben            13": place, name and coins, one player a line, most coins first."""
    return [f"{place}. {player}"[:CHARS - 4].ljust(CHARS - 4) + f"{coins:>4}"
            for place, player, coins in pub.standings]


def move_pages(events: list[Event], pub: Public) -> list[Page]:
    """What the table sees after a move: the take, a double scoring, the large coin, each scoring,
    then the coins (at the end: the final coins, before ``final_view`` shows the winner)."""
    pages: list[Page] = []
    scorings = [e for e in events if e.kind == "scoring"]
    for event in events:
        data = event.data
        if event.kind == "take":
            piece = (data["colour"], data["shape"])
            line = shape_name(piece[1]) if data["steps"] is None else _("{shape}, {steps}").format(
                shape=shape_name(piece[1]), steps=_steps(data["steps"]))
            title = _("{player} took") if data["steps"] is None else _("{player} takes")
            # a take with no scoring after it gives way to the next move, and says so; one
            # before a scoring waits for OK at the box ("OK: next"), as every other page
            pages.append(Page(piece_view(first_fit(title.format(player=data["player"]),
                                                _("Taken")), piece, line,
                                         footer="" if scorings else _("OK or the next move")),
                              PAGE_S, minor=not scorings))
            if len(scorings) == 2:
                both = (_("last colour + shape") if pub.set == "pieces"
                        else _("last colour + animal"))
                pages.append(Page(piece_view(_("Double scoring!"), piece, both)))
        elif event.kind == "large_coin":
            swaps = _("swaps {n} small for it").format(n=data["coins"])
            pages.append(Page(View(_("Large coin"), (swaps,), big=data["player"])
                              if len(data["player"]) <= BIG else
                              View(_("Large coin"), (data["player"][:CHARS], swaps))))
        elif event.kind == "large_coin_skipped":
            pages.append(Page(View(_("Large coin"), (
                _("Nobody has {n} small").format(n=data["coins"]), _("coins: no swap.")))))
        elif event.kind == "scoring":
            pages += _scoring_pages(data)
    if pub.shortfall and pub.is_over:
        pages.append(Page(View(_("Not enough coins"), (_("owed: write them down"),),
                               big=str(pub.shortfall))))
    if pub.is_over:
        for lines in chunks(ranking_lines(pub)):
            pages.append(Page(View(_("Coins at the end"), lines)))
    elif scorings:
        title = _("Coins ({n} left)").format(n=pub.coins_left)
        for lines in chunks(standings_lines(pub)):
            pages.append(Page(View(title, lines)))
    return pages


def _scoring_pages(data: Mapping[str, Any]) -> list[Page]:
    """"Last red!": who gains how many coins (more pages for many players), then what is left."""
    value = data["value"]
    mark = glyph(value) if data["what"] == "shape" else ""
    named = shape_name(value) if data["what"] == "shape" else colour_name(value)
    title = first_fit(_("Last {what}!").format(what=f"{mark} {named}" if mark else named),
                   _("Scoring!"))
    gains = pack([f"{p} +{c}" for p, c in data["payouts"].items() if c])
    left = data["coins_left"]
    gains.append(ngettext("{n} coin left", "{n} coins left", left).format(n=left) if left
                 else _("No coins left!"))
    return [Page(View(title, lines)) for lines in chunks(gains)]


# -- the end (B6) --------------------------------------------------------------------------------
def final_view(pub: Public, page: int = 0) -> View:
    """The winner (page 0), then the final coins three players a screen; NEXT goes round."""
    ranking = chunks(ranking_lines(pub))
    page %= len(ranking) + 1
    if page:
        footer = _("NEXT more  OK menu") if page < len(ranking) else _("NEXT winner  OK menu")
        return View(_("Coins at the end"), ranking[page - 1], footer=footer)
    winners = pub.winners
    footer = _("NEXT coins  OK menu")
    coins = pub.coins(winners[0])
    if len(winners) == 1:
        name = winners[0]
        if len(name) <= BIG:
            return View(_("Winner!"), (coins_text(coins),), big=name, footer=footer)
        return View(_("Winner!"), (name[:CHARS], coins_text(coins)), footer=footer)
    each = ngettext("{n} coin each", "{n} coins each", coins).format(n=coins)
    names = " & ".join(winners)
    if len(names) <= BIG:
        return View(_("Shared win!"), (each,), big=names, footer=footer)
    return View(_("Shared win!"), (*pack(list(winners), " & ")[:2], each), footer=footer)


# -- undo ----------------------------------------------------------------------------------------
def put_back_pages(old: Public, new: Public) -> list[View]:
    """After an undo from ``old`` to ``new`` (what the table saw before and sees now): the piece
    to put back, where the figure goes, the coins back to the pot and the large coin back, one
    thing a page."""
    back = [(p, piece) for p in new.names
            for piece in old.seat[p].pieces[len(new.seat[p].pieces):]]
    if not back:
        return []
    player, piece = back[0]
    pages = [piece_view(first_fit(_("{player} puts back").format(player=player), _("Put back")),
                        piece)]
    if new.figure is not None and new.figure != old.figure and new.layout is not None:
        colour, shape, taken = new.layout[new.figure]
        there = (colour, shape)
        if taken:                   # the figure stood in the gap an earlier take left
            pages.append(piece_view(_("Figure back"), there, _("onto the gap it left")))
        else:                       # the first move: back onto the start piece (B2)
            pages.append(piece_view(_("Figure back onto"), there))
    swapped = old.large_coin is not None and new.large_coin is None
    n = new.large_coin_value
    paid = {p: old.seat[p].small_coins - new.seat[p].small_coins
            + (n if swapped and p == old.large_coin else 0) for p in new.names}
    gains = pack([f"{p} {n}" for p, n in paid.items() if n > 0])
    if gains:
        pages += [View(_("Coins to the pot"), lines) for lines in chunks(gains)]
    if swapped:
        holder = old.large_coin
        assert holder is not None
        takes = ngettext("takes {n} small coin", "takes {n} small coins", n).format(n=n)
        pages.append(View(_("Large coin back"), (takes,), big=holder) if len(holder) <= BIG
                     else View(_("Large coin back"), (holder[:CHARS], takes)))
    return pages


# -- the turn ------------------------------------------------------------------------------------
def turn_view(pub: Public, player: str, station: bool, steps: list[int], cursor: int) -> View:
    """The player to move: each move they may make (A/B/C at a station) with the piece it lands
    on (the engine says where), then their coins and the pot."""
    lines = []
    for n in steps:
        colour, shape = pub.next_pieces[n - 1]
        key = f"{'ABC'[n - 1]} {n}" if station else f"{n}"
        lines.append(f"{key} {piece_text(colour, shape)}")
    coins = pub.coins(player)
    lines.append(ngettext("You: {n} coin, pot {pot}", "You: {n} coins, pot {pot}",
                          coins).format(n=coins, pot=pub.coins_left))
    title = (_("{player}'s turn") if station else _("{player}'s turn (box)")).format(
        player=player)
    return View(title if len(title) <= CHARS else player, tuple(lines), cursor=cursor,
                footer=_("A/B/C or NEXT+OK") if station else _("NEXT steps  OK go"))


def pick_view(player: str, station: bool, takes: list[dict[str, Any]], colour: str | None,
              cursor: int) -> View:
    """Free layout (B7): which piece did ``player`` take? The colour first, then its shape."""
    if colour is None:
        title = _("{player}: which colour?").format(player=player)
        lines = tuple(colour_name(c) for c in pick_colours(takes))
        footer = first_fit(_("A/NEXT move B/OK pick"), _("A move  B pick")) if station \
            else _("NEXT move  OK pick")
    else:
        title = _("{player}: which {colour}?").format(player=player, colour=colour_name(colour))
        lines = tuple(piece_text(colour, s) for s in pick_shapes(takes, colour))
        footer = first_fit(_("A move B pick C back"), _("A move  B pick")) if station \
            else _("NEXT  OK pick  BACK")
    return View(title if len(title) <= CHARS else _("{player} took?").format(player=player),
                lines, cursor=cursor % len(lines), footer=footer)
