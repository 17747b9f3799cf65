"""What a game declares besides its rules, once, for the box, the CLI, the docs and the tests:
its options, the measurements and chance its actions carry, its action labels, and what the
player it waits for needs now (``need``)."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from .exc import SetupError
from .state import Action, State


@dataclass(frozen=True)
class Option:
    """One of a game's options, declared once: ``check_options``, the box's set-up screens, the
    docs and the random-play tests all read it.

    ``choices`` are what the set-up screens offer (the engine may accept more, e.g. a whole circle
    as Bunte Runde's ``layout``; it checks every value itself); an option with no ``label`` is not
    offered at set-up. ``names`` is a short word for each choice and ``hints`` a line saying what
    it means, both English (the box translates them). ``kind``: "choice" (one of ``choices``),
    "player" (one of the seats; ``None`` means the first) or "list" (one of ``choices`` for each
    entry of the default's length). ``ruling`` names the ruling it settles (its id in docs/games.md).
    """

    key: str
    default: Any
    label: str = ""
    choices: tuple[Any, ...] = ()
    names: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()
    kind: str = "choice"
    ruling: str = ""

    @property
    def offered(self) -> bool:
        return bool(self.label)


def check_options(options: Any, known: Sequence[Option] | Mapping[str, Any]) -> dict[str, Any]:
    """Merge ``options`` over the defaults of ``known`` (a game's ``Option``s, or a mapping of
    defaults); unknown keys are an error."""
    defaults = known if isinstance(known, Mapping) else {o.key: o.default for o in known}
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise SetupError("options: a JSON object")
    unknown = sorted(set(options) - set(defaults))
    if unknown:
        raise SetupError("unknown option {option!r}", option=unknown[0])
    return {**copy.deepcopy(dict(defaults)), **options}


@dataclass(frozen=True)
class Measurement:
    """A number an action carries that the table reads off an instrument rather than chooses.

    ``field`` is the action's key (``"grams"``), ``low``..``high`` the range a simulated reading
    is drawn from, ``decimals`` its resolution. ``private``: the table must not see the value
    before the game is over (the engine keeps it out of ``public()`` and events). ``limits``:
    the values the rules measure (a correction after the game is held to them); None: low..high.
    """

    field: str
    low: float
    high: float
    decimals: int = 1
    private: bool = False
    role: str = ""  # which pan the box takes it from, as the game names the pan's job
    limits: tuple[float, float] | None = None

    @property
    def range(self) -> tuple[float, float]:
        return self.limits if self.limits is not None else (self.low, self.high)

    def allows(self, value: Any) -> bool:
        """A reading the rules measure: a number in ``range`` at ``decimals``' resolution."""
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            return False
        least, most = self.range
        return least <= value <= most and round(value, self.decimals) == value

    def sample(self, rng: random.Random) -> float:
        return round(rng.uniform(self.low, self.high), self.decimals)


@dataclass(frozen=True)
class Chance:
    """A number an action carries that chance decides: a die. The table may roll a real die
    and enter it, or the box draws it with ``State.draw`` from the state's own seeded
    generator (the same state always draws the same number, so an undone roll rolls again the
    same). ``values`` are the faces."""

    field: str
    values: tuple[int, ...] = (1, 2, 3, 4, 5, 6)

    def sample(self, rng: random.Random) -> int:
        return rng.choice(self.values)


@dataclass(frozen=True)
class GameInfo:
    """What the device and the CLI need to know of a game besides its rules.

    ``options`` are the game's options (``Option``), declared once. ``measurements`` maps an
    action type to the ``Measurement`` its listed form leaves out; ``chance`` to the ``Chance``
    (a die) it leaves out. ``labels`` maps an action type to what a menu calls it (English, a
    template over the action's fields; the box translates it). ``values`` maps an action field
    to the values the rules give it (a card, a direction), whatever the state: what tests offer
    an engine to prove it lists exactly what it accepts. ``words`` are the English words the
    engine puts into refusals for things (``{kind}``), which the box says in its language.
    ``secret_fields`` maps an action type to the fields it carries that the table must not see
    (a card chosen in secret); with the private measurements they are ``hidden_fields``.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    new_game: Callable[[Sequence[str], Mapping[str, Any] | None, int], State]
    measurements: Mapping[str, Measurement] = field(default_factory=dict)
    options: tuple[Option, ...] = ()
    values: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    words: tuple[str, ...] = ()
    chance: Mapping[str, Chance] = field(default_factory=dict)
    labels: Mapping[str, str] = field(default_factory=dict)
    secret_fields: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def hidden_fields(self, action_type: str) -> frozenset[str]:
        """The fields of an ``action_type`` action that never leave the box: those the game
        declares secret and a private measurement. By field, never by value: whether a field
        is hidden cannot tell what it holds."""
        measurement = self.measurements.get(action_type)
        private = (measurement.field,) if measurement is not None and measurement.private else ()
        return frozenset((*self.secret_fields.get(action_type, ()), *private))

    def label(self, action: Mapping[str, Any]) -> str:
        """The English label of ``action`` for a menu: its type's template filled with the
        action's fields ("Move {steps}" -> "Move 2"); the type itself when none is declared."""
        kind = str(action.get("type"))
        template = self.labels.get(kind, kind)
        try:
            return template.format(**action)
        except (KeyError, IndexError, ValueError):
            return template

    def defaults(self) -> dict[str, Any]:
        return {o.key: copy.deepcopy(o.default) for o in self.options}


def complete(info: GameInfo, action: Action, rng: random.Random) -> dict[str, Any]:
    """``action`` (as ``legal_actions`` lists it) with any measurement or chance it leaves out
    filled in from ``rng``: what random play and demos apply."""
    out = dict(action)
    kind = str(action.get("type"))
    for left_out in (info.measurements.get(kind), info.chance.get(kind)):
        if left_out is not None and left_out.field not in out:
            out[left_out.field] = left_out.sample(rng)
    return out


@dataclass(frozen=True)
class Need:
    """What the game needs from ``player`` now, so one referee can ask for it: ``"choice"``
    among ``actions`` (the legal ones), ``"chance"`` (``action`` carries ``chance``: a die to
    roll), ``"measurement"`` (``action`` carries ``measurement``: a weight from the pan whose job
    is its ``role``), or ``"nothing"`` (not this player's turn, or the game is over)."""

    kind: str
    player: str
    actions: tuple[dict[str, Any], ...] = ()
    action: dict[str, Any] | None = None
    chance: Chance | None = None
    measurement: Measurement | None = None


def need(info: GameInfo, state: State, player: str) -> Need:
    """What ``state`` needs from ``player``: the engine's legal actions say it. A lone action
    with a chance or a measurement left out is that need; anything else is a choice among the
    legal actions (a choice may include a chance or a measurement action: the menu offers it)."""
    actions = tuple(state.legal_actions(player)) if player in state.waiting_for() else ()
    if not actions:
        return Need("nothing", player)
    if len(actions) == 1:
        kind = str(actions[0].get("type"))
        if kind in info.chance:
            return Need("chance", player, actions, actions[0], chance=info.chance[kind])
        if kind in info.measurements:
            return Need("measurement", player, actions, actions[0],
                        measurement=info.measurements[kind])
    return Need("choice", player, actions)
