"""What Currency Torraku's screens read: the engine's ``public()`` as a typed view
(``base.public``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Mapping

from ..base.public import by_name, read


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
class Public:
    phase: str                     # "bid", "stack" or "over"
    round: int
    turn: str | None
    highest: int                   # the highest bid of the round (0: none yet)
    stack: int                     # pieces on the stack
    bag: int
    players: tuple[Seat, ...]
    winners: tuple[str, ...]
    standings: tuple[tuple[int, str, int], ...]  # (place, player, pieces): fewest first (C4)

    @classmethod
    def of(cls, doc: Mapping[str, Any]) -> "Public":
        return read(cls, doc)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @cached_property
    def seat(self) -> dict[str, Seat]:
        return by_name(self.players)


__all__ = ["Public", "Seat"]
