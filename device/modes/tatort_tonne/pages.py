"""Tatort Tonne's pages: the reveal in the rulebook's order, the trash after a round, the end
(winner, then the standings) and what an undo asks the table to put back. Built from the engine's
events and its public view only; one idea a page, at most three small lines.
"""

from __future__ import annotations

from typing import Any

from ....games.core import Event
from ...i18n import _, ngettext
from ...screen.render import CHARS, PAGE_LINES, View, first_fit, pack
from .screens import BIG, names_lines, short
from ..base import standings_view as base_standings
from .public import Public


def _chunks(title: str, lines: list[str]) -> list[View]:
    """``lines`` as pages of at most three lines, each under ``title``."""
    return [View(title, tuple(lines[i:i + PAGE_LINES]))
            for i in range(0, len(lines), PAGE_LINES)]


def _group_pages(groups: list[list[str]]) -> list[list[str]]:
    """Groups of lines on pages of at most three lines, never splitting a group."""
    out: list[list[str]] = []
    for group in groups:
        if not out or len(out[-1]) + len(group) > PAGE_LINES:
            out.append([])
        out[-1] += group
    return out


# -- the reveal ----------------------------------------------------------------------------------
def reveal_pages(events: list[Event], pub: Public) -> list[View]:
    """The round's resolution as pages: who pointed at whom, every accused card, the cards still
    face down, a play-off, then the trash and the next round."""
    pages: list[View] = []
    groups: list[list[str]] = []
    for event in events:
        if event.kind == "pointed_at":
            player, target = event.data["player"], event.data["target"] or _("nobody")
            line = _("{player} > {target}").format(player=player, target=target)
            groups.append([line] if len(line) <= CHARS else [player, f"  > {target}"])
    for lines in _group_pages(groups):
        pages.append(View(_("Accusations"), tuple(lines)))
    reveals: list[tuple[Event, list[Event]]] = []
    for event in events:
        if event.kind == "reveal":
            reveals.append((event, []))
        elif event.kind in ("out", "trash", "no_trash") and reveals and \
                event.data.get("why") != "playoff":
            reveals[-1][1].append(event)
    pages += [_reveal_view(reveal, after) for reveal, after in reveals]
    for event in events:
        if event.kind == "playoff":
            names = event.data["players"]
            pages.append(View(_("Play-off!"), tuple(names_lines(names, 2)) +
                              (_("play till one leads"),)))
    if any(e.kind == "round" for e in events):
        pages += trash_pages(pub, pub.round - 1)
        pages.append(View(_("Round {n} next").format(n=pub.round),
                          (ngettext("trash card left", "trash cards left", pub.trash_left),),
                          big=str(pub.trash_left)))
    return pages


def _reveal_view(reveal: Event, after: list[Event]) -> View:
    """One turned card: the card large, what it does below."""
    player, card = reveal.data["player"], reveal.data["card"]
    accused = bool(reveal.data["accused_by"])
    outs = [e.data["player"] for e in after if e.kind == "out"]
    if card == "steal" and accused:
        line = _("Caught! Out of game")
    elif card == "alibi" and outs:
        line = first_fit(_("Out: {names}").format(names=", ".join(outs)),
                   ngettext("{n} accuser is out", "{n} accusers are out",
                            len(outs)).format(n=len(outs)))
    elif card == "accuse":
        line = _("Nothing happens") if accused else _("No trash")
    elif card == "steal":
        got = any(e.kind == "trash" for e in after)
        line = _("Takes a trash card") if got else _("Pile empty: nothing")
    else:
        line = _("Safe. No trash.")
    title = (_("{player} was accused") if accused else _("{player} reveals")).format(
        player=player)
    if len(title) <= CHARS:
        return View(title, (line,), big=short(card))
    # A long name is the title alone; the line still says that it was accused (a caught thief
    # and an alibi that puts accusers out say so themselves).
    if card == "accuse" and accused:
        line = _("Accused, no effect")
    return View(player, (line,), big=short(card))


def trash_pages(pub: Public, round_no: int) -> list[View]:
    """How much trash each player still in holds after ``round_no``: one a line when they fit
    one page, else packed."""
    parts = [f"{p} {pub.seat[p].trash}" for p in pub.still_in]
    lines = parts if len(parts) <= PAGE_LINES else pack(parts)  # a name keeps its number
    return _chunks(first_fit(_("Trash after round {n}").format(n=round_no), _("Trash")), lines)


# -- the end -------------------------------------------------------------------------------------
def winner_view(pub: Public) -> View:
    """Who won, large: the screen the win sound plays with. OK shows the standings."""
    winners = list(pub.winners)
    footer = _("OK: standings")
    trash = pub.seat[winners[0]].trash
    if len(winners) > 1:
        return View(_("Shared win!"), tuple(names_lines(winners, 2)) +
                    (ngettext("{n} trash card each", "{n} trash cards each", trash)
                     .format(n=trash),), footer=footer)
    name = winners[0]
    if len(pub.still_in) == 1 and trash < 3:
        why = _("everyone else is out")
    else:
        why = ngettext("{n} trash card", "{n} trash cards", trash).format(n=trash)
    if len(name) <= BIG:
        return View(_("The winner is"), (why,), big=name, footer=footer)
    return View(_("The winner is"), (name, why), footer=footer)


def score_text(pub: Public, player: str) -> str:
    """A player's trash for the standings; a player who is out is marked so."""
    seat = pub.seat[player]
    return str(seat.trash) if seat.in_game else _("out {n}").format(n=seat.trash)


def standings_view(pub: Public, at: int = 0) -> View:
    """Everybody's place and trash at the end, out players marked (the engine ranks); OK goes
    on to the game's menu."""
    return base_standings(pub.standings, at, _("NEXT more  OK menu"), _("OK: menu"),
                          lambda player, _trash: score_text(pub, player))


# -- undo ----------------------------------------------------------------------------------------
def undo_pages(before: Public, after: Public, undone: dict[str, Any]) -> list[View]:
    """What the table does after an undo (``before``: what it saw, ``after``: what it sees now):
    trash cards back to the pile and players back in (when a round's result was taken back),
    then who acts again."""
    pages: list[View] = []
    was, now = before.seat, after.seat
    back = [(p, was[p].trash - now[p].trash) for p in after.names
            if was[p].trash > now[p].trash]
    if len(back) == 1 and len(back[0][0]) <= BIG:
        name, n = back[0]
        pages.append(View(_("Put trash back"), (
            ngettext("{n} trash card", "{n} trash cards", n).format(n=n),), big=name))
    else:
        lines = [first_fit(ngettext("{player}: {n} card", "{player}: {n} cards", n).format(
            player=p, n=n), f"{p[:CHARS - 4]}: {n}") for p, n in back]
        pages += _chunks(_("Put trash back"), lines)
    returning = [p for p in after.names if now[p].in_game and not was[p].in_game]
    if len(returning) == 1 and len(returning[0]) <= BIG:
        pages.append(View(_("Back in the game"), big=returning[0]))
    elif returning:
        pages.append(View(_("Back in the game"), tuple(names_lines(returning, PAGE_LINES))))
    player = undone.get("player")
    if isinstance(player, str) and player in now and now[player].in_game:
        again = _("point again") if undone.get("type") == "point" else _("choose again")
        if len(player) <= BIG:
            pages.append(View(_("Undone"), (again,), big=player))
        else:
            said = f"{player}: {again}"
            pages.append(View(_("Undone"), (said,) if len(said) <= CHARS else (player, again)))
    return pages
