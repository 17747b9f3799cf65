"""A game in progress on the device: engine state plus journal, so nothing accepted is ever lost."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Container

from ..games import Event, State
from . import DeviceError
from .header import Header
from .journal import Journal
from .replay import ReplayError, replay, start
from .text import problem

log = logging.getLogger(__name__)


class SessionError(DeviceError, RuntimeError):
    """The journal's actions cannot be replayed any more (undo found the game changed)."""


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
        """Start and record a game; ReplayError (nothing recorded) for a header it cannot play."""
        found = problem(header.to_json())
        if found:
            raise ReplayError(f"the game's header is not valid Unicode: {found}")
        state = start(header)  # raises ReplayError for bad players or options
        game_id = journal.start_game(header)
        return cls(journal, game_id, header, state)

    @classmethod
    def resume(cls, journal: Journal, playable: Container[str] | None = None
               ) -> "Session | None":
        """The latest game from the journal, replayed; None if there is none.

        Never raises for what the journal holds: a game that cannot be replayed (unknown game, an
        action the engine refuses, an engine failure) or that is not in ``playable`` (the games
        this box has a mode for) is set aside like a game with damaged rows, and
        ``journal.notices`` says so; the next older game is tried.
        """
        while True:
            saved = journal.latest()  # sets aside games whose rows cannot be read
            if saved is None:
                return None
            if playable is not None and saved.header.game not in playable:
                journal.set_aside(saved.id, f"this box cannot referee {saved.header.game}")
                continue
            try:
                state, events = _rebuild(saved.header, saved.actions)
            except (SessionError, ReplayError) as exc:
                journal.set_aside(saved.id, str(exc))
                continue
            except Exception as exc:  # an engine bug must not stop the box from starting
                log.exception("game %d cannot be replayed", saved.id)
                journal.set_aside(saved.id, f"the engine failed: {type(exc).__name__}: {exc}")
                continue
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
        self.state, self.last_events = _rebuild(self.header, self.actions)
        return undone

    def abandon(self) -> None:
        self.journal.set_status(self.game_id, "abandoned")


def _rebuild(header: Header, actions: list[dict[str, Any]]) -> tuple[State, list[Event]]:
    """The state after ``actions`` and the events of the last one (shown again after a resume or
    an undo), through the one replay loop. SessionError names the action that failed."""
    state, _events, error = replay(start(header), actions[:-1])
    events: list[Event] = []
    if error is None and actions:
        state, events, error = replay(state, actions[-1:], first=len(actions) - 1)
    if error:
        raise SessionError(error)
    return state, events
