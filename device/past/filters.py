"""The filters of the list of past games: a game by name or title, a day to list from."""

from __future__ import annotations

from datetime import date, datetime
from typing import TypeVar

from ...games import GAMES
from ..text import InputError

T = TypeVar("T")


def game_name(game: str) -> str:
    """The name of the game ``game`` names by its name or title, in any case; InputError (with
    the known names) for one this box does not know."""
    wanted = game.casefold().strip()
    for name, info in GAMES.items():
        if wanted in (name.casefold(), info.title.casefold()):
            return name
    raise InputError(f"unknown game {game!r}; known: {', '.join(sorted(GAMES))}")


def since(value: date | datetime | str) -> float:
    """The first moment of a day (local time), or of a datetime, as epoch seconds."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip())
        except ValueError:
            raise InputError(f"not a date: {value!r} (e.g. 2026-11-30)") from None
    if not isinstance(value, datetime):
        value = datetime(value.year, value.month, value.day)
    return value.timestamp()


def after(oldest_first: list[T], cut: float) -> list[T]:
    """The games (anything with a ``when``: ``timebase.GameTime``) on or after ``cut``: a dated
    game by its date; an undated one when a game before it in the journal's order is dated on or
    after ``cut`` (it was played later still)."""
    kept, seen_after = [], False
    for item in oldest_first:
        when = getattr(item, "when", None)
        at = None if when is None else (when.started if when.started is not None
                                        else when.ended)
        if at is not None:
            seen_after = seen_after or at >= cut
            if at >= cut:
                kept.append(item)
        elif seen_after:
            kept.append(item)
    return kept


__all__ = ["after", "game_name", "since"]
