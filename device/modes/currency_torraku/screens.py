"""Currency Torraku's screens: the bid, the overview, the stack, the learning, the pages, the end
and what an undo asks the table to put back.

One idea per screen, the number or name that matters in ``big``, said in words a child reads
(no "binding", no "0. / 10"); every line fits 21 characters in German and English. With a big
word and a footer a screen has room for one small line, so each screen says one thing.
"""

from __future__ import annotations

from typing import Any, Sequence

from ....games.core import Event
from ...i18n import N_, _, decimal, ngettext
from ...glossary import choose_footer
from ...screen.render import CHARS, View, pack
from ..base import Page
from .public import Public

PAGE_S = 3.0
PER_PAGE = 3       # players a list page shows (a page says one thing: three small lines at most)
KIND_ONE = {"truck": N_("truck"), "washing_machine": N_("washer"),
            "rice_cooker": N_("rice cooker")}
KIND_MANY = {"truck": N_("Trucks"), "washing_machine": N_("Washing machines"),
             "rice_cooker": N_("Rice cookers")}


def kind_text(kind: str | None) -> str:
    return _("piece") if kind is None else _(KIND_ONE.get(kind, kind))


def fit(text: str, short: str = "") -> str:
    """``text`` if it fits a line, else ``short`` (or ``text`` cut)."""
    return text if len(text) <= CHARS else (short or text[:CHARS])


def row_line(name: str, right: str) -> str:
    """"Anna        bids 2": the name left, the words right, one line."""
    room = CHARS - len(right) - 1
    return f"{name[:room]:<{room}} {right}"


def pieces_text(n: int) -> str:
    """"1 piece", "3 pieces" (big enough for ``big``)."""
    return ngettext("{n} piece", "{n} pieces", n).format(n=n)


def chunk(lines: list[str], page: int) -> tuple[tuple[str, ...], int]:
    """Page ``page`` of ``lines`` (PER_PAGE a page) and how many pages there are."""
    chunks = [lines[i:i + PER_PAGE] for i in range(0, len(lines), PER_PAGE)] or [[]]
    return tuple(chunks[page % len(chunks)]), len(chunks)


# -- bidding -------------------------------------------------------------------------------------
def keys_view() -> View:
    """Shown once, before the first bid: what the station keys do, in words."""
    return View(_("How to bid"), (_("A less, C more"), _("B: bid"), _("hold B: pass")))


def bid_view(pub: Public, player: str, choice: int | None, station: bool,
             passing: bool = False) -> View:
    """The bidder's screen: their choice big; below, the highest bid (or what they have), or
    how many a first bid above their pieces takes from the bag; passing says what they stack."""
    top = pub.highest
    own = pub.seat[player].pieces
    if passing or choice is None:
        big = _("pass")
        stays = pub.seat[player].bid or 0
        line = (ngettext("you stack {n} piece", "you stack {n} pieces", stays).format(n=stays)
                if stays else _("you stack none"))
    else:
        big = str(choice)
        draw = choice - own
        if draw > 0:
            line = fit(_("take {n} from the bag").format(n=draw),
                       _("{n} from the bag").format(n=draw))
        elif top:
            line = _("highest bid: {n}").format(n=top)
        else:
            line = ngettext("you have {n} piece", "you have {n} pieces", own).format(n=own)
    footer = (_("NEXT change  OK bid") if not station
              else _("hold B: pass") if choice is None else _("A less  C more  B bid"))
    return View(fit(_("{p}: your bid?").format(p=player), player), (fit(line),), big=big,
                footer=footer)


def bids_view(pub: Public, page: int = 0) -> View:
    """Every player's bid (three a page), the bag in the title."""
    lines = []
    for seat in pub.players:
        bid = seat.bid
        right = (_("no bid yet") if bid is None
                 else _("{n}, passed").format(n=bid) if seat.passed
                 else _("bids {n}").format(n=bid))
        lines.append(row_line(seat.name, right))
    shown, pages = chunk(lines, page)
    return View(fit(_("Bids (bag: {n})").format(n=pub.bag), _("Bids")), shown,
                footer=_("NEXT more") if page % pages + 1 < pages else _("NEXT back"))


def rows_view(pub: Public, page: int = 0) -> View:
    """While stacking: how many each player still has to stack (three a page)."""
    lines = [row_line(seat.name, _("{n} to go").format(n=seat.row)) for seat in pub.players]
    shown, pages = chunk(lines, page)
    return View(fit(_("Stack: {n}").format(n=pieces_text(pub.stack))), shown,
                footer=_("NEXT more") if page % pages + 1 < pages else _("NEXT back"))


def overview_pages(pub: Public) -> int:
    return (len(pub.players) + PER_PAGE - 1) // PER_PAGE


# -- stacking ------------------------------------------------------------------------------------
def stack_view(pub: Public, station: bool, hint: str = "") -> View:
    """Whose piece goes on the stack: the name big, how many they still stack below."""
    player = pub.turn
    assert player is not None
    row = pub.seat[player].row
    line = hint or ngettext("{n} piece still to go", "{n} pieces still to go", row).format(n=row)
    footer = _("A dropped  OK menu") if station else _("OK menu")
    return View(fit(_("Round {r}: stack!").format(r=pub.round)), (fit(line),), big=player,
                footer=footer)


def declare_view(labels: Sequence[str], cursor: int, player: str) -> View:
    """The host tells the box what happened (the pan did not see it, or saw it wrong)."""
    return View(fit(_("What did {p} do?").format(p=player), _("What happened?")), tuple(labels),
                cursor=cursor, footer=choose_footer())


def declare_label(action: dict[str, Any]) -> str:
    kind = action["type"]
    if kind == "place":
        return fit(_("placed a {k}").format(k=kind_text(action["piece"]))) \
            if "piece" in action else _("placed a piece")
    return {"collapse": _("the stack fell"), "drop": _("piece fell on table")}[kind]


# -- learning the set ----------------------------------------------------------------------------
def learn_view(kind: str, have: int, want: int) -> View:
    """Learning the set's weights: put ``want`` pieces of ``kind`` on the pan, one at a time."""
    return View(fit(_(KIND_MANY.get(kind, kind))), (_("one by one on the pan"),),
                big=_("{n} of {m}").format(n=have, m=want), footer=_("OK: skip this"))


def learned_view(weights: dict[str, float], distinct: bool) -> View:
    """The weights the box learned; the title says whether it tells the kinds apart."""
    lines = [fit(f"{kind_text(k)}: {decimal(g, 1)} g") for k, g in weights.items()]
    return View(_("Pieces learned") if distinct else _("Kinds look alike"), tuple(lines[:3]),
                footer=_("Empty pan, then OK"))


# -- pages after an action, the end --------------------------------------------------------------
def standings_pages(pub: Public) -> list[Page]:
    """Everybody's pieces left, fewest first (three a page)."""
    lines = [row_line(f"{rank}. {p}", pieces_text(n)) for rank, p, n in pub.standings]
    return [Page(View(_("Pieces left"), tuple(lines[i:i + PER_PAGE])), PAGE_S)
            for i in range(0, len(lines), PER_PAGE)]


def final_view(pub: Public) -> View:
    """The winner (C4), after the standings; several winners share the win."""
    winners = pub.winners
    if len(winners) == 1:
        return View(_("Game over"), (_("wins: no pieces left"),), big=winners[0],
                    footer=_("OK: menu"))
    return View(_("Shared win!"), tuple(pack(list(winners))[:3]), footer=_("OK: menu"))


def event_pages(events: Sequence[Event], pub: Public) -> list[Page]:
    """What the table sees after an action: a draw, the start of stacking, a collapse, the end
    of a round and the next opener, or the standings before the winner."""
    pages: list[Page] = []
    for event in events:
        d = event.data
        if event.kind == "draw":
            pages.append(Page(View(fit(_("{p}: from the bag").format(p=d["player"]),
                                       _("From the bag")),
                                   (_("for your bid"),), big=pieces_text(d["count"])), PAGE_S))
        elif event.kind == "stacking":
            pages.append(Page(View(_("Bids are in"), (_("starts the stack"),), big=d["player"]),
                              PAGE_S, minor=True))
        elif event.kind == "collapse":
            taken = ngettext("takes {n} piece", "takes {n} pieces", d["count"])
            pages.append(Page(View(_("The stack fell!"), (taken.format(n=d["count"]),),
                                   big=d["player"]), PAGE_S))
        elif event.kind == "round_end":
            pages.append(Page(View(_("Round over"), (_("into the bag"),),
                                   big=pieces_text(d["stack"])), PAGE_S))
        elif event.kind == "round":
            pages.append(Page(View(fit(_("Round {r}").format(r=d["round"])),
                                   (_("starts the bidding"),), big=d["player"]), PAGE_S))
        elif event.kind == "winner":
            pages += standings_pages(pub)
    return pages


# -- undo ----------------------------------------------------------------------------------------
def undo_view(undone: dict[str, Any], new: Public) -> View:
    """What the table puts back after ``undone`` was taken back (``new``: the state now), for
    the player who acted: pieces from the row, to the bag, off or back onto the stack."""
    player = str(undone.get("player", ""))
    kind = undone.get("type")
    take = fit(_("{p}: take back").format(p=player), _("Take back"))
    footer = _("OK: done")
    if kind == "bid":
        count = int(undone["count"])
        seat = new.seat[player]
        back = count - (seat.bid or 0)
        drawn = max(0, count - seat.pieces)
        line = (ngettext("{n} goes into the bag", "{n} go into the bag", drawn).format(n=drawn)
                if drawn else _("from your row"))
        return View(take, (line,), big=pieces_text(back), footer=footer)
    if kind == "place":
        piece = undone.get("piece")
        big = kind_text(piece) if piece and len(kind_text(piece)) <= CHARS // 2 \
            else pieces_text(1)
        return View(take, (_("off the stack"),), big=big, footer=footer)
    if kind == "collapse":
        return View(fit(_("{p}: put back").format(p=player), _("Put back")),
                    (_("onto the stack"),), big=pieces_text(new.stack), footer=footer)
    if kind == "pass":
        return View(_("Pass taken back"), (_("bids again"),), big=player, footer=footer)
    return View(_("Taken back"), (_("places again"),), big=player, footer=footer)


__all__ = ["bid_view", "bids_view", "declare_label", "declare_view", "event_pages",
           "final_view", "keys_view", "kind_text", "learn_view", "learned_view",
           "overview_pages", "rows_view", "stack_view", "standings_pages", "undo_view"]
