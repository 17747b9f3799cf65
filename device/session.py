"""A game in progress on the device: engine state plus journal, so nothing accepted is ever lost."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Container, Sequence

from ..games import Event, State
from .past import results as record_cache
from .journal import snapshots
from .journal.header import Header
from .journal.store import Journal
from .replay import ReplayError, replay, start
from .text import problem
from .exc import SessionError

log = logging.getLogger(__name__)


@dataclass
class Session:
    """The running game: ``apply`` checks an action, commits it, and only then changes state.

    ``states`` keeps the states at every snapshot point this run has seen (states never change
    in place), so undo replays at most ``snapshots.EVERY`` actions.
    """

    journal: Journal
    game_id: int
    header: Header
    state: State
    actions: list[dict[str, Any]] = field(default_factory=list)
    last_events: list[Event] = field(default_factory=list)
    states: dict[int, State] = field(default_factory=dict, repr=False)

    @classmethod
    def new(cls, journal: Journal, header: Header) -> "Session":
        """Start and record a game; ReplayError (nothing recorded) for a header it cannot play."""
        found = problem(header.to_json())
        if found:
            raise ReplayError(f"the game's header is not valid Unicode: {found}")
        state = start(header)  # raises ReplayError for bad players or options
        game_id = journal.start_game(header)
        return cls(journal, game_id, header, state, states={0: state})

    @classmethod
    def resume(cls, journal: Journal, playable: Container[str] | None = None
               ) -> "Session | None":
        """The latest game from the journal, rebuilt from its newest good snapshot and the
        actions after it (or replayed from the start); None if there is none.

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
            session = cls(journal, saved.id, saved.header, None,  # type: ignore[arg-type]
                          list(saved.actions))
            try:
                session.state, session.last_events = session._rebuild(stored=True)
            except (SessionError, ReplayError) as exc:
                journal.set_aside(saved.id, str(exc))
                continue
            except Exception as exc:  # an engine bug must not stop the box from starting
                log.exception("game %d cannot be replayed", saved.id)
                journal.set_aside(saved.id, f"the engine failed: {type(exc).__name__}: {exc}")
                continue
            return session

    def apply(self, action: dict[str, Any],
              notes: Sequence[tuple[str, dict[str, Any]]] = ()) -> list[Event]:
        """Check, commit (with the referee's ``notes`` in the same transaction), then adopt.
        Raises GameError (nothing changed) for an illegal action."""
        state, events = self.state.apply(action)
        count = len(self.actions) + 1
        snapshot = snapshots.encode(state, count) if snapshots.due(count) else None
        kept = record_cache.final_entry(self.game_id, self.header, [*self.actions, action],
                                        state) if state.is_over else None
        self.journal.append(self.game_id, action, over=state.is_over, snapshot=snapshot,
                            kept=kept, notes=notes)
        self.state, self.last_events = state, events
        self.actions.append(dict(action))
        if snapshot is not None:
            self.states[count] = state
        log.info("game %d action %d: %s", self.game_id, count - 1, action)
        return events

    def undo(self) -> dict[str, Any] | None:
        """Take back the last action (journal first), rebuilding the state from the nearest
        snapshot before it."""
        if not self.actions:
            return None
        undone = self.journal.undo(self.game_id)
        self.actions.pop()
        for count in [c for c in self.states if c > len(self.actions)]:
            del self.states[count]
        self.state, self.last_events = self._rebuild(stored=False)
        return undone

    def abandon(self) -> None:
        self.journal.set_status(self.game_id, "abandoned")

    # -- rebuilding ------------------------------------------------------------------------------
    def _rebuild(self, *, stored: bool) -> tuple[State, list[Event]]:
        """The state after ``actions`` and the events of the last one (shown again after a
        resume or an undo), through the one replay loop, from the newest base that checks: a
        state this run kept, a snapshot in the journal (``stored``, or when none was kept), or
        the start. A snapshot whose following actions do not replay is dropped for an older
        base; SessionError names the action that fails from the start."""
        first = start(self.header)
        self.states.setdefault(0, first)
        limit = max(0, len(self.actions) - 1)  # the last action is replayed for its events
        kept = max((c for c in self.states if c <= limit), default=0)
        stored_rows = {}
        if stored or kept == 0:
            stored_rows = {s.seq: s for s in self.journal.snapshots(self.game_id, limit)
                           if s.seq > kept}
        for count in sorted(stored_rows, reverse=True) + [kept]:
            state = self.states.get(count) if count == kept else \
                snapshots.decode(self.header, stored_rows[count], type(first))
            if state is None:
                continue
            try:
                rebuilt = _replay_from(state, count, self.actions)
            except SessionError as exc:
                if count == 0:
                    raise
                log.warning("game %d: snapshot %d dropped: %s", self.game_id, count, exc)
                self.states.pop(count, None)
                continue
            self.states[count] = state
            return rebuilt
        return _replay_from(first, 0, self.actions)


def _replay_from(state: State, count: int, actions: list[dict[str, Any]]
                 ) -> tuple[State, list[Event]]:
    """The state after ``actions`` from ``state`` (the state after the first ``count``) and the
    events of the last action. SessionError names the action that failed."""
    state, _events, error = replay(state, actions[count:-1] if actions else [], first=count)
    events: list[Event] = []
    if error is None and len(actions) > count:
        state, events, error = replay(state, actions[-1:], first=len(actions) - 1)
    if error:
        raise SessionError(error)
    return state, events
