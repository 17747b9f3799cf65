"""Replaying a game through its engine: the one replay loop (``spielleiter replay``, a session's
resume and undo all use ``replay``) and the checks of a replay document or a link's ``new``.

The command itself (stdin, files, exit statuses) lives in ``device/cli/replay.py``.
"""

from __future__ import annotations

from typing import Any, Sequence

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


def replay(state: State, actions: Sequence[Any], *, first: int = 0
           ) -> tuple[State, list[Any], str | None]:
    """Apply ``actions`` in order; stop at the first illegal one. The one replay loop: the CLI,
    the journal's resume and undo all use it. ``first`` numbers the actions in the error line.

    Returns the last good state, the events of every applied action, and the error line (or None).
    """
    events: list[Any] = []
    for index, action in enumerate(actions, first):
        try:
            state, caused = state.apply(action)
        except GameError as exc:
            return state, events, f"action {index}: {exc} ({dumps(action)[:120]})"
        events.extend(caused)
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
