"""Snapshots of a game's state, so a long game resumes and undoes without replaying every action.

Every ``EVERY`` actions the session stores the whole state (``State.to_json``) beside the action,
in the same transaction. A snapshot is trusted only when everything about it checks: its digest
(SHA-256 of the state text, so a flipped bit in a number is caught even though the JSON still
parses), the engine it was made by (a digest of the engines' own source: a snapshot from any
other version of the rules is never used), the game and players of the header, and a state the
engine rebuilds. Anything else falls back to an older snapshot or to replay from the start, the
way a game always resumed; the journal's actions stay the truth.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
from importlib import resources
from typing import Any

from ...games import GameError, State
from .header import Header

log = logging.getLogger(__name__)

EVERY = 200  # actions between snapshots: resume and undo replay at most this many


@functools.cache
def engines_digest() -> str:
    """A digest of every engine's source (``games/``): a snapshot names the rules it was made by.
    Without readable sources (a frozen build) the package version stands in."""
    digest = hashlib.sha256()
    try:
        for name, source in sorted(_sources(resources.files("spielleiter.games"), "")):
            digest.update(name.encode() + b"\0" + source.read_bytes() + b"\0")
    except (OSError, TypeError) as exc:  # pragma: no cover - sources are always installed
        from .. import __version__

        log.warning("engine sources unreadable (%s): snapshots keyed by version", exc)
        digest.update(__version__.encode())
    return digest.hexdigest()[:16]


def _sources(folder: Any, prefix: str) -> list[tuple[str, Any]]:
    """Every ``.py`` file under ``folder`` (packages too, such as ``games/core/``), by path."""
    found = []
    for entry in folder.iterdir():
        if entry.is_dir() and entry.name != "__pycache__":
            found += _sources(entry, f"{prefix}{entry.name}/")
        elif entry.name.endswith(".py"):
            found.append((prefix + entry.name, entry))
    return found


def engine_of(game: str) -> str:
    return f"{game}@{engines_digest()}"


def digest_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def due(count: int) -> bool:
    """A snapshot belongs after the ``count``-th action."""
    return count > 0 and count % EVERY == 0


def encode(state: State, count: int) -> tuple[int, str, str, str]:
    """The row for the state after ``count`` actions: (seq, engine, state, digest)."""
    text = json.dumps(state.to_json(), separators=(",", ":"), sort_keys=True)
    return count, engine_of(state.game), text, digest_of(text)


def decode(header: Header, snapshot: Any, kind: type[State]) -> State | None:
    """The state a stored snapshot holds (a ``kind``: the class of the game's first state), or
    None (logged) when anything about it is off."""
    why = _problem(header, snapshot, kind)
    if isinstance(why, State):
        return why
    log.warning("snapshot %s of a %s game not used: %s", getattr(snapshot, "seq", "?"),
                header.game, why)
    return None


def _problem(header: Header, snapshot: Any, kind: type[State]) -> State | str:
    if snapshot.engine != engine_of(header.game):
        return f"made by other rules ({snapshot.engine})"
    text = snapshot.state
    if not isinstance(text, str) or not isinstance(snapshot.digest, str):
        return "not text"
    if digest_of(text) != snapshot.digest:
        return "damaged (digest)"
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return f"not JSON ({exc})"
    try:
        state = kind.from_json(doc)
    except (GameError, TypeError, ValueError, KeyError, AttributeError) as exc:
        return f"the engine cannot rebuild it ({exc})"
    if tuple(getattr(state, "players", ())) != tuple(header.players):
        return "another game's players"
    return state
