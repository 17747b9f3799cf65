"""Tante Trudels Trödel's live screens: the die, the move, the turn's menu, a weighing.

One idea per screen, the word that matters in ``big`` (the player's name, the die); under it there
is room for one line when the screen has a footer. No gram figure is shown before the game is over
(TT2): a weighing says LIGHTER, HEAVIER or BALANCED (pages.py). Pans are named the way the table
says them ("on the left pan"; German "auf die Schale links", which needs no inflection).
"""

from __future__ import annotations

from typing import Any

from ....games.trudel_rules import WEIGHING
from ...i18n import N_, _, decimal, ngettext
from ...pans.words import pan_name, upper_first
from ...screen.render import CHARS, View
from .public import Public
from .weighing import Job, TakeOff, JobWeigher

PAGE_S = 3.0
BIG_CHARS = CHARS // 2  # what ``big`` can show (twice the font's size)


def fit(text: str, short: str) -> str:
    """``text`` if it fits a line, else ``short``."""
    return text if len(text) <= CHARS else short[:CHARS]


def big_name(name: str) -> str | None:
    """A player's name for ``big``, or None when it is too long (then it goes in a line)."""
    return name if len(name) <= BIG_CHARS else None


def place(row: int) -> str:
    """Row 7, the entrance or the weighing."""
    if row <= 0:
        return _("entrance")
    if row >= WEIGHING:
        return _("weighing")
    return _("row {row}").format(row=row)


def grams(g: float | None) -> str:
    """"13.10 g" (German "13,10 g"): shown only once the game is over."""
    if g is None:
        return "-"
    return f"{decimal(g, 2)} g"


# -- the pans, as the table says them ------------------------------------------------------------
def on_pan(pan: str, pans: int) -> str:
    """Where items go: "on the left pan." ("on the pan." with one pan, or a long pan name)."""
    if pans < 2:
        return _("on the pan.")
    return fit(_("on the {pan} pan.").format(pan=pan_name(pan)), _("on the pan."))


def onto_pan(pan: str, pans: int) -> str:
    """Where a thing is moved to: "onto the right pan." (as ``on_pan``)."""
    if pans < 2:
        return _("onto the pan.")
    return fit(_("onto the {pan} pan.").format(pan=pan_name(pan)), _("onto the pan."))


def off_pan(pan: str, pans: int) -> str:
    if pans < 2:
        return _("off the pan.")
    return fit(_("off the {pan} pan.").format(pan=pan_name(pan)), _("off the pan."))


def purchase_back_lines(potd_pan: str, pans: int) -> tuple[str, ...]:
    """After a substitution: the Purchase goes back where it lives (two pans: on the first;
    one pan: off it, the box remembers its weight)."""
    if pans >= 2:
        return (_("Put the Purchase of"), _("the Day back"), on_pan(potd_pan, pans))
    return (_("Take the"), _("Purchase of the Day"), off_pan(potd_pan, pans))


def take_off_lines(take_off: TakeOff, pans: int, potd_pan: str) -> tuple[str, ...]:
    """Why a key waits while something lies on the pan after a scales-row weighing."""
    if take_off.purchase:
        return purchase_back_lines(potd_pan, pans)
    return (_("Take your items"), off_pan(take_off.pan, pans))


def take_off_view(take_off: TakeOff, pans: int, potd_pan: str) -> View:
    """After a scales-row weighing, while the items (or the Purchase) still lie on the pan."""
    player = take_off.player
    if take_off.purchase:
        return View(_("Purchase of the Day"), purchase_back_lines(potd_pan, pans))
    return View(fit(_("{name}'s items").format(name=player), player),
                (_("Take your items"), off_pan(take_off.pan, pans), _("Back in the basket.")))


def empty_lines(pan: str, pans: int) -> tuple[str, ...]:
    """"All on" was pressed, but the pan the items go on is empty."""
    return (_("Put the items"), on_pan(pan, pans), _("It is still empty."))


# -- the turn's menu -----------------------------------------------------------------------------
ACTION_LABELS = {
    ("take", False): N_("Take an item"),
    ("take", True): N_("Take a coupon"),
    ("return", False): N_("Return an item"),
    ("return", True): N_("Return a coupon"),
    ("exchange", None): N_("Exchange an item"),
    ("weigh", None): N_("Weigh your basket"),
    ("coupon_shop", None): N_("Coupon to the shop"),
    ("end_turn", None): N_("Done"),
}


def action_label(action: dict[str, Any]) -> str:
    """The menu line of a legal action."""
    if action["type"] == "coupon_player":
        return fit(_("Coupon to {name}").format(name=action["target"]), _("Coupon to a player"))
    key = (action["type"], action.get("coupon") if action["type"] in ("take", "return") else None)
    return _(ACTION_LABELS[key])


def choose_footer(station: bool) -> str:
    return _("A/C choose  B: go") if station else _("NEXT move  OK go")


# -- the turn ------------------------------------------------------------------------------------
def roll_view(pub: Public, player: str, station: bool, table_die: bool,
              value: int) -> View:
    """Before a roll: the player's name big (the box rolls) or the die being entered (the table
    rolls a real one); for the Purchase of the Day, which of its three rolls this is."""
    potd = pub.phase == "potd"
    n = len(pub.potd_rows) + 1
    if table_die:
        footer = _("A less  C more  B ok") if station else _("NEXT +1  OK enter")
        if potd:
            return View(_("Purchase of the Day"), (fit(_("{name}: roll {n} of 3").format(
                name=player, n=n), _("Roll {n} of 3").format(n=n)),), big=str(value),
                footer=footer)
        return View(fit(_("{name}'s turn").format(name=player), player),
                    (_("What did you roll?"),), big=str(value), footer=footer)
    footer = _("B: roll the die") if station else _("OK: roll the die")
    big = big_name(player)
    if potd:
        line = _("Roll {n} of 3").format(n=n)
        title = _("Purchase of the Day")
    else:
        here = pub.seat[player].position
        line = (_("Basket at entrance") if here <= 0 else
                _("Basket at row {row}").format(row=here))
        title = _("Your turn")
    if big is None:
        return View(title, (player, line), footer=footer)
    return View(title, (line,), big=big, footer=footer)


def rolling_view(player: str, tick: int) -> View:
    return View(fit(_("{name} rolls").format(name=player), _("Rolling...")),
                big="." * (tick % 3 + 1))


def move_view(pub: Public, player: str, station: bool, cursor: int,
              moves: list[str]) -> View:
    """Where the roll takes the basket (the engine's ``reach``); the choice when TT4 allows
    going back."""
    roll = pub.roll or 0
    assert pub.reach is not None  # the engine says where a roll reaches while a move waits
    title = fit(_("{name} rolled {n}").format(name=player, n=roll), _("Rolled {n}").format(n=roll))
    forward, back = pub.reach.forward, pub.reach.back
    if len(moves) == 1:
        line = (_("Off to the weighing!") if forward >= WEIGHING else
                _("Move to row {row}").format(row=forward))
        return View(title, (line,), big=str(roll),
                    footer=_("Moved? B: yes") if station else _("Moved? OK: yes"))
    lines = tuple(_("To the weighing") if m == "forward" else
                  _("Back to row {row}").format(row=back) for m in moves)
    return View(title, lines, cursor=cursor % len(lines), footer=choose_footer(station))


def act_view(pub: Public, player: str, station: bool, cursor: int,
             actions: list[dict[str, Any]]) -> View:
    """The turn's short menu: what ``legal_actions`` allows, then Done."""
    here = place(pub.seat[player].position)
    title = fit(f"{player}: {here}", here.capitalize())
    labels = tuple(action_label(a) for a in actions)
    return View(title, labels, cursor=cursor % len(labels), footer=choose_footer(station))


# -- weighing ------------------------------------------------------------------------------------
def weigh_title(weigher: JobWeigher) -> str:
    job = weigher.job
    if job.kind == "potd":
        return _("Purchase of the Day")
    if job.kind == "basket":
        return fit(_("{name}'s basket").format(name=job.player), job.player)
    return fit(_("{name} weighs").format(name=job.player), _("Weighing"))


def load_lines(weigher: JobWeigher, pans: int, station: bool) -> tuple[str, ...]:
    """What to put on the pan: the Purchase's 3 items, or the player's items."""
    job = weigher.job
    where = on_pan(job.pan, pans)
    if job.kind == "potd":
        return (_("Put the 3 items"), where)
    if job.kind == "basket" and job.items == 0:
        return (_("Your basket is empty."), _("Leave the pan empty"),
                _("and press B.") if station else _("and press OK."))
    items = job.items or 0
    what = ngettext("Put your {n} item", "Put your {n} items", items).format(n=items)
    if job.kind == "basket":
        return (what, where, _("No coupons!"))
    return (what, where)


def note_lines(weigher: JobWeigher, pans: int) -> tuple[str, ...]:
    """Why a weighing still waits after "all on" (nothing: the screen shows WAIT)."""
    job = weigher.job
    if weigher.note == "empty":
        return empty_lines(job.pan, pans)
    ref = job.ref or ""
    if weigher.note == "potd_missing":
        return (_("Put the Purchase of"), _("the Day back"), on_pan(ref, pans))
    if weigher.note == "potd_extra":
        return (_("Take your items"), off_pan(ref, pans), _("Purchase alone there."))
    if weigher.note == "swap_missing":
        return (_("Put all of the"), _("Purchase of the Day"), on_pan(job.pan, pans))
    if weigher.note == "swap_extra":
        return (_("Only the"), _("Purchase of the Day"), on_pan(job.pan, pans))
    return ()


def low_lines(pan: str, pans: int) -> tuple[str, ...]:
    """A pan far below zero: lifted, or tared with something on it (the Scale tool's tare of the
    empty pan sets it right)."""
    first = upper_first(_("{pan} pan below zero").format(pan=pan_name(pan))) if pans >= 2 \
        else _("The pan is below zero")
    return (first, _("Lifted? Else tare it"), _("in the Scale tool."))


def swap_lines(weigher: JobWeigher, pans: int) -> tuple[str, ...]:
    """A close call: the basket off its pan, then the Purchase on it."""
    job = weigher.job
    if weigher.stage == "swap_off":
        return (_("Take your items"), off_pan(job.pan, pans), _("Then the Purchase."))
    if pans >= 2:
        return (_("Now move the"), _("Purchase of the Day"), onto_pan(job.pan, pans))
    return (_("Now put the"), _("Purchase of the Day"), on_pan(job.pan, pans))


def refusal_lines(reason: str, job: Job, pans: int, station: bool) -> tuple[str, ...]:
    """Why a key did nothing during a weighing (``JobWeigher.refusal``, or "load": a key other
    than "all on" while the items go on)."""
    ref = pan_name(job.ref or "")
    return {
        "paused": (_("Scale not answering: check its cable."),),
        "heavy": (_("Too heavy for the pan"),),
        "low": (_("The pan reads below zero: is it lifted?"),),
        "clear": (purchase_back_lines(job.ref or job.pan, pans) if job.away else
                  (_("First take everything"), off_pan(job.pan, pans))),
        "wait": (_("Weighing now: hands off the pans."),),
        "empty": empty_lines(job.pan, pans),
        "potd_missing": (_("The Purchase of the Day is missing on the {pan} pan.").format(
            pan=ref),),
        "potd_extra": (_("Only the Purchase of the Day on the {pan} pan, please.").format(
            pan=ref),),
        "load": (_("Items on? Then press B.") if station else _("Items on? Then press OK."),),
        "swap_off": (_("Close call: first take your items {where}").format(
            where=off_pan(job.pan, pans)),),
        "swap_load": (_("Purchase on? Then press B.") if station else
                      _("Purchase on? Then press OK."),),
        "swap_missing": (_("Put all of the Purchase of the Day {where}").format(
            where=on_pan(job.pan, pans)),),
        "swap_extra": (_("Only the Purchase of the Day {where}").format(
            where=on_pan(job.pan, pans)),),
    }[reason]


def weigh_view(weigher: JobWeigher, station: bool, pans: int, cancel: bool) -> View:
    """A weighing in progress; never a gram figure."""
    job = weigher.job
    title = weigh_title(weigher)
    back = (_("C: cancel") if station else _("BACK: cancel")) if cancel else ""
    if weigher.paused:
        silent = weigher.silent or job.pan
        cable = ((_("Check the cable of"), _("the {pan} pan.").format(pan=pan_name(silent)))
                 if pans >= 2 else (_("Check the cable"), _("of the pan.")))
        return View(_("Scale not answering"), cable, footer=back)
    if weigher.heavy is not None:
        return View(title, (_("Too heavy for the pan"), _("Take something"),
                            off_pan(weigher.heavy, pans)), footer=back)
    if weigher.low is not None:
        return View(title, low_lines(weigher.low, pans), footer=back)
    if weigher.stage == "clear":
        if job.away:
            return View(title, purchase_back_lines(job.ref or job.pan, pans), footer=back)
        return View(title, (_("First take everything"), off_pan(job.pan, pans)), footer=back)
    if weigher.stage in ("swap_off", "swap_on"):
        footer = back
        if weigher.stage == "swap_on":
            footer = _("B: all on") if station else _("OK: all on")
        return View(_("Close call!"), swap_lines(weigher, pans), footer=footer)
    if weigher.stage == "load":
        footer = _("B: all on") if station else _("OK: all on")
        if cancel:
            footer = _("B all on  C cancel") if station else _("OK all on BACK cancel")
        return View(title, load_lines(weigher, pans, station), footer=footer)
    lines = note_lines(weigher, pans)
    if lines:
        return View(title, lines, footer=back)
    return View(title, (_("Hands off the pans"),), big=_("WAIT"), footer=back)


__all__ = ["act_view", "action_label", "big_name", "empty_lines", "fit", "grams", "low_lines",
           "move_view", "off_pan", "on_pan", "place", "purchase_back_lines", "refusal_lines",
           "roll_view", "rolling_view", "swap_lines", "take_off_lines", "take_off_view",
           "weigh_view"]
