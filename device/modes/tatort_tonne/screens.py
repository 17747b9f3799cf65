"""Tatort Tonne's screens: the reveal in the rulebook's order, the standings, the end."""

from __future__ import annotations

from ....games.core import Event
from ....games.tatort_tonne import TatortTonne
from ...i18n import _, ngettext
from ...screens import CHARS, View, pack, wrap


def short(card: str) -> str:
    """The card's one big word."""
    return {"steal": _("STEAL"), "accuse": _("ACCUSE"), "alibi": _("ALIBI")}[card]


def card_name(card: str) -> str:
    """The card's name as the table knows it."""
    return {"steal": _("Steal trash"), "accuse": _("You did it!"),
            "alibi": _("Airtight alibi")}[card]


def _names(names: list[str]) -> str:
    return ", ".join(names)


def reveal_pages(events: list[Event], state: TatortTonne) -> list[View]:
    """The reveal as screens, in the rulebook's order (accusations, accused, the rest, result)."""
    pages: list[View] = []
    pointed = [e for e in events if e.kind == "pointed_at"]
    for first in range(0, len(pointed), 4):
        lines = tuple(_("{player} > {target}").format(player=e.data["player"],
                                                     target=e.data["target"] or _("nobody"))
                      for e in pointed[first:first + 4])
        pages.append(View(_("Accusations"), lines))
    reveals: list[tuple[Event, list[Event]]] = []
    for event in events:
        if event.kind == "reveal":
            reveals.append((event, []))
        elif event.kind in ("out", "trash", "no_trash") and reveals and \
                event.data.get("why") != "playoff":
            reveals[-1][1].append(event)
    for reveal, after in reveals:
        player, card = reveal.data["player"], reveal.data["card"]
        accused = bool(reveal.data["accused_by"])
        outs = [e.data["player"] for e in after if e.kind == "out"]
        if card == "steal" and accused:
            line = _("Caught! Out of game")
        elif card == "alibi" and outs:
            line = _("Out: {names}").format(names=_names(outs))
            if len(line) > CHARS:
                line = ngettext("{n} accuser is out", "{n} accusers are out",
                                len(outs)).format(n=len(outs))
        elif card == "accuse":
            line = _("Accused: no effect") if accused else _("No trash")
        elif card == "steal":
            got = [e for e in after if e.kind == "trash"]
            line = (_("Takes trash ({n})").format(n=got[0].data["trash"]) if got
                    else _("Pile empty: nothing"))
        else:
            line = _("Safe. No trash.")
        title = (_("{player} was accused") if accused else _("{player} reveals")).format(
            player=player)
        pages.append(View(title if len(title) <= CHARS else player, (line,), big=short(card)))
    for event in events:
        if event.kind == "playoff":
            text = _("Only {names} play on until one leads.").format(
                names=_names(event.data["players"]))
            pages.append(View(_("Play-off!"), tuple(wrap(text)[:4])))
    if any(e.kind == "round" for e in events):
        pages.append(standings_view(state, _("Round {n} next").format(n=state.round)))
    return pages


def standings_view(state: TatortTonne, title: str) -> View:
    """Who is still in and how much trash each holds, packed into four lines."""
    lines = pack([f"{p} {state.trash[p]}" for p in state.still_in()])  # a name keeps its number
    lines = [_("Trash:")] + lines[:2] + [_("Pile: {n} left").format(n=state.trash_left)]
    return View(title, tuple(lines))


def final_view(state: TatortTonne) -> View:
    winners = list(state.winners())
    if len(winners) == 1:
        name = winners[0]
        return View(_("Game over: winner"), (_("{n} trash").format(n=state.trash[name]),),
                    big=name, footer=_("OK: menu"))
    return View(_("Shared win!"), tuple(wrap(" & ".join(winners))[:3]) +
                (_("{n} trash each").format(n=state.trash[winners[0]]),), footer=_("OK: menu"))
