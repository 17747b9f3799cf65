"""Helpers for the past-games and statistics screens' tests: finished games, played at random
by the engines' own legal actions, and a journal holding them."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from spielleiter.device.journal.header import Header
from spielleiter.device.journal.store import Journal
from spielleiter.games import GAMES, complete


def random_game_actions(game: str, players: list[str], seed: int,
                        bound: int = 3000) -> list[dict[str, Any]]:
    """A whole game of ``game``: a seeded random legal action of the first player waited for,
    each measurement and die filled in, until the game is over."""
    info = GAMES[game]
    rng = random.Random(seed)
    state = info.new_game(players, {}, seed)
    actions: list[dict[str, Any]] = []
    while not state.is_over and len(actions) < bound:
        action = complete(info, rng.choice(state.legal_actions(state.waiting_for()[0])), rng)
        chance = info.chance.get(str(action.get("type")))
        if chance is not None and chance.field not in action:
            action[chance.field] = rng.choice(chance.values)
        state, _ = state.apply(action)
        actions.append(action)
    assert state.is_over
    return actions


def record_game(journal: Journal, game: str, players: list[str], seed: int,
                actions: list[dict[str, Any]] | None = None, *, finish: bool = True) -> int:
    """Write a game into ``journal`` as the box does (the end in the last action's row); with
    ``finish=False`` only its first half, then ended from the game menu (abandoned)."""
    actions = random_game_actions(game, players, seed) if actions is None else actions
    game_id = journal.start_game(Header(game, tuple(players), {}, seed))
    kept = actions if finish else actions[: len(actions) // 2]
    for n, action in enumerate(kept, 1):
        journal.append(game_id, action, over=finish and n == len(kept))
    if not finish:
        journal.set_status(game_id, "abandoned")
    return game_id


def journal_at(path: Path, start: float = 1_780_000_000.0, step: float = 60.0) -> Journal:
    """A journal whose clock is right (synchronised) and moves ``step`` seconds a row."""
    now = [start]

    def clock() -> float:
        now[0] += step
        return now[0]

    return Journal(path, clock)
