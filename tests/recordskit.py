"""Helpers for the tests of past games (not a test module): a journal with finished games of every
kind, played by a seeded random hand on a clock the test owns, with undo and pauses on the way."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from spielleiter.device.journal.store import Journal
from spielleiter.device.session import Session
from roomkit import TableBox

from spielleiter.games import GAMES

T0 = 1_800_000_000.0  # 2027-01-15T08:00:00+00:00
# Who plays each game: chosen seats for the shipped games (so the statistics have something to
# tell apart), and for any other game the registry finds (tests/fixture_game's, a new one) the
# first of Anna, Ben, Cem its rules take: a new game is played here without a line in this file.
CHOSEN = {"tatort-tonne": ("Anna", "Ben", "Cem"), "bunte-runde": ("Ben", "Anna", "Cem"),
          "currency-torraku": ("Cem", "Anna", "Ben"), "tante-trudels-troedel": ("Anna", "Ben")}
PLAYERS = {game: CHOSEN.get(game, ("Anna", "Ben", "Cem")[:max(2, min(3, info.min_players))])
           for game, info in GAMES.items()}


def shipped_games() -> list[str]:
    """The games whose engine the product ships (not tests/fixture_game's): what a process of
    the product's own, which never sees the tests' search path, can replay."""
    root = Path(__file__).resolve().parents[1] / "games"
    return [game for game, info in GAMES.items()
            if Path(sys.modules[info.new_game.__module__].__file__).parent == root]


class Clock:
    """A wall clock that is right (a laptop, or a box after network time) and moves 5 s a read."""

    def __init__(self, start: float = T0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 5.0
        return self.now

    def passes(self, seconds: float) -> None:
        self.now += seconds


class Table(TableBox):
    """A journal in ``state_dir`` and a random hand playing games on it, on a clock the test
    owns (the room's ``TableBox`` with each game's own players)."""

    def __init__(self, state_dir: Path, seed: int = 1, clock: Clock | None = None) -> None:
        self.clock = clock or Clock()
        super().__init__(state_dir, seed, clock=self.clock)

    def new(self, game: str = "tatort-tonne", players: tuple[str, ...] | None = None,
            options: dict[str, Any] | None = None, seed: int = 7) -> Session:
        return super().new(game, players or PLAYERS[game], options, seed)

    def finish(self) -> Session:
        while self.session is not None and not self.session.state.is_over:
            self.play(50)
        assert self.session is not None
        return self.session

    def pause_and_resume(self, seconds: float = 600.0) -> Session:
        """The table leaves the game (or the power goes): the journal is closed, time passes,
        the box starts again and resumes the game from the journal."""
        self.journal.close()
        self.clock.passes(seconds)
        self.journal = Journal(self.path, clock=self.clock)
        self.session = Session.resume(self.journal)
        assert self.session is not None
        return self.session

    def every_game(self, games: Any = None) -> dict[str, int]:
        """One finished game of each kind (of ``games``, default every one the registry has),
        each with an undo and a pause on the way; the game ids by game."""
        ids = {}
        for game in sorted(GAMES if games is None else games):
            if game not in PLAYERS:
                continue
            session = self.new(game)
            self.play(3)
            session.undo()
            self.pause_and_resume()
            self.play(2)
            self.session.undo()
            self.finish()
            ids[game] = self.session.game_id
        return ids

    def close(self) -> None:
        self.journal.close()
