"""What Tatort Tonne's screens read: the engine's ``public()`` as a typed view
(``base.public``). Never a chosen card: the engine keeps them out of ``public()`` (T2)."""

from __future__ import annotations

from dataclasses import dataclass

from ..base.public import GameView


@dataclass(frozen=True)
class Seat:
    """One player as the table sees them: still in the game, and their trash cards."""

    name: str
    in_game: bool
    trash: int


@dataclass(frozen=True)
class Public(GameView[Seat]):
    phase: str                     # "choose", "point" or "over"
    round: int
    players: tuple[Seat, ...]
    trash_left: int
    waiting_for: tuple[str, ...]
    accusers: tuple[str, ...]      # while pointing: who said "You did it!"
    winners: tuple[str, ...]
    standings: tuple[tuple[int, str, int], ...]  # (place, player, trash), the engine's ranking

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.players)

    @property
    def still_in(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.players if seat.in_game)


__all__ = ["Public", "Seat"]
