"""Currency Torraku's screens: the bid, the bids overview, the stack, the learning, the pages.

One idea per screen, the number or name that matters in ``big``; every line fits 21 characters.
"""

from __future__ import annotations

from typing import Any, Sequence

from ....games.core import Event
from ....games.currency_torraku import CurrencyTorraku
from ...i18n import _
from ...screens import CHARS, View
from ..base import Page

PAGE_S = 3.0
KIND_NAMES = {"truck": "truck", "washing_machine": "washer", "rice_cooker": "rice cooker"}


def kind_text(kind: str | None) -> str:
    return _("piece") if kind is None else _(KIND_NAMES.get(kind, kind))


def fit(text: str, short: str = "") -> str:
    """``text`` if it fits a line, else ``short`` (or ``text`` cut)."""
    return text if len(text) <= CHARS else (short or text[:CHARS])


def row_line(name: str, right: str) -> str:
    """"Red          3 / 10": the name left, the figures right, one line."""
    room = CHARS - len(right) - 1
    return f"{name[:room]:<{room}} {right}"


def bid_view(state: CurrencyTorraku, player: str, choice: int | None, station: bool,
             passing: bool = False) -> View:
    """The bidder's screen: their choice big; the top bid and their pieces; what a first bid
    above their pieces draws from the bag."""
    top = state.highest()
    own = state.pieces[player]
    if passing or choice is None:
        big = _("pass")
        bid_now = state.bids[player] or 0
        line = fit(_("binding: {n}").format(n=bid_now))
    else:
        big = str(choice)
        draw = choice - own
        line = (fit(_("draw {n} from the bag").format(n=draw)) if draw > 0
                else fit(_("top {top}, you own {own}").format(top=top, own=own),
                         _("top {top}/own {own}").format(top=top, own=own)))
    if station:
        footer = _("A- C+ B bid long:pass") if state.may_pass(player) else _("A- C+ B bid")
    else:
        footer = _("NEXT change  OK bid")
    return View(fit(_("{p}: your bid?").format(p=player), player), (line,), big=big,
                footer=footer)


def bids_view(state: CurrencyTorraku, page: int = 0) -> View:
    """Every player's bid and pieces, and the bag (four players a screen)."""
    lines = []
    for p in state.players:
        bid = state.bids[p]
        mark = "-" if bid is None else str(bid)
        if state.passed[p]:
            mark += "."
        lines.append(row_line(p, f"{mark:>3} /{state.pieces[p]:>3}"))
    chunks = [lines[i:i + 4] for i in range(0, len(lines), 4)]
    shown = chunks[page % len(chunks)]
    return View(fit(_("Bids / pieces, bag {n}").format(n=state.bag),
                    _("Bids, bag {n}").format(n=state.bag)), tuple(shown),
                footer=_("NEXT more") if len(chunks) > 1 and page % len(chunks) == 0
                else _("NEXT back"))


def rows_view(state: CurrencyTorraku) -> View:
    """While stacking: every player's row left and pieces."""
    lines = [row_line(p, f"row{state.row[p]:>3} /{state.pieces[p]:>3}")
             for p in state.players]
    return View(fit(_("Rows, stack {n}").format(n=len(state.stack))), tuple(lines[:4]),
                footer=_("NEXT back"))


def stack_view(state: CurrencyTorraku, station: bool, hint: str = "") -> View:
    """Whose piece goes on the stack: the name big, the stack and their row below."""
    player = state.turn()
    assert player is not None
    line = hint or fit(_("stack {s}, row {r}").format(s=len(state.stack), r=state.row[player]))
    footer = _("A dropped  OK declare") if station else _("OK declare")
    return View(fit(_("Round {r}: stack!").format(r=state.round)), (line,), big=player,
                footer=footer)


def declare_view(labels: Sequence[str], cursor: int, player: str) -> View:
    return View(fit(_("Host: {p}").format(p=player), _("Declare")), tuple(labels),
                cursor=cursor, footer=_("NEXT  OK do  BACK"))


def declare_label(action: dict[str, Any]) -> str:
    kind = action["type"]
    if kind == "place":
        return _("placed a {k}").format(k=kind_text(action["piece"])) if "piece" in action \
            else _("placed")
    return {"collapse": _("collapse (penalty)"), "drop": _("dropped (no penalty)")}[kind]


def learn_view(kind: str, have: int, want: int, grams: float | None) -> View:
    """Learning the set's weights: put ``want`` pieces of ``kind`` on the pan, one at a time."""
    line = fit(_("one {k} at a time").format(k=kind_text(kind)))
    if grams is not None:
        line = fit(_("last {g:.1f} g").format(g=grams))
    return View(fit(_("Weigh: {k}").format(k=kind_text(kind))), (line,),
                big=f"{have}/{want}", footer=_("OK skip learning"))


def learned_view(weights: dict[str, float], distinct: bool) -> View:
    lines = [fit(f"{kind_text(k)}: {g:.1f} g") for k, g in weights.items()]
    lines.append(_("kinds told apart") if distinct else _("kinds look alike"))
    return View(_("Pieces learned"), tuple(lines), footer=_("OK: clear the pan"))


def clear_view() -> View:
    return View(_("Clear the pan"), (_("Take every piece"), _("off the pan; then"),
                                    _("bidding starts.")), footer=_("OK: go on"))


def final_view(state: CurrencyTorraku) -> View:
    """The winners (C4) and everybody's pieces left."""
    winners = state.winners()
    title = (_("{p} wins!").format(p=winners[0]) if len(winners) == 1 else _("Shared win!"))
    lines = [row_line(f"{rank}. {p}", str(n)) for rank, p, n in state.standings()]
    return View(fit(title, _("Winner!")), tuple(lines[:4]), footer=_("OK: menu"))


def event_pages(events: Sequence[Event], state: CurrencyTorraku) -> list[Page]:
    """What the table sees after an action: a draw, the start of stacking, a collapse, the end
    of a round and the next opener."""
    pages: list[Page] = []
    for event in events:
        d = event.data
        if event.kind == "draw":
            pages.append(Page(View(_("Draw from the bag"), (
                fit(_("{p}: take {n}").format(p=d["player"], n=d["count"])),), big=str(d["count"])),
                PAGE_S))
        elif event.kind == "stacking":
            pages.append(Page(View(_("Bids are in"), (_("starts the stack"),), big=d["player"]),
                              PAGE_S, minor=True))
        elif event.kind == "collapse":
            pages.append(Page(View(fit(_("Collapse: {p}").format(p=d["player"]), _("Collapse!")),
                                   (fit(_("{n} pieces now").format(n=d["pieces"])),),
                                   big=f"+{d['count']}"), PAGE_S))
        elif event.kind == "round_end":
            pages.append(Page(View(_("Round over"), (
                fit(_("{n} into the bag").format(n=d["stack"])),), big=_("bag {n}").format(n=d["bag"])),
                PAGE_S))
        elif event.kind == "round":
            pages.append(Page(View(fit(_("Round {r}").format(r=d["round"])),
                                   (_("opens the bidding"),), big=d["player"]), PAGE_S))
    return pages


__all__ = ["bid_view", "bids_view", "clear_view", "declare_label", "declare_view",
           "event_pages", "final_view", "kind_text", "learn_view", "learned_view", "rows_view",
           "stack_view"]
