"""Helpers for the tests that play every registered game at random (not a test module)."""

from __future__ import annotations

import json
import random
from typing import Any, Iterator

from spielleiter.games import GAMES, GameInfo, State, complete

# Option sets beyond what a game declares (its GameInfo's choices are all played anyway).
EXTRA: dict[str, list[dict[str, Any]]] = {
    "tatort-tonne": [{"trash": 5}],
    "tante-trudels-troedel": [{"scale_rows": [3, 9, 15]}],
    "currency-torraku": [{"bag": {"truck": 0, "washing_machine": 1, "rice_cooker": 2}}],
}


def option_sets(info: GameInfo) -> list[dict[str, Any]]:
    """The defaults, each declared choice that is not the default, and the extras above."""
    sets: list[dict[str, Any]] = [{}]
    for option in info.options:
        if option.kind == "choice":
            sets += [{option.key: c} for c in option.choices if c != option.default]
    return sets + EXTRA.get(info.name, [])


def start(info: GameInfo, seed: int) -> State:
    """A new game of ``info`` with a seeded player count and option set."""
    rng = random.Random(seed)
    count = rng.randint(info.min_players, info.max_players)
    options = rng.choice(option_sets(info))
    return info.new_game([f"P{i}" for i in range(count)], options, seed)


def playthrough(info: GameInfo, seed: int, bound: int = 3000
                ) -> Iterator[tuple[State, dict[str, Any], State, list[Any]]]:
    """Play ``info`` from a seeded start, each step a random waiting player's random legal action
    (measurements filled by ``complete``); yields (before, action, after, events)."""
    rng = random.Random(seed)
    state = start(info, seed)
    for _ in range(bound):
        if state.is_over:
            return
        waiting = state.waiting_for()
        assert waiting, "a game that is not over waits for somebody"
        player = rng.choice(waiting)
        listed = state.legal_actions(player)
        assert listed, f"{player} is waited for but may do nothing"
        action = complete(info, rng.choice(listed), rng)
        after, events = state.apply(action)
        yield state, action, after, events
        state = after


def leaves(value: Any) -> Iterator[Any]:
    """Every leaf value of a JSON document (keys are not values)."""
    if isinstance(value, dict):
        for v in value.values():
            yield from leaves(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from leaves(v)
    else:
        yield value


def leaked(document: Any, secrets: tuple[Any, ...]) -> list[Any]:
    """The secrets that show in ``document``: a float as a float leaf or inside a text, a string
    as a leaf or inside a text."""
    found = []
    values = list(leaves(document))
    texts = [v for v in values if isinstance(v, str)]
    for secret in secrets:
        if isinstance(secret, float):
            shown = any(type(v) is float and v == secret for v in values)
            shown = shown or any(f"{secret}" in t for t in texts)
        else:
            shown = any(secret == v or (isinstance(secret, str) and secret in t)
                        for v in values for t in [v if isinstance(v, str) else ""])
        if shown:
            found.append(secret)
    return found


def round_trip(state: State) -> State:
    return type(state).from_json(json.loads(json.dumps(state.to_json())))


def names() -> list[str]:
    return sorted(GAMES)
