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
from typing import Any, Mapping, Protocol, Sequence, TypeVar, cast

V = TypeVar("V")


def read(cls: type[V], doc: Mapping[str, Any]) -> V:
    """The view ``cls`` (a dataclass) of ``doc`` (a ``public()`` dict, or one of its parts)."""
    hints, names = _fields(cast(type, cls))
    missing = [name for name in names if name not in doc]
    if missing:
        raise KeyError(f"{cls.__name__} reads {missing[0]!r}, which public() does not give")
    return cls(**{name: _value(doc[name], hints[name]) for name in names})


@functools.cache
def _fields(cls: type) -> tuple[dict[str, Any], tuple[str, ...]]:
    """A view class's field types and its fields read from ``public()`` (``init`` ones)."""
    names = tuple(f.name for f in dataclasses.fields(cls) if f.init)
    return typing.get_type_hints(cls), names


def _value(value: Any, hint: Any) -> Any:
    """A JSON value as ``hint`` declares it: a nested view, tuples for lists."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        hint = next(a for a in args if a is not type(None))
        origin, args = typing.get_origin(hint), typing.get_args(hint)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint) and isinstance(value, Mapping):
        return read(hint, value)
    if origin is tuple and isinstance(value, (list, tuple)):
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_value(v, args[0]) for v in value)
        return tuple(_value(v, a) for v, a in zip(value, args))
    if origin is dict and isinstance(value, Mapping):
        return {k: _value(v, args[1]) for k, v in value.items()}
    return value


class Named(Protocol):
    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=Named)


def by_name(seats: Sequence[N]) -> dict[str, N]:
    """A view's per-player rows by the player's name."""
    return {seat.name: seat for seat in seats}


__all__ = ["by_name", "read"]
