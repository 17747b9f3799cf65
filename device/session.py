"""A game in progress on the device: engine state plus journal, so nothing accepted is ever lost."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from ..games import Event, GameError, State
from . import DeviceError
from .journal import Journal
from .replay import Header, ReplayError, replay, start

log = logging.getLogger(__name__)


class SessionError(DeviceError, RuntimeError):
    """The journal holds a game the engine cannot replay (shown, then the game is closed)."""


@dataclass
class Session:
    """The running game: ``apply`` checks an action, commits it, and only then changes state."""

    journal: Journal
    game_id: int
    header: Header
    state: State
    actions: list[dict[str, Any]] = field(default_factory=list)
    last_events: list[Event] = field(default_factory=list)

    @classmethod
    def new(cls, journal: Journal, header: Header) -> "Session":
        state = start(header)  # raises ReplayError for bad players or options
        game_id = journal.start_game(header)
        return cls(journal, game_id, header, state)

    @classmethod
    def resume(cls, journal: Journal) -> "Session | None":
        """The latest game from the journal, replayed; None if there is none."""
        saved = journal.latest()
        if saved is None:
            return None
        try:
            state = start(saved.header)  # an unknown game (a newer journal) is a ReplayError too
            events: list[Event] = []
            for index, action in enumerate(saved.actions):
                try:
                    state, events = state.apply(action)
                except GameError as exc:
                    raise SessionError(f"game {saved.id}, action {index}: {exc}") from exc
        except (SessionError, ReplayError) as exc:
            journal.set_status(saved.id, "abandoned")  # shown once, not at every start
            raise SessionError(str(exc)) from exc
        return cls(journal, saved.id, saved.header, state, list(saved.actions), events)

    def apply(self, action: dict[str, Any]) -> list[Event]:
        """Check, commit, then adopt. Raises GameError (nothing changed) for an illegal action."""
        state, events = self.state.apply(action)
        self.journal.append(self.game_id, action, over=state.is_over)
        self.state, self.last_events = state, events
        self.actions.append(dict(action))
        log.info("game %d action %d: %s", self.game_id, len(self.actions) - 1, action)
        return events

    def undo(self) -> dict[str, Any] | None:
        """Take back the last action (journal first), rebuilding the state by replay."""
        if not self.actions:
            return None
        undone = self.journal.undo(self.game_id)
        self.actions.pop()
        state, _events, error = replay(start(self.header), self.actions[:-1])
        if error:  # pragma: no cover - the journal only holds actions the engine accepted
            raise SessionError(error)
        self.last_events = []
        if self.actions:
            state, self.last_events = state.apply(self.actions[-1])
        self.state = state
        return undone

    def abandon(self) -> None:
        self.journal.set_status(self.game_id, "abandoned")
