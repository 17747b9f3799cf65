"""What a game's screens read: the engine's ``public()``, as a typed view.

A mode folder declares, in its ``public.py``, a frozen dataclass whose fields are keys of its
engine's ``public()`` (a list of per-player objects becomes a tuple of a smaller such dataclass,
a list a tuple); ``read(cls, doc)`` builds it from the dict. Screens and pages take that view and
the events, never a ``State``: they show what the table may see (the engine's leak checks cover
``public()``), and every rule (who ranks where, where a move lands) is the engine's, said once.
A key the view names and ``public()`` lacks is an error at once, not a blank on a screen.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from functools import cached_property
from typing import (TYPE_CHECKING, Any, Callable, Generic, Mapping, Protocol, Sequence, TypeVar,
                    cast)

V = TypeVar("V")


def read(cls: type[V], doc: Mapping[str, Any]) -> V:
    """The view ``cls`` (a dataclass) of ``doc`` (a ``public()`` dict, or one of its parts)."""
    fields = _fields(cast(type, cls))
    try:
        return cls(**{name: convert(doc[name]) for name, convert in fields})
    except KeyError as exc:
        raise KeyError(f"{cls.__name__} reads {exc.args[0]!r}, which public() does not give"
                       ) from None


@functools.cache
def _fields(cls: type) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """A view class's fields read from ``public()`` (its ``init`` ones), each with the
    converter its type needs (worked out once a class: a view is read at every new state)."""
    hints = typing.get_type_hints(cls)
    return tuple((f.name, _converter(hints[f.name])) for f in dataclasses.fields(cls) if f.init)


def _same(value: Any) -> Any:
    return value


@functools.cache
def _converter(hint: Any) -> Callable[[Any], Any]:
    """How a JSON value becomes what ``hint`` declares: a nested view, tuples for lists."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = _converter(next(a for a in args if a is not type(None)))
        return lambda value: None if value is None else inner(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return lambda value: read(hint, value)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            each = _converter(args[0])
            if each is _same:
                return tuple
            return lambda value: tuple(each(v) for v in value)
        parts = tuple(_converter(a) for a in args)
        return lambda value: tuple(c(v) for c, v in zip(parts, value))
    if origin is dict:
        each = _converter(args[1])
        return lambda value: {k: each(v) for k, v in value.items()}
    return _same


class Named(Protocol):
    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=Named)


def by_name(seats: Sequence[N]) -> dict[str, N]:
    """A view's per-player rows by the player's name."""
    return {seat.name: seat for seat in seats}


SeatT = TypeVar("SeatT", bound=Named)
GV = TypeVar("GV", bound="GameView[Any]")


class GameView(Generic[SeatT]):
    """What every game's view of ``public()`` answers alike: read from the dict, over or not,
    a seat by its player's name. A game's ``Public`` dataclass derives from it."""

    if TYPE_CHECKING:
        phase: str
        players: tuple[SeatT, ...]

    @classmethod
    def of(cls: type[GV], doc: Mapping[str, Any]) -> GV:
        return read(cls, doc)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @cached_property
    def seat(self) -> dict[str, SeatT]:
        return by_name(self.players)


__all__ = ["GameView", "by_name", "read"]
