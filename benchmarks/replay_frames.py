"""Benchmark: opening a past game's replay on the box (``ui.replay_pages.Replay.build``).

    python benchmarks/replay_frames.py [--repeat 5]

For each game, a seeded random game as long as the family's longest (the longest of 20 seeds),
then, each in the same run: the engine replay alone (``replay``: the baseline, what a record
costs) and the replay's frames (the engine replay plus each action's pages through the game's
referee over a quiet table, the end and the standings), the median of ``--repeat`` runs. The
frames are built once when a replay opens; OK and BACK then only index them.

Figures go to stdout; exit status 0 (a report).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from spielleiter.device.journal.header import Header
from spielleiter.device.modes import GAME_MODES
from spielleiter.device.replay import replay, start
from spielleiter.device.modes.past.steps import Replay
from spielleiter.games import GAMES, complete

PLAYERS = ("Mia", "Jonas", "Oma", "Papa")


def random_game(game: str, seed: int) -> tuple[Header, list[dict]]:
    info = GAMES[game]
    players = PLAYERS[: min(info.max_players, 4)]
    rng = random.Random(seed)
    header = Header(game, players, {}, seed)
    state, actions = start(header), []
    while not state.is_over:
        action = complete(info, rng.choice(state.legal_actions(rng.choice(state.waiting_for()))),
                          rng)
        chance = info.chance.get(str(action.get("type")))
        if chance is not None and chance.field not in action:
            action[chance.field] = rng.choice(chance.values)
        state, _ = state.apply(action)
        actions.append(action)
    return header, actions


def timed(run, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{'game':24} {'actions':>7} {'frames':>6} {'engine ms':>10} {'frames ms':>10}")
    for game in sorted(GAME_MODES):
        header, actions = max((random_game(game, seed) for seed in range(20)),
                              key=lambda ha: len(ha[1]))
        engine = timed(lambda: replay(start(header), actions), args.repeat)
        frames = timed(lambda: Replay.build(header, actions), args.repeat)
        count = len(Replay.build(header, actions).frames)
        print(f"{game:24} {len(actions):7} {count:6} {engine:10.1f} {frames:10.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
