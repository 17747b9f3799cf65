"""What Currency Torraku's screens read: the engine's ``public()`` as a typed view
(``base.public``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..base.public import GameView


@dataclass(frozen=True)
class Seat:
    """One player as the table sees them: pieces owned (the row included), the row still to
    stack, this round's bid (None: not yet) and whether they passed."""

    name: str
    pieces: int
    row: int
    bid: int | None
    passed: bool


@dataclass(frozen=True)
class Public(GameView[Seat]):
    phase: str                     # "bid", "stack" or "over"
    round: int
    turn: str | None
    highest: int                   # the highest bid of the round (0: none yet)
    stack: int                     # pieces on the stack
    bag: int
    players: tuple[Seat, ...]
    winners: tuple[str, ...]
    standings: tuple[tuple[int, str, int], ...]  # (place, player, pieces): fewest first (C4)


__all__ = ["Public", "Seat"]
