"""Replaying a game through its engine: the one replay loop (``spielleiter replay``, a session's
resume and undo all use ``replay``) and the checks of a replay document or a link's ``new``.

The command itself (stdin, files, exit statuses) lives in ``device/cli/replay.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

from ..games import GAMES, GameError, State
from .journal.header import Header
from .text import InputError, dumps, loads, shown
from .exc import ReplayError


def _check_game(game: Any) -> None:
    if not isinstance(game, str) or game not in GAMES:
        raise ReplayError(f"unknown game {shown(game)}; known: {', '.join(sorted(GAMES))}")


def parse_header(doc: Any) -> Header:
    """Check the header fields of a replay document (or a link's new-game command)."""
    if isinstance(doc, dict):
        _check_game(doc.get("game"))
    try:
        return Header.from_json(doc)
    except InputError as exc:
        raise ReplayError(str(exc)) from None


def start(header: Header) -> State:
    """The first state of the game a header names (ReplayError for one this box cannot play)."""
    _check_game(header.game)
    try:
        return GAMES[header.game].new_game(list(header.players), header.options, header.seed)
    except GameError as exc:
        error = ReplayError(f"cannot start {header.game}: {exc}")
        error.refused = exc
        raise error from None


@dataclass(frozen=True)
class Applied:
    """One action of a replay: its number, the action, the states before and after it and the
    events it caused."""

    index: int
    action: Any
    before: State
    after: State
    events: list[Any]


def steps(state: State, actions: Iterable[Any], *, first: int = 0) -> Iterator[Applied]:
    """The one replay loop: ``actions`` applied in order, each to the state the one before left,
    numbered from ``first``. An illegal action raises the engine's ``GameError`` where it stands
    (what came before has been yielded); ``actions`` may be a generator that reads each action
    only when it is reached. The CLI, a session's resume and undo, past games, their replay on
    the box and the uplink all replay through it."""
    for index, action in enumerate(actions, first):
        after, caused = state.apply(action)
        yield Applied(index, action, state, after, caused)
        state = after


def replay(state: State, actions: Sequence[Any], *, first: int = 0
           ) -> tuple[State, list[Any], str | None]:
    """Apply ``actions`` in order (``steps``); stop at the first illegal one, numbered from
    ``first`` in the error line. Returns the last good state, the events of every applied
    action, and the error line (or None)."""
    events: list[Any] = []
    index = first
    try:
        for applied in steps(state, actions, first=first):
            state, index = applied.after, applied.index + 1
            events.extend(applied.events)
    except GameError as exc:
        return state, events, f"action {index}: {exc} ({dumps(actions[index - first])[:120]})"
    return state, events, None


def parse_json(text: str) -> Any:
    """JSON from text, or a ReplayError with one line: malformed or too deeply nested JSON,
    integers over Python's 4300-digit limit, NaN/Infinity, and lone surrogates are refused."""
    try:
        return loads(text, "the document")
    except InputError as exc:
        raise ReplayError(str(exc)) from None


def run(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """Replay a document given as text: (public state or None, error line or None)."""
    doc = parse_json(text)
    header = parse_header(doc)
    actions = doc.get("actions", [])
    if not isinstance(actions, list):
        raise ReplayError("'actions' must be a list")
    state, _events, error = replay(start(header), actions)
    return state.public(), error
