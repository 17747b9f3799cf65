"""Tante Trudels Trödel's pages: what the table reads after an action, after an undo, at the end.

After an action: the Purchase's rows, a scales-row verdict (LIGHTER, HEAVIER, BALANCED: never
grams, TT2), a basket reaching the weighing, the order of the weighing. At the end (TT6, TT7): the
Purchase's grams, each basket's grams in arrival order, the baskets ranked, then the winner
(``final_view``, shown with the win sound). After an undo: what to put back on the table, since
the box only counts what the players move.
"""

from __future__ import annotations

from typing import Any, Mapping

from ....games.core import Event
from ...i18n import N_, _
from ...pans.words import pan_name
from ...screen.render import CHARS, View, pack, wrap
from ..base import Page
from .public import Public
from .screens import PAGE_S, big_name, fit, grams, off_pan, on_pan

VERDICT_WORDS = {"lighter": N_("LIGHTER"), "heavier": N_("HEAVIER"), "balanced": N_("BALANCED")}
STANDINGS_ROWS = 3   # lines on one page of the ranked baskets


def _named(title: str, name: str, line: str | None = None) -> View:
    """A page with a player's name big (in a line when it is too long for ``big``)."""
    big = big_name(name)
    lines = (line,) if line else ()
    if big is None:
        return View(title, (name,) + lines)
    return View(title, lines, big=big)


def event_pages(events: list[Event], pub: Public, pans: int, potd_pan: str,
                away: bool = False) -> list[Page]:
    """What the table sees after an action. A turn's ordinary steps need no page: the next
    screen says it. ``potd_pan`` holds the Purchase (with one pan, the baskets' too); ``away``:
    a substitution put it on the basket's pan, from where it goes back."""
    pages: list[Page] = []
    for event in events:
        data = event.data
        if event.kind == "potd_row":
            pages.append(Page(View(_("Take the edge item"), (_("put a coupon there"),),
                                   big=_("Row {row}").format(row=data["row"])), PAGE_S))
        elif event.kind == "potd_weighed":
            text = (_("Leave it on the {pan} pan for the whole game.").format(
                pan=pan_name(potd_pan)) if pans >= 2 else
                _("Take it off the pan. The box remembers its weight."))
            pages.append(Page(View(_("Purchase weighed"), tuple(wrap(text))), PAGE_S))
        elif event.kind == "weigh":
            pages.append(Page(View(fit(_("{name}'s basket is").format(name=data["player"]),
                                       data["player"]),
                                   (_("with the Purchase") if data["result"] == "balanced"
                                    else _("than the Purchase"),),
                                   big=_(VERDICT_WORDS[data["result"]])), PAGE_S))
        elif event.kind == "arrive":
            line = _("There now: {n} of {total}").format(n=data["arrival"],
                                                          total=len(pub.players))
            pages.append(Page(_named(_("To the weighing"), data["player"], line), PAGE_S,
                              minor=True))
        elif event.kind == "weighing":
            first = data["order"][0]
            pages.append(Page(_named(_("Everybody is here"), first, _("is weighed first")),
                              PAGE_S))
        elif event.kind == "basket_weighed" and not pub.is_over:
            player = data["player"]
            lines = ((_("Purchase back"), on_pan(potd_pan, pans)) if away and pans >= 2 else
                     (_("Take the Purchase"), off_pan(potd_pan, pans)) if away else
                     (_("Take the items off"),))
            pages.append(Page(View(fit(_("{name}'s basket").format(name=player), player),
                                   lines, big=_("WEIGHED")), PAGE_S))
        elif event.kind == "reveal":
            pages += reveal_pages(pub, data)
    return pages


# -- the end -------------------------------------------------------------------------------------
def _basket_line(pub: Public, result: str, diff: float) -> str:
    """The basket against the Purchase (TT6): "0.39 g lighter: good", "0.12 g heavier: out";
    in the kids' variants (TT7) only the grams count, so no line."""
    if pub.goal != "standard":
        return ""
    size = grams(abs(diff))
    if result == "lighter":
        return fit(_("{g} lighter: good").format(g=size), _("lighter: good"))
    if result == "heavier":
        return fit(_("{g} heavier: out").format(g=size), _("heavier: out"))
    return _("just as heavy: out")


def reveal_pages(pub: Public, data: Mapping[str, Any]) -> list[Page]:
    """The end: the Purchase's grams, each basket in arrival order, the baskets ranked."""
    potd = data["potd_g"]
    goal = {"standard": _("Lighter baskets count"), "heaviest": _("The heaviest wins"),
            "lightest": _("The lightest wins")}[pub.goal]
    pages = [Page(View(_("Purchase of the Day"), (goal,), big=grams(potd)), PAGE_S)]
    for player in pub.arrivals:
        basket = data["baskets"][player]
        line = _basket_line(pub, data["results"][player], basket - potd)
        pages.append(Page(View(fit(_("{name}'s basket").format(name=player), player),
                               (line,) if line else (), big=grams(basket)), PAGE_S))
    out = {p for p, result in data["results"].items() if result != "lighter"} \
        if pub.goal == "standard" else set()
    return pages + [Page(view, PAGE_S) for view in standings_views(pub, out)]


def standings_views(pub: Public, out: set[str] | frozenset[str] = frozenset()) -> list[View]:
    """The baskets ranked with their grams, at most three a page (four players: two pages); a
    basket that is ``out`` (not lighter than the Purchase, TT6) says so in place of a rank."""
    rows = []
    for rank, player, g in pub.standings:
        shown = grams(g)
        place = _("out") if player in out else f"{rank}."
        head = f"{place} {player}"[: CHARS - len(shown) - 1]
        rows.append(head.ljust(CHARS - len(shown)) + shown)
    per = STANDINGS_ROWS if len(rows) <= STANDINGS_ROWS else (len(rows) + 1) // 2
    return [View(_("The baskets"), tuple(rows[i:i + per])) for i in range(0, len(rows), per)]


def final_view(pub: Public) -> View:
    """The last screen: who wins, big (the win sound plays with it)."""
    winners = pub.winners
    footer = _("OK: menu")
    if not winners:
        return View(_("Nobody wins"), (_("No basket lighter"), _("than the Purchase")),
                    footer=footer)
    if len(winners) > 1:
        return View(_("Shared win!"), tuple(pack(list(winners), " & ")[:3]), footer=footer)
    name = winners[0]  # big alone, so it is drawn at its largest (the grams were on the pages)
    big = big_name(name)
    return View(_("The winner is"), () if big else (name,), big=big, footer=footer)


# -- undo ----------------------------------------------------------------------------------------
def undo_pages(action: dict[str, Any] | None, before: Public, after: Public, pans: int,
               pan: str, potd_pan: str) -> list[Page]:
    """What to put back after an undo of ``action`` (``before``: what the table saw after it,
    ``after``: what it sees now, as before the action): the box took its count back, the table
    must do the same."""
    if not action:
        return []
    kind, player = action.get("type"), str(action.get("player", ""))
    back = fit(_("{name}, put back:").format(name=player), _("Put back:"))
    take = fit(_("{name}, take back:").format(name=player), _("Take back:"))
    coupon = bool(action.get("coupon"))
    thing = _("COUPON") if coupon else _("ITEM")
    view: View | None = None
    if kind == "roll" and after.phase == "potd" and before.potd_rows:
        row = before.potd_rows[-1]  # the row the undone roll had reached (TT1)
        view = View(_("Take the coupon off"), (_("and put the item back"),),
                    big=_("Row {row}").format(row=row))
    elif kind == "move":
        seat = after.seat.get(player)
        here = seat.position if seat is not None else 0
        where = _("ENTRANCE") if here <= 0 else _("Row {row}").format(row=here)
        view = View(fit(_("{name}'s basket back").format(name=player), _("Basket back")),
                    big=where)
    elif kind == "take":
        view = View(back, (_("back in the shop"),), big=thing)
    elif kind == "return":
        view = View(take, (_("into your basket"),), big=thing)
    elif kind == "exchange":
        view = View(fit(_("{name}, swap back:").format(name=player), _("Swap back:")),
                    (_("The new item to the"), _("shop, the old one"), _("into your basket.")))
    elif kind == "coupon_shop":
        view = View(fit(_("{name}, swap back:").format(name=player), _("Swap back:")),
                    (_("The item to the shop,"), _("the coupon back"), _("into your basket.")))
    elif kind == "coupon_player":
        target = str(action.get("target", ""))
        view = View(_("Swap back"), (fit(_("Coupon back to {name}").format(name=player),
                                         _("The coupon back")),
                                     fit(_("Item back to {name}").format(name=target),
                                         _("The item back"))))
    elif kind == "weigh_potd":
        view = View(_("Weigh again"), (_("Put the 3 items"), on_pan(potd_pan, pans)))
    elif kind == "weigh_basket":
        view = View(fit(_("{name}: weigh again").format(name=player), _("Weigh again")),
                    (_("Put your items back"), on_pan(pan, pans)))
    return [Page(view, PAGE_S)] if view is not None else []


__all__ = ["event_pages", "final_view", "reveal_pages", "standings_views", "undo_pages"]
