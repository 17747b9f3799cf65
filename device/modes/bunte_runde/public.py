"""What Bunte Runde's screens read: the engine's ``public()`` as a typed view (``base.public``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..base.public import GameView

Piece = tuple[str, str]


@dataclass(frozen=True)
class Seat:
    """One player as the table sees them: coins (the large coin counted), the pieces taken."""

    name: str
    coins: int
    small_coins: int
    pieces: tuple[Piece, ...]


@dataclass(frozen=True)
class Public(GameView[Seat]):
    phase: str
    set: str                       # "pieces" or "tiles" (B1)
    turn: str | None
    free: bool                     # the table's own layout (B7): no circle, no figure
    figure: int | None
    layout: tuple[tuple[str, str, bool], ...] | None  # the circle: colour, shape, taken
    next_pieces: tuple[Piece, ...]  # where a move of 1, 2, 3 steps lands (B3)
    coins_left: int
    shortfall: int
    large_coin: str | None
    large_coin_value: int
    players: tuple[Seat, ...]
    winners: tuple[str, ...]
    standings: tuple[tuple[int, str, int], ...]  # (place, player, coins), the engine's ranking

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.players)

    @property
    def pieces(self) -> tuple[Piece, ...]:
        """The circle's pieces clockwise (none in a free layout)."""
        return tuple((c, s) for c, s, _taken in self.layout or ())

    def coins(self, player: str) -> int:
        return self.seat[player].coins


__all__ = ["Public", "Seat"]
