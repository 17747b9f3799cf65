"""Tatort Tonne's demo: the rulebook's example round, then two more rounds (one undone and played
again) to a winner and the standings."""

from __future__ import annotations

from typing import Iterator

from ...i18n import _
from ..base import Demo, DemoStep
from .referee import COUNTDOWN_S

PLAYERS = ("Alexandra", "Melanie", "Ulrike", "Birgit", "Sarah")


def _hot_seat(card_index: int, last: bool = False) -> Iterator[DemoStep]:
    """The host panel's hot-seat hand-over: call up the seat, show the cards, pick, clear (the
    ``last`` card of a round goes straight on to the countdown or the reveal)."""
    yield ("tap", "host.ok")          # the waiting hot-seat player takes the box
    yield ("tap", "host.ok")          # cards shown
    for _turn in range(card_index):
        yield ("tap", "host.next")
    yield ("tap", "host.ok")          # card down; screen blanked
    if not last:
        yield ("tap", "host.ok")      # pass the box on


def _host_pick(steps: int) -> Iterator[DemoStep]:
    """The host panel answers whom an accuser pointed at: OK opens the list, NEXT moves, OK."""
    yield ("tap", "host.ok")
    for _turn in range(steps):
        yield ("tap", "host.next")
    yield ("tap", "host.ok")


def script() -> Iterator[DemoStep]:
    yield ("say", _("Menu: Tatort Tonne, 5 players, 25 trash"))
    yield ("open", "tatort-tonne")
    yield ("tap", "host.next")        # 4 -> 5 players
    yield ("tap", "host.ok")
    yield ("tap", "host.ok")          # trash pile 25 (T1)
    yield ("tap", "host.ok")          # start
    yield ("say", _("Round 1 (the rulebook's example): stations 1-3, Birgit and Sarah at the host"))
    yield ("tap", "s1.C")             # Alexandra: alibi
    yield ("tap", "s2.B")             # Melanie: accuse
    yield ("tap", "s3.B")             # Ulrike: accuse
    yield from _hot_seat(2)           # Birgit: alibi
    yield from _hot_seat(0, last=True)  # Sarah: steal
    yield ("idle", COUNTDOWN_S)       # cards down, 3, 2, 1, point!
    yield ("say", _("Melanie and Ulrike both point at Birgit (no station: the host picks)"))
    yield from _host_pick(2)          # Melanie -> Birgit
    yield from _host_pick(2)          # Ulrike -> Birgit
    yield ("say", _("The reveal, page by page (OK turns each)"))
    yield ("read",)           # the pages that follow, OK turns each
    yield ("say", _("Round 2: Birgit accuses Alexandra, who answers at her station"))
    yield ("tap", "s1.A")             # Alexandra: steal
    yield from _hot_seat(1)           # Birgit: accuse
    yield from _hot_seat(0, last=True)  # Sarah: steal
    yield ("idle", COUNTDOWN_S)
    yield ("tap", "s1.B")             # the accused Alexandra presses a button at her station
    yield ("read",)           # the pages that follow, OK turns each
    yield ("say", _("Undo: the host holds BACK; the box says what to put back, then who acts"))
    yield ("hold", "host.back", 1.2)
    yield ("idle", 2.0)
    yield ("read",)
    yield ("tap", "s1.B")             # Alexandra answers again
    yield ("read",)
    yield ("say", _("Round 3: Sarah steals her third trash"))
    yield from _hot_seat(2)           # Birgit: alibi
    yield from _hot_seat(0, last=True)  # Sarah: steal
    yield ("read",)           # the pages that follow, OK turns each
    yield ("say", _("The winner (with the win sound), then OK: the standings"))
    yield ("tap", "host.ok")


DEMOS = {"tatort-tonne": Demo(PLAYERS, script)}
