"""What Tante Trudels Trödel's screens read: the engine's ``public()`` as a typed view
(``base.public``). No gram figure before the end: ``public()`` keeps them out (TT2)."""

from __future__ import annotations

from dataclasses import dataclass

from ..base.public import GameView


@dataclass(frozen=True)
class Seat:
    """One player as the table sees them: where the basket is (0 the entrance, 21 the
    weighing), when it arrived there, what it holds; its grams only once the game is over."""

    name: str
    position: int
    arrival: int | None
    items: int
    coupons: int
    basket_g: float | None


@dataclass(frozen=True)
class Reach:
    """Where this roll takes the basket (TT4): forward, and back when going back is allowed."""

    forward: int
    back: int | None


@dataclass(frozen=True)
class Public(GameView[Seat]):
    phase: str                     # "potd", "play", "weighing" or "over"
    turn: str | None
    stage: str | None              # in play: "roll", "move" or "act"
    roll: int | None
    reach: Reach | None            # while moving: where the roll may take the basket
    waiting_for: tuple[str, ...]
    potd_maker: str
    potd_rows: tuple[int, ...]     # the rows the Purchase of the Day's rolls reached (TT1)
    potd_g: float | None           # the Purchase's grams, once the game is over
    goal: str                      # "standard", "heaviest" or "lightest" (TT7)
    arrivals: tuple[str, ...]      # the baskets at the weighing, in the order they came
    players: tuple[Seat, ...]
    winners: tuple[str, ...]
    standings: tuple[tuple[int, str, float | None], ...]  # (place, player, grams) at the end


__all__ = ["Public", "Reach", "Seat"]
