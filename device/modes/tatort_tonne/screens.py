"""Tatort Tonne's screens during a round: choosing, the hot-seat hand-over, the countdown and the
question whom an accuser pointed at. Each says one thing, the word that matters in ``big``.

The pages that follow an action (the reveal, the trash, the end, undo) are in ``pages.py``.
"""

from __future__ import annotations

from typing import Sequence

from ...i18n import _, ngettext
from ...glossary import choose_footer
from ...screen.render import CHARS, View, first_fit, pack

KEYS = {"A": "steal", "B": "accuse", "C": "alibi"}
BIG = CHARS // 2  # the longest word ``big`` takes (at 2x)


def short(card: str) -> str:
    """The card's one big word."""
    return {"steal": _("STEAL"), "accuse": _("ACCUSE"), "alibi": _("ALIBI")}[card]


def card_name(card: str) -> str:
    """The card's name as the table knows it from the rulebook."""
    return {"steal": _("Steal trash"), "accuse": _("You did it!"),
            "alibi": _("Airtight alibi")}[card]



def names_lines(names: Sequence[str], room: int) -> list[str]:
    """``names`` packed into at most ``room`` lines; what does not fit is counted ("and 3 more")."""
    lines = pack(list(names))
    if len(lines) <= room:
        return lines
    shown: list[str] = []
    for count in range(len(names), 0, -1):
        shown = pack(list(names[:count]))
        if len(shown) <= room - 1:
            rest = len(names) - count
            return shown + [ngettext("and {n} more", "and {n} more", rest).format(n=rest)]
    return [ngettext("{n} player", "{n} players", len(names)).format(n=len(names))]


def button_lines() -> tuple[str, ...]:
    """Which station button plays which card, in the cards' own names (padded alike, so the
    centred lines stand aligned)."""
    lines = [f"{key} {card_name(card)}" for key, card in KEYS.items()]
    width = max(len(line) for line in lines)
    return tuple(line.ljust(width) for line in lines)


def _turn_footer(hot_player: str | None) -> str:
    """The host key's job while choosing: call up the next player without a station."""
    if hot_player is None:
        return ""
    return first_fit(_("OK: {player}'s turn").format(player=hot_player),
               _("OK: {player}").format(player=hot_player))


def choose_view(round_no: int, left: int, total: int, hot_player: str | None) -> View:
    """While choosing: the buttons until the first card is down, then how many still choose
    (never who, T2). ``hot_player`` is the next player without a station (OK calls them)."""
    title = _("Round {n}: choose!").format(n=round_no)
    if left == total:
        return View(title, button_lines(), footer=_turn_footer(hot_player))
    return View(title, (_("have not chosen yet"),),
                big=_("{n} of {total}").format(n=left, total=total),
                footer=_turn_footer(hot_player))


def countdown_title() -> str:
    """One title from the cards going down to POINT!: the frames of the countdown are one screen
    for the guard, so a press the moment POINT! shows is never held back as meant for "1"."""
    return _("3, 2, 1, POINT!")


def ready_view(accusers: Sequence[str]) -> View:
    """Cards are down; who said "You did it!" gets ready to point."""
    title = countdown_title()
    if len(accusers) == 1 and len(accusers[0]) <= BIG:
        return View(title, (_("Get ready to point!"),), big=accusers[0])
    return View(title, (_("Get ready to point:"), *names_lines(accusers, 2)))


def countdown_view(accusers: Sequence[str], count: int) -> View:
    """3, 2, 1 for the accusers."""
    return View(countdown_title(), tuple(names_lines(accusers, 2)), big=str(count))


def point_now_view(accuser: str) -> View:
    """POINT!: the accusers point and shout "You did it!"; the one pointed at presses now (the
    press answers for ``accuser``, the first one asked)."""
    return View(countdown_title(), (_asked(accuser), _("Was it you? Press!")), big=_("POINT!"))


def _asked(accuser: str) -> str:
    return first_fit(_("{player} pointed at?").format(player=accuser), _("Pointed at?"))


def point_view(accuser: str, has_station: bool) -> View:
    """Whom did ``accuser`` point at? The one pointed at answers at their own buttons; the
    accuser's C says nobody; OK picks at the box instead."""
    lines = [_("Was it you? Press!")]
    if has_station:  # a hot-seat accuser has no C to press
        lines.append(first_fit(_("Nobody? {player}: C").format(player=accuser), _("Nobody? Press C")))
    return View(_asked(accuser), tuple(lines), footer=_("OK: pick at the box"))


def pick_view(accuser: str, targets: Sequence[str | None], cursor: int) -> View:
    """The host panel's answer: a list of the players still in, and nobody."""
    labels = tuple(t if t is not None else _("Nobody") for t in targets)
    return View(_asked(accuser), labels, cursor=cursor % len(labels),
                footer=choose_footer())
