"""One rule for who is who, and for what a game id can be, wherever past games are counted or
filtered: the screens, the statistics and the CLI.

A name is a person as the roster keeps it (``journal.roster``): spaces folded, NFKC ("Ｍia" is
"Mia"), and one case as the screen draws it ("mia" is "Mia"). Not ``casefold``: "Strauß" and
"Strauss" are two people, as the roster keeps them apart on purpose.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..journal.roster import identity

SQLITE_MAX = 2 ** 63 - 1  # the largest integer SQLite keeps: a larger id names no game


def identities(names: Iterable[Any]) -> set[str]:
    return {identity(n) for n in names}


def is_game_id(value: Any) -> bool:
    """A number a game of the journal can have (a positive integer SQLite can hold)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= SQLITE_MAX


__all__ = ["SQLITE_MAX", "identities", "identity", "is_game_id"]
