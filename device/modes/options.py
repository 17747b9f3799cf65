"""The set-up screens' options: one value from a list, one of the players, or a list of values.

Each is built from an ``Option`` declared once: the game's own in its engine's ``GameInfo``
(they go into the header's options), the referee's own in its ``TABLE_OPTIONS`` (how the table
plays, e.g. who rolls the die; they go into ``header.table``). The set-up screens (``setup.py``)
step through them. What is legal for the game stays the engine's: options only offer its choices.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ...games.core import Option
from ..i18n import _


@dataclass(frozen=True)
class SetupOption:
    """One choice on the set-up screens from a fixed list; ``ruling`` names the ruling (docs/games.md) it
    sets, ``names`` are the words shown for ``choices``. An ``engine`` option is the game's (it
    goes into the header's options); otherwise it is the referee's own (how the table plays,
    e.g. who rolls the die) and goes into ``header.table``."""

    key: str
    label: str
    choices: tuple[Any, ...]
    default: Any
    ruling: str = ""
    names: tuple[str, ...] = ()
    engine: bool = True
    hints: tuple[str, ...] = ()

    def options(self, players: Sequence[str]) -> tuple[Any, ...]:
        return self.choices

    def initial(self, players: Sequence[str]) -> Any:
        return self.default

    def parts(self, value: Any) -> int:
        """How many screens this option takes (a list: one per value)."""
        return 1

    def step(self, value: Any, part: int, players: Sequence[str]) -> Any:
        """The value after NEXT on screen ``part``."""
        options = self.options(players)
        index = options.index(value) if value in options else -1
        return options[(index + 1) % len(options)]

    def valid(self, value: Any, players: Sequence[str]) -> bool:
        """Whether ``value`` is one this option offers (a remembered one may no longer be)."""
        return value in self.options(players)

    def show(self, value: Any, part: int | None = None) -> str:
        if self.names and value in self.choices:
            return _(self.names[self.choices.index(value)])
        return str(value)

    def hint(self, value: Any) -> str:
        """What ``value`` means, in a line ("" when the choice speaks for itself)."""
        if value in self.choices and len(self.hints) == len(self.choices):
            return _(self.hints[self.choices.index(value)])
        return _(self.hints[0]) if len(self.hints) == 1 else ""


@dataclass(frozen=True)
class OnePlayer(SetupOption):
    """"One of the players" (who starts, who makes the Purchase of the Day): the seats chosen."""

    choices: tuple[Any, ...] = ()
    default: Any = None

    def options(self, players: Sequence[str]) -> tuple[Any, ...]:
        return tuple(players)

    def initial(self, players: Sequence[str]) -> Any:
        return players[0] if players else None

    def show(self, value: Any, part: int | None = None) -> str:
        return str(value)

    def hint(self, value: Any) -> str:
        return _(self.hints[0]) if self.hints else ""


@dataclass(frozen=True)
class Several(SetupOption):
    """A list of values of fixed length (the scales rows of a board): one screen per value, each
    stepping through ``choices``."""

    def parts(self, value: Any) -> int:
        return len(value)

    def valid(self, value: Any, players: Sequence[str]) -> bool:
        return isinstance(value, (list, tuple)) and len(value) == len(self.default) \
            and all(v in self.choices for v in value)

    def step(self, value: Any, part: int, players: Sequence[str]) -> Any:
        values = list(value)
        index = self.choices.index(values[part]) if values[part] in self.choices else -1
        values[part] = self.choices[(index + 1) % len(self.choices)]
        return values

    def show(self, value: Any, part: int | None = None) -> str:
        if part is None:
            return ", ".join(str(v) for v in value)
        return str(value[part])

    def hint(self, value: Any) -> str:
        return _(self.hints[0]) if self.hints else ""


KINDS: dict[str, type[SetupOption]] = {"choice": SetupOption, "player": OnePlayer,
                                       "list": Several}


def setup_option(option: Option, engine: bool = True) -> SetupOption:
    """The set-up screens' form of ``option`` (``engine``: the game's own, else the table's)."""
    return KINDS[option.kind](option.key, option.label, option.choices, option.default,
                              option.ruling, option.names, engine, option.hints)
