"""``spielleiter replay``: one JSON document in, the final public state out, through the engines."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Sequence

from ..games import GAMES, GameError, State
from . import DeviceError


class ReplayError(DeviceError, ValueError):
    """The document cannot be replayed; ``message`` is one line for stderr."""


@dataclass(frozen=True)
class Header:
    """What starts a game: the same fields the journal keeps for every game."""

    game: str
    players: tuple[str, ...]
    options: dict[str, Any]
    seed: int

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "players": list(self.players), "options": self.options,
                "seed": self.seed}


def _check_game(game: Any) -> None:
    if not isinstance(game, str) or game not in GAMES:
        raise ReplayError(f"unknown game {game!r}; known: {', '.join(sorted(GAMES))}")


def parse_header(doc: Any) -> Header:
    """Check the header fields of a replay document (or a link's new-game command)."""
    if not isinstance(doc, dict):
        raise ReplayError("the document must be a JSON object")
    game = doc.get("game")
    _check_game(game)
    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ReplayError("'players' must be a list of names")
    options = doc.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ReplayError("'options' must be a JSON object")
    seed = doc.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ReplayError("'seed' must be an integer")
    return Header(game, tuple(players), options, seed)


def start(header: Header) -> State:
    """The first state of the game a header names (ReplayError for one this box cannot play)."""
    _check_game(header.game)
    try:
        return GAMES[header.game].new_game(list(header.players), header.options, header.seed)
    except GameError as exc:
        raise ReplayError(f"cannot start {header.game}: {exc}") from None


def replay(state: State, actions: Sequence[Any]) -> tuple[State, list[Any], str | None]:
    """Apply ``actions`` in order; stop at the first illegal one.

    Returns the last good state, the events of every applied action, and the error line (or None).
    """
    events: list[Any] = []
    for index, action in enumerate(actions):
        try:
            state, caused = state.apply(action)
        except GameError as exc:
            return state, events, f"action {index}: {exc} ({json.dumps(action)[:120]})"
        events.extend(caused)
    return state, events, None


def parse_json(text: str) -> Any:
    """JSON from text, or a ReplayError with one line (nesting too deep counts as malformed)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReplayError(f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
                          ) from None
    except RecursionError:
        raise ReplayError("malformed JSON: nested too deeply") from None


def run(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """Replay a document given as text: (public state or None, error line or None)."""
    doc = parse_json(text)
    header = parse_header(doc)
    actions = doc.get("actions", [])
    if not isinstance(actions, list):
        raise ReplayError("'actions' must be a list")
    state, _events, error = replay(start(header), actions)
    return state.public(), error
