"""The family's own statistics: per player and per game, from the finished games and the learning
station's answers.

Pure arithmetic over what the journal already holds: ``GameRecord``s (``device.past_games``:
corrections are applied, so a corrected winner counts as the winner) and the learning station's
``history.Record``s. One place per child: a name is one person as the roster keeps it
(``names.identity``: "mia" is "Mia", but "Strauß" and "Strauss" are two), for games and answers
alike. Only games that ended with a result (status ``over``) count;
an abandoned game has no winner. Streaks follow the journal's order of games, never wall time.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any, Iterable

from ..journal.learning import Record
from .names import identity
from .records import GameRecord

__all__ = ["COLUMNS", "FamilyStats", "GameStats", "PlayerStats", "Tally"]

COLUMNS = ("kind", "name", "games", "wins", "game", "plays", "game_wins", "last_played",
           "best_streak", "answers", "right", "typical_s", "most_wins", "most_wins_count")


@dataclass(frozen=True)
class PlayerStats:
    """One person: ``games`` finished games played and ``wins`` won (a shared win counts for
    each winner); ``played``/``won`` the same per game (by the game's name); ``last_played`` the
    newest of their games that has a date (ISO 8601, UTC; None: none has), ``last_game_id`` the
    newest of their games (known even without a date); ``best_streak`` the most wins in a row
    among their own games; ``answers``/``right`` at the learning station."""

    name: str
    games: int = 0
    wins: int = 0
    played: dict[str, int] = field(default_factory=dict)
    won: dict[str, int] = field(default_factory=dict)
    last_played: str | None = None
    last_game_id: int | None = None
    best_streak: int = 0
    answers: int = 0
    right: int = 0


@dataclass(frozen=True)
class GameStats:
    """One game: how often it was finished, its typical (median) duration in seconds over the
    plays whose duration is known (None: none is), and who won it most (several on a tie;
    empty when nobody ever won)."""

    game: str
    title: str
    plays: int
    typical_s: float | None
    most_wins: tuple[str, ...]
    most_wins_count: int


@dataclass(frozen=True)
class FamilyStats:
    players: list[PlayerStats]
    games: list[GameStats]

    @classmethod
    def build(cls, records: Iterable[GameRecord], learning: Iterable[Record] = ()
              ) -> "FamilyStats":
        """The statistics of ``records`` (any order, any status: only finished games count)
        and the learning station's ``learning`` records."""
        tally = Tally()
        tally.add(records)
        return tally.finish(learning)

    def player(self, name: str) -> PlayerStats | None:
        """A person's statistics by name (the roster's identity of a name)."""
        wanted = identity(name)
        return next((p for p in self.players if identity(p.name) == wanted), None)

    def rows(self) -> list[dict[str, Any]]:
        """One row per player, per player and game, and per game, under ``COLUMNS`` (CSV)."""
        rows: list[dict[str, Any]] = []
        for p in self.players:
            rows.append({"kind": "player", "name": p.name, "games": p.games, "wins": p.wins,
                         "last_played": p.last_played or "", "best_streak": p.best_streak,
                         "answers": p.answers, "right": p.right})
            for game, plays in p.played.items():
                rows.append({"kind": "player_game", "name": p.name, "game": game,
                             "plays": plays, "game_wins": p.won.get(game, 0)})
        for g in self.games:
            rows.append({"kind": "game", "game": g.game, "plays": g.plays,
                         "typical_s": "" if g.typical_s is None else g.typical_s,
                         "most_wins": " ".join(g.most_wins),
                         "most_wins_count": g.most_wins_count})
        return [{column: row.get(column, "") for column in COLUMNS} for row in rows]


class Tally:
    """``FamilyStats`` counted a batch at a time (the box's screen counts a long journal in
    steps, so no key waits for all of it): ``add`` batches in the journal's order (oldest
    first; a batch in any order), then ``finish``."""

    def __init__(self) -> None:
        self.people: dict[str, dict[str, Any]] = {}
        self.by_game: dict[str, list[GameRecord]] = {}

    def person(self, name: str) -> dict[str, Any]:
        return self.people.setdefault(identity(name), {
            "name": name, "games": 0, "wins": 0, "played": {}, "won": {}, "last": None,
            "last_id": None, "run": 0, "best": 0, "answers": 0, "right": 0})

    def add(self, records: Iterable[GameRecord]) -> None:
        for record in sorted((r for r in records if r.status == "over"),
                             key=lambda r: r.game_id):
            self.by_game.setdefault(record.game, []).append(record)
            winners = {identity(w) for w in record.winners}
            dated = record.started or record.ended
            for name in dict.fromkeys(record.players):
                p = self.person(name)
                won = identity(name) in winners
                p["games"] += 1
                p["played"][record.game] = p["played"].get(record.game, 0) + 1
                p["last_id"] = record.game_id
                if dated:
                    p["last"] = dated
                if won:
                    p["wins"] += 1
                    p["won"][record.game] = p["won"].get(record.game, 0) + 1
                    p["run"] += 1
                    p["best"] = max(p["best"], p["run"])
                else:
                    p["run"] = 0

    def finish(self, learning: Iterable[Record] = ()) -> FamilyStats:
        for answer in learning:
            p = self.person(answer.child)
            p["answers"] += 1
            p["right"] += int(answer.attempt.correct)
        players = [PlayerStats(p["name"], p["games"], p["wins"], p["played"], p["won"],
                               p["last"], p["last_id"], p["best"], p["answers"], p["right"])
                   for p in self.people.values()]
        players.sort(key=lambda p: (-p.games, -p.answers, p.name.casefold()))
        games = [_game_stats(name, plays) for name, plays in self.by_game.items()]
        games.sort(key=lambda g: (-g.plays, g.title.casefold()))
        return FamilyStats(players, games)


def _game_stats(game: str, plays: list[GameRecord]) -> GameStats:
    durations = [r.duration_s for r in plays if r.duration_s is not None]
    wins: dict[str, int] = {}
    names: dict[str, str] = {}
    for record in plays:
        for winner in dict.fromkeys(record.winners):
            key = identity(winner)
            names.setdefault(key, winner)
            wins[key] = wins.get(key, 0) + 1
    top = max(wins.values(), default=0)
    return GameStats(game, plays[0].title, len(plays),
                     round(statistics.median(durations), 1) if durations else None,
                     tuple(names[k] for k in wins if wins[k] == top and top), top)
