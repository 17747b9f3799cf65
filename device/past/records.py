"""A finished game as a record: the game, when, how long, who sat where, the scores, who won, and
which box: what a board-game logger keeps of a play, and what the room shows of it.

One record serves both the room (the uplink publishes it on ``spielleiter/<box>/games``) and the
laptop's export of past games. It is built by replaying the journal's game through its engine
(``GameRecord.build``), so scores, ranks and winners are the engine's rules, never re-derived here.
It holds nothing secret: no action, no seed, only what the engine's standings show.

Dates: a record read through the journal's time base (``device.past_games``, the uplink) carries
its ``when`` (``timebase.GameTime``): dates from the boot's synchronised clock, put right once the
clock synchronised later in that boot, and a duration from the monotonic clock. Without it
(``from_journal`` on a bare connection) ``game_time`` trusts the stored wall time unless it is
implausible (before ``PLAUSIBLE_FROM``: a Pi without a real-time clock that booted without the
network). An unknown date is None ("date unknown").

Corrections after the game (``device.past_games``) re-derive the record by replay: ``corrected``
says so and ``changes`` says, in English lines, what was corrected, why, and how the result moved.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Sequence

from ...games import GAMES, State
from ..journal.header import Header
from ..replay import ReplayError, replay, start
from ..journal.timebase import GameTime

FORMAT = 1  # ``to_json()["record"]``: bumped when a field changes meaning
PLAUSIBLE_FROM = datetime(2024, 1, 1, tzinfo=timezone.utc).timestamp()


def game_time(at: float | None) -> str | None:
    """A journal time (epoch seconds) as ISO 8601 in UTC, or None when it cannot be a true date.

    The one function that resolves dates: the journal's time base (boots, a synchronised clock)
    replaces its rule here, and every record follows."""
    if at is None or not isinstance(at, (int, float)) or at != at or at < PLAUSIBLE_FROM:
        return None
    try:
        return datetime.fromtimestamp(at, timezone.utc).isoformat(timespec="seconds")
    except (OverflowError, OSError, ValueError):
        return None


@dataclass(frozen=True)
class Standing:
    """One player's place at the end: ``seat`` counts from 1 in the game's seat order; ``score``
    is the game's own (trash, coins, basket grams, pieces left; None where the game has none)."""

    rank: int
    player: str
    seat: int
    score: Any
    winner: bool

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "player": self.player, "seat": self.seat,
                "score": self.score, "winner": self.winner}


@dataclass(frozen=True)
class GameRecord:
    """A game of the journal as a logger keeps it (see the module doc).

    ``status`` is the journal's: ``over`` for a finished game (the only kind the room is sent),
    else ``running``, ``abandoned`` or ``damaged``. ``started``/``ended`` are ISO 8601 UTC or None
    (``game_time``); ``started_at`` is the journal's raw time, which with ``game_id`` names the
    game uniquely on its box. ``error`` says why a game could not be replayed to its end (then
    the standings are those of the last good state)."""

    game_id: int
    game: str
    title: str
    status: str
    players: tuple[str, ...]
    options: dict[str, Any]
    standings: tuple[Standing, ...]
    winners: tuple[str, ...]
    actions: int
    started_at: float | None
    ended_at: float | None
    box_id: str | None = None
    box_name: str | None = None
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # room for what later uses add
    corrected: bool = False          # a correction after the game changed an action
    changes: tuple[str, ...] = ()    # what was corrected and why, and what that changed
    when: GameTime | None = None     # the journal's time base, when read through it
    rechecked: bool = False          # newer rules derived another result than the game's own

    @property
    def started(self) -> str | None:
        if self.when is not None:
            return _iso(self.when.started)
        return game_time(self.started_at)

    @property
    def ended(self) -> str | None:
        if self.when is not None:
            return _iso(self.when.ended)
        return game_time(self.ended_at)

    @property
    def duration_s(self) -> float | None:
        """How long the game took (a pause in between is counted): from the monotonic clock
        when the time base knows it, else ended minus started; None when either is unknown or
        the clock jumped backwards in between."""
        if self.when is not None:
            if self.when.duration_s is not None:
                return round(self.when.duration_s, 1)
            start, end = self.when.started, self.when.ended
        else:
            start, end = self.started_at, self.ended_at
        if start is None or end is None or end < start:
            return None
        return round(end - start, 1)

    @classmethod
    def build(cls, game_id: int, header: Header, actions: Sequence[dict[str, Any]], *,
              status: str, started_at: float | None = None, ended_at: float | None = None,
              box_id: str | None = None, box_name: str | None = None) -> "GameRecord":
        """Replay ``actions`` from ``header`` through the engine and keep the result (``error``
        names the first action the engine refused). ReplayError when the game cannot even be
        started (an unknown game, bad players or options)."""
        state, _events, error = replay(start(header), actions)
        return cls.from_state(game_id, header, state, len(actions), status=status,
                              started_at=started_at, ended_at=ended_at, box_id=box_id,
                              box_name=box_name, error=error)

    @classmethod
    def from_state(cls, game_id: int, header: Header, state: State, actions: int, *,
                   status: str, started_at: float | None = None, ended_at: float | None = None,
                   box_id: str | None = None, box_name: str | None = None,
                   error: str | None = None) -> "GameRecord":
        """The record of a game whose engine state after ``actions`` actions is at hand."""
        winners = tuple(state.winners()) if state.is_over else ()
        seats = {name: index for index, name in enumerate(state.players, start=1)}
        standings = tuple(Standing(rank, player, seats[player], score, player in winners)
                          for rank, player, score in state.standings())
        return cls(game_id, header.game, GAMES[header.game].title, status, tuple(state.players),
                   dict(header.options), standings, winners, actions, started_at, ended_at,
                   box_id, box_name, error)

    @classmethod
    def from_journal(cls, db: sqlite3.Connection, game_id: int, *, box_id: str | None = None,
                     box_name: str | None = None) -> "GameRecord":
        """The record of a journal's game, read through any connection to it (the box's own,
        or a read-only one). ReplayError for a game whose rows cannot be read or started."""
        from ..text import InputError, loads

        try:
            row = db.execute("SELECT header, status, started, ended FROM games WHERE id=?",
                             (game_id,)).fetchone()
            if row is None:
                raise ReplayError(f"no game {game_id}")
            header = Header.from_json(loads(row[0], "header"))
            actions = [loads(text, f"action {seq}") for seq, text in db.execute(
                "SELECT seq, action FROM actions WHERE game_id=? ORDER BY seq", (game_id,))]
        except (InputError, sqlite3.Error) as exc:
            raise ReplayError(f"game {game_id}: {exc}") from None
        return cls.build(game_id, header, actions, status=row[1], started_at=row[2],
                         ended_at=row[3], box_id=box_id, box_name=box_name)

    def to_json(self) -> dict[str, Any]:
        """The record as JSON values (``FORMAT`` under ``record``)."""
        doc: dict[str, Any] = {
            "record": FORMAT, "game_id": self.game_id, "game": self.game, "title": self.title,
            "status": self.status, "started": self.started, "ended": self.ended,
            "duration_s": self.duration_s, "started_at": self.started_at,
            "players": list(self.players), "options": self.options,
            "standings": [s.to_json() for s in self.standings], "winners": list(self.winners),
            "actions": self.actions, "box": {"id": self.box_id, "name": self.box_name},
        }
        if self.error:
            doc["error"] = self.error
        if self.corrected:
            doc["corrected"], doc["changes"] = True, list(self.changes)
        if self.rechecked:
            doc["rechecked"] = True
        doc.update(self.extra)
        return doc


def _iso(at: float | None) -> str | None:
    if at is None:
        return None
    try:
        return datetime.fromtimestamp(at, timezone.utc).isoformat(timespec="seconds")
    except (OverflowError, OSError, ValueError):
        return None


__all__ = ["FORMAT", "PLAUSIBLE_FROM", "GameRecord", "Standing", "game_time"]
