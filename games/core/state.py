"""The shared core of every rule engine: the state protocol, events and the one error type.

Engines are pure: a state never changes in place, ``apply`` returns a new state and the events the
action caused. Chance comes only from a seeded ``random.Random`` owned by the state (or from an
explicit action such as a die value the table enters), so the same header and actions always give
the same game.

The protocol every ``State`` keeps:

- ``waiting_for() -> tuple[str, ...]``: whose input the game needs now (empty when over).
- ``legal_actions(player) -> list[dict]``: exactly what ``player`` may do now, as action dicts
  (empty when over or when the player has nothing to do). Every listed action is accepted by
  ``apply``; in a game without measurements every action ``apply`` accepts is listed. An action
  that carries a *measurement* (a number the table reads off an instrument, e.g. ``grams``) is
  listed with that field left out: the game's ``GameInfo.measurements`` maps the action type to a
  ``Measurement`` saying which field to fill and its range; ``complete(info, action, rng)`` fills
  it with a random reading (random play, demos); the device fills it from the scale.
- ``apply(action) -> (State, events)``: checks first, ``IllegalAction`` leaves the state untouched.
- ``public()``: what the table may see; ``secrets()``: values that must not appear in ``public()``
  (nor in events) now, for tests; ``to_json()`` / ``from_json()``.
- ``winners()`` and ``standings() -> list[(rank, name, score)]``: best first, equal ranks shared
  on ties (1, 1, 3), seat order within a rank; ``ranking()`` builds it from keys.
"""

from __future__ import annotations

import dataclasses
import functools
import pickle
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterable, Mapping, Self, Sequence, cast

from .exc import GameError, IllegalAction, SetupError

Action = Mapping[str, Any]


@dataclass(frozen=True)
class Event:
    """Something that happened, in the order it happened, for screens and the serial link.

    ``kind`` is a stable machine name (``"out"``, ``"trash"``, ``"scoring"`` ...), ``text`` a short
    sentence for people, ``data`` the details as plain JSON values.
    """

    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, **dict(self.data)}


class State:
    """A game position. Subclasses are dataclasses; ``_apply`` mutates a private copy.

    Like OpenSpiel's states, a state says who it waits for (one player, several at once for a
    simultaneous choice, nobody when over) and checks every action before anything changes.
    """

    game: ClassVar[str]
    players: tuple[str, ...]  # every state has its players in seat order

    phase: str  # the engines' convention: "over" once the game has ended ...
    won_by: tuple[str, ...]  # ... and who won it (several share a win)

    def waiting_for(self) -> tuple[str, ...]:
        """Names of the players whose input the game needs now (empty when over)."""
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def winners(self) -> tuple[str, ...]:
        return tuple(self.won_by)

    def legal_actions(self, player: str) -> list[dict[str, Any]]:
        """Every action ``player`` may take now (measurements left out); [] when none."""
        raise NotImplementedError

    def standings(self) -> list[tuple[int, str, Any]]:
        """(rank, player, score), best first; tied players share a rank (1, 1, 3)."""
        raise NotImplementedError

    def public(self) -> dict[str, Any]:
        """The state as JSON a table may see: no hidden choices."""
        raise NotImplementedError

    def secrets(self) -> tuple[Any, ...]:
        """Values hidden from the table now: none may appear as a value in ``public()`` or in an
        event (a number only as a float; a string also not inside a longer text)."""
        return ()

    def draw(self, action_type: str) -> Any:
        """The value chance gives the ``action_type`` action now (a die roll), drawn from the
        state's own seeded generator: only games whose ``GameInfo.chance`` names the action."""
        raise NotImplementedError(f"{self.game} draws nothing for {action_type!r}")

    ACTIONS: ClassVar[tuple[str, ...]] = ()  # action types; ``type`` "x" runs method ``_x``

    def _apply(self, action: Action) -> list[Event]:
        """Check and perform ``action`` on ``self`` (a private copy); raise IllegalAction first."""
        kind = action.get("type")
        if not isinstance(kind, str):  # missing, null, a number: say what a type is
            raise IllegalAction('an action\'s "type" names it: one of {types}',
                                types=", ".join(self.ACTIONS))
        if kind not in self.ACTIONS:
            raise IllegalAction("unknown action {action!r}", action=kind)
        return getattr(self, f"_{kind}")(action)

    def to_json(self) -> dict[str, Any]:
        """The whole state (hidden choices included) as JSON values, for ``from_json``."""
        return {"game": self.game, "state": {name: _plain(getattr(self, name))
                                             for name in _field_names(cast(Any, type(self)))}}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Self:
        """Rebuild a state written by ``to_json`` (lists become the tuples the fields declare)."""
        if not isinstance(doc, Mapping) or doc.get("game") != cls.game:
            raise GameError("not a {game} state", game=cls.game)
        hints, fields = _field_types(cast(Any, cls))
        values = doc.get("state", {})
        try:
            return cls(**{k: _typed(v, hints[k]) for k, v in values.items() if k in fields})
        except (TypeError, KeyError, ValueError) as exc:
            raise GameError("bad {game} state: {problem}", game=cls.game,
                            problem=str(exc)) from None

    def copy(self) -> Self:
        """A deep copy. A state is plain data (numbers, strings, tuples, lists, dicts), so a
        pickle round trip copies it, about five times faster than ``copy.deepcopy``: every
        ``apply`` starts with one, and the box refuses most presses by trying them."""
        return cast(Self, pickle.loads(pickle.dumps(self, pickle.HIGHEST_PROTOCOL)))

    def apply(self, action: Action) -> tuple[Self, list[Event]]:
        """Return the state after ``action`` and the events it caused; ``self`` never changes."""
        if not isinstance(action, Mapping):
            raise IllegalAction("an action is a JSON object")
        if self.is_over:
            raise IllegalAction("the game is over")
        nxt = self.copy()
        events = nxt._apply(action)
        return nxt, events


@functools.cache
def _field_types(cls: type) -> tuple[dict[str, Any], frozenset[str]]:
    """A state class's resolved field types and field names (resolving them is slow: once)."""
    fields = frozenset(f.name for f in dataclasses.fields(cls))
    return typing.get_type_hints(cls), fields


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    """A state class's field names in their order (``to_json`` writes them so)."""
    return tuple(f.name for f in dataclasses.fields(cls))


def _plain(value: Any) -> Any:
    """Tuples to lists and dataclasses to dicts, recursively: what JSON can hold (what
    ``dataclasses.asdict`` and a pass over it gave, five times faster: the leaves of a state are
    numbers, strings and None, which need no copy)."""
    if value is None or isinstance(value, (str, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: _plain(getattr(value, name)) for name in _field_names(type(value))}
    return value


def _typed(value: Any, hint: Any) -> Any:
    """JSON values back to the declared type: lists to tuples where a field says tuple."""
    convert = _converter(hint)
    return value if convert is None else convert(value)


def _same(value: Any) -> Any:
    return value


@functools.cache
def _converter(hint: Any) -> Callable[[Any], Any] | None:
    """What ``_typed`` does for ``hint``, worked out once per hint (None: the value as it is).
    Asking ``typing`` about every value of every state was most of ``from_json``'s time."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = _converter(next(a for a in args if a is not type(None)))
        if inner is None:
            return None
        return lambda value: None if value is None else inner(value)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            each = _converter(args[0]) or _same
            return lambda value: (tuple(each(v) for v in value) if isinstance(value, list)
                                  else value)
        several = tuple(_converter(a) or _same for a in args)
        return lambda value: (tuple(c(v) for v, c in zip(value, several))
                              if isinstance(value, list) else value)
    if origin is list:
        item = _converter(args[0]) or _same
        return lambda value: [item(v) for v in value] if isinstance(value, list) else value
    if origin is dict:
        entry = _converter(args[1]) or _same
        return lambda value: ({k: entry(v) for k, v in value.items()}
                              if isinstance(value, dict) else value)
    return None


def require(condition: bool, template: str, /, **params: Any) -> None:
    """Raise ``IllegalAction(template, **params)`` unless ``condition`` holds."""
    if not condition:
        raise IllegalAction(template, **params)


def field_of(action: Action, name: str, kinds: type | tuple[type, ...]) -> Any:
    """The field ``name`` of ``action``, checked against ``kinds`` (bool is never an int here)."""
    if name not in action:
        raise IllegalAction("action needs '{field}'", field=name)
    value = action[name]
    if isinstance(value, bool) and bool not in (kinds if isinstance(kinds, tuple) else (kinds,)):
        raise IllegalAction("bad '{field}': {value!r}", field=name, value=value)
    if not isinstance(value, kinds):
        raise IllegalAction("bad '{field}': {value!r}", field=name, value=value)
    return value


def check_players(players: Sequence[Any], low: int, high: int) -> tuple[str, ...]:
    """Validate a seat list: ``low``..``high`` distinct, non-empty names."""
    if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) for p in players):
        raise SetupError("players: a list of names")
    names = tuple(p.strip() for p in players)
    if any(not n for n in names):
        raise SetupError("a player has no name")
    if len(set(names)) != len(names):
        raise SetupError("two players share a name")
    if not low <= len(names) <= high:
        raise SetupError("{low}-{high} players, not {count}", low=low, high=high,
                         count=len(names))
    return names


def ranking(entries: Iterable[tuple[str, Any, Any]]) -> list[tuple[int, str, Any]]:
    """Standings from ``(player, key, score)`` in seat order: higher keys rank better, equal keys
    share a rank (competition ranking 1, 1, 3), seat order is kept within a rank."""
    ordered = sorted(entries, key=lambda e: e[1], reverse=True)  # stable: seat order on ties
    out: list[tuple[int, str, Any]] = []
    for index, (player, key, score) in enumerate(ordered):
        rank = out[-1][0] if out and ordered[index - 1][1] == key else index + 1
        out.append((rank, player, score))
    return out
