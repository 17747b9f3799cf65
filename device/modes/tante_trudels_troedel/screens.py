"""Tante Trudels Trödel's screens: the die, the move, the turn's menu, a weighing, the reveal.

One idea per screen, the word that matters in ``big`` (under it there is room for one line when
the screen has a footer, two without). No gram figure is shown before the game is over (TT2): a
weighing shows LIGHTER, HEAVIER or BALANCED; the reveal pages show the grams.
"""

from __future__ import annotations

from typing import Any

from ....games.core import Event
from ....games.tante_trudels_troedel import TanteTrudelsTroedel
from ....games.trudel_rules import WEIGHING
from ...i18n import N_, _, ngettext
from ...scales import pan_name
from ...screens import CHARS, View, wrap
from ..base import Page
from .weighing import Weigher

PAGE_S = 3.0


def fit(text: str, short: str) -> str:
    """``text`` if it fits a line, else ``short``."""
    return text if len(text) <= CHARS else short[:CHARS]


def place(row: int) -> str:
    """Row 7, the entrance or the weighing."""
    if row <= 0:
        return _("entrance")
    if row >= WEIGHING:
        return _("weighing")
    return _("row {row}").format(row=row)


def grams(g: float | None) -> str:
    return "-" if g is None else f"{g:.2f} g"


def pan_text(pan: str, pans: int) -> str:
    """"the right pan", or "the pan" on a box with one pan."""
    return _("the pan") if pans < 2 else _("the {pan} pan").format(pan=pan_name(pan))


ACTION_LABELS = {
    ("take", False): N_("Take an item"),
    ("take", True): N_("Take a coupon"),
    ("return", False): N_("Return an item"),
    ("return", True): N_("Return a coupon"),
    ("exchange", None): N_("Exchange an item"),
    ("weigh", None): N_("Weigh (scales)"),
    ("coupon_shop", None): N_("Coupon: pay shop"),
    ("end_turn", None): N_("Done"),
}


def action_label(action: dict[str, Any]) -> str:
    """The menu line of a legal action."""
    if action["type"] == "coupon_player":
        return fit(_("Coupon: pay {name}").format(name=action["target"]), _("Coupon: pay player"))
    key = (action["type"], action.get("coupon") if action["type"] in ("take", "return") else None)
    return _(ACTION_LABELS[key])


# -- the turn ------------------------------------------------------------------------------------
def roll_view(state: TanteTrudelsTroedel, player: str, station: bool, table_die: bool,
              value: int) -> View:
    """Before a roll: the Purchase of the Day's three, or a turn's one."""
    if state.phase == "potd":
        n = len(state.potd_rows) + 1
        title = fit(_("{name}: purchase {n}/3").format(name=player, n=n),
                    _("Purchase {n} of 3").format(n=n))
        here = place(state.potd_rows[-1] if state.potd_rows else 0)
        lines = wrap(_("Roll, then move on from {place}.").format(place=here))
    else:
        here = state.position[player]
        title = fit(_("{name}'s turn").format(name=player), player)
        lines = [fit(_("Basket at {place}").format(place=place(here)), place(here)),
                 ngettext("{n} item", "{n} items", state.items[player]).format(
                     n=state.items[player]) + ", " +
                 ngettext("{n} coupon", "{n} coupons", state.coupons[player]).format(
                     n=state.coupons[player])]
    if table_die:
        footer = _("A- C+ B: enter") if station else _("NEXT +1  OK enter")
        return View(title, (_("Roll, enter the die"),), big=str(value), footer=footer)
    return View(title, tuple(lines), footer=_("B: roll the die") if station else _("OK: roll"))


def rolling_view(player: str, tick: int) -> View:
    return View(_("Rolling..."), (player,), big="." * (tick % 3 + 1))


def move_view(state: TanteTrudelsTroedel, player: str, station: bool, cursor: int,
              moves: list[str]) -> View:
    """Where the roll takes the basket; the choice when TT4 allows going back."""
    roll = state.roll or 0
    here = state.position[player]
    title = fit(_("{name} rolled {n}").format(name=player, n=roll), _("Rolled {n}").format(n=roll))
    forward = min(here + roll, WEIGHING)
    if len(moves) == 1:
        line = f"{place(here).capitalize()} -> {place(forward)}"
        return View(title, (fit(line, place(forward).capitalize()),), big=str(roll),
                    footer=_("Moved? B: yes") if station else _("Moved? OK: yes"))
    lines = tuple(fit(_("Forward: {place}").format(place=place(forward)), _("Forward"))
                  if m == "forward" else
                  fit(_("Back: {place}").format(place=place(here - roll)), _("Back"))
                  for m in moves)
    return View(title, lines, cursor=cursor % len(lines),
                footer=_("A/C choose  B: go") if station else _("NEXT choose  OK go"))


def act_view(state: TanteTrudelsTroedel, player: str, station: bool, cursor: int,
             actions: list[dict[str, Any]]) -> View:
    """The turn's short menu: what ``legal_actions`` allows, then Done."""
    here = place(state.position[player])
    title = fit(f"{player}: {here}", here.capitalize())
    labels = tuple(action_label(a) for a in actions)
    return View(title, labels, cursor=cursor % len(labels),
                footer=_("A/C move  B: pick") if station else _("NEXT move  OK pick"))


# -- weighing ------------------------------------------------------------------------------------
def weigh_view(weigher: Weigher, station: bool, pans: int, cancel: bool) -> View:
    """A weighing in progress; never a gram figure."""
    job = weigher.job
    where = pan_text(job.pan, pans)
    if job.kind == "potd":
        title = _("Purchase of the Day")
    elif job.kind == "basket":
        title = fit(_("Weighing: {name}").format(name=job.player), job.player)
    else:
        title = fit(_("{name} weighs").format(name=job.player), _("Weighing"))
    back = (_("C: cancel") if station else _("BACK: cancel")) if cancel else ""
    if weigher.paused:
        return View(_("Scale not answering"), tuple(
            wrap(_("{pan} does not answer. Check its cable; waiting.").format(
                pan=where.capitalize()))[:4]), footer=back)
    if weigher.stage == "clear":
        return View(title, tuple(wrap(_("Take everything off {pan} first.").format(
            pan=where))[:4]), footer=back)
    if weigher.stage == "load":
        if job.kind == "potd":
            text = _("Put the 3 items on {pan}, then press").format(pan=where)
        elif job.kind == "basket":
            text = _("{name}: your items, no coupons, on {pan}, then press").format(
                name=job.player, pan=where)
        else:
            text = ngettext("Put your {n} item on {pan}, then press",
                            "Put your {n} items on {pan}, then press",
                            job.items or 0).format(n=job.items, pan=where)
        key = _("B") if station else _("OK")
        lines = wrap(f"{text} {key}.")[:4]
        footer = _("B: all on") if station else _("OK: all on")
        if cancel:
            footer = _("B all on  C cancel") if station else _("OK all on  BACK no")
        return View(title, tuple(lines), footer=footer)
    if weigher.note == "empty":
        lines = wrap(_("{pan} is empty: put the items on.").format(pan=where.capitalize()))
    elif weigher.note == "potd":
        lines = wrap(_("Put the Purchase of the Day on the {pan} pan.").format(
            pan=job.ref or ""))
    else:
        return View(title, (_("Hands off the pans"),), big=_("WAIT"), footer=back)
    return View(title, tuple(lines[:4]), footer=back)


# -- pages after actions -------------------------------------------------------------------------
VERDICT_WORDS = {"lighter": N_("LIGHTER"), "heavier": N_("HEAVIER"), "balanced": N_("BALANCED")}


def event_pages(events: list[Event], state: TanteTrudelsTroedel, pans: int, pan: str,
                potd_pan: str) -> list[Page]:
    """What the table sees after an action: the Purchase's rows, a verdict, the weighing, the
    reveal. A turn's ordinary steps need no page: the next screen says it. ``pan`` takes the
    baskets, ``potd_pan`` holds the Purchase (the same with one pan)."""
    pages: list[Page] = []
    basket_pan = pan_text(pan, pans)
    for event in events:
        data = event.data
        if event.kind == "potd_row":
            pages.append(Page(View(_("Purchase {n} of 3").format(n=data["count"]),
                                   (_("Take item, put coupon"),),
                                   big=_("Row {row}").format(row=data["row"])), PAGE_S))
        elif event.kind == "potd_weighed":
            text = (_("Leave it on {pan} for the whole game.").format(
                pan=pan_text(potd_pan, pans)) if pans >= 2 else
                _("Take it off the pan: the box remembers its weight."))
            pages.append(Page(View(_("Purchase weighed"), tuple(wrap(text)[:4])), PAGE_S))
        elif event.kind == "weigh":
            pages.append(Page(View(fit(_("{name}'s basket is").format(name=data["player"]),
                                       data["player"]),
                                   (_("than the Purchase"),),
                                   big=_(VERDICT_WORDS[data["result"]])), PAGE_S))
        elif event.kind == "arrive":
            pages.append(Page(View(fit(_("{name} to the weighing").format(name=data["player"]),
                                       data["player"]),
                                   (_("Arrived: no. {n}").format(n=data["arrival"]),),
                                   big=_("WEIGHING")), PAGE_S, minor=True))
        elif event.kind == "weighing":
            order = data["order"]
            lines = wrap(_("Everybody is here. Baskets in arrival order: {names}").format(
                names=", ".join(order)))
            pages.append(Page(View(_("The weighing"), tuple(lines[:4])), PAGE_S))
        elif event.kind == "basket_weighed" and not state.is_over:
            pages.append(Page(View(fit(_("{name}: weighed").format(name=data["player"]),
                                       data["player"]),
                                   (fit(_("Take it off {pan}").format(pan=basket_pan),
                                        _("Take it off")),), big=_("DONE")), PAGE_S))
        elif event.kind == "reveal":
            pages += reveal_pages(state, data)
    return pages


def _basket_line(state: TanteTrudelsTroedel, result: str, diff: float) -> str:
    """The basket against the Purchase: "-0.10 g: counts" (TT6), or just the difference (TT7)."""
    text = f"{diff:+.2f} g"
    if state.goal != "standard":
        return _("{diff} to Purchase").format(diff=text)
    if result == "lighter":
        return _("{diff}: counts").format(diff=text)
    return (_("{diff}: heavier, out") if result == "heavier" else
            _("{diff}: balanced, out")).format(diff=text)


def reveal_pages(state: TanteTrudelsTroedel, data: dict[str, Any]) -> list[Page]:
    """The end (TT6, TT7): the Purchase's grams, each basket in arrival order, the winners."""
    potd = data["potd_g"]
    pages = [Page(View(_("Purchase of the Day"), (_("weighed"),), big=grams(potd)), PAGE_S)]
    for n, player in enumerate(state.arrivals, start=1):
        basket = data["baskets"][player]
        line = _basket_line(state, data["results"][player], basket - potd)
        pages.append(Page(View(fit(_("{n}. basket: {name}").format(n=n, name=player), player),
                               (line,), big=grams(basket)), PAGE_S))
    return pages


def final_view(state: TanteTrudelsTroedel) -> View:
    """After the reveal: who wins (or nobody), each basket's grams and the Purchase's."""
    winners = state.winners()
    if not winners:
        title = _("Nobody wins")
    elif len(winners) == 1:
        title = fit(_("{name} wins!").format(name=winners[0]), _("The winner"))
    else:
        title = _("Shared win!")
    lines = [_("Purchase").ljust(CHARS - 9) + f"{grams(state.potd_g):>9}"]
    lines += [f"{rank}. {player}"[:CHARS - 9].ljust(CHARS - 9) + f"{grams(g):>9}"
              for rank, player, g in state.standings()]
    if len(lines) > 4:  # four players: the Purchase's grams were on the reveal's first page
        lines = lines[1:]
    return View(title, tuple(lines), footer=_("OK: menu"))


__all__ = ["act_view", "action_label", "event_pages", "final_view", "move_view", "place",
           "reveal_pages", "roll_view", "rolling_view", "weigh_view"]
