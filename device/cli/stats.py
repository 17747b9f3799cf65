"""``spielleiter stats [--csv]``: the family's statistics, on a laptop.

Per player: finished games, wins (per game too), last played, best streak, and the learning
station's answers and how many were right, one place per child (``device.family_stats``). Per
game: how often, how long typically, who wins most. Reads the journal read-only, never writes it.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from .common import EXIT_OK, emit


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("stats", help="the family's statistics: players and games",
                       description="Per player: games, wins per game, last played, best streak "
                                   "and learning answers; per game: plays, typical duration, "
                                   "who wins most. Only finished games count.",
                       epilog="Exit status: 0 done (also when there is nothing yet), 1 the "
                              "journal cannot be read.")
    p.add_argument("--csv", action="store_true", help="CSV for a spreadsheet (one row per "
                                                      "player, player and game, and game)")
    p.add_argument("--sim", action="store_true", help="the simulator's statistics")
    p.add_argument("--state-dir", type=Path, default=None, metavar="DIR",
                   help="the journal's directory (default: /var/lib/spielleiter; with --sim "
                        "the simulator's)")
    p.set_defaults(func=run, config=None, location=None)


def run(args: argparse.Namespace) -> int:
    from ..family_stats import COLUMNS, FamilyStats
    from ...games import GAMES
    from .games import duration, reading, when

    past = reading(args, "stats")
    stats = FamilyStats.build(past.list(), past.learning()) if past is not None else \
        FamilyStats([], [])
    if args.csv:
        writer = csv.DictWriter(sys.stdout, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(stats.rows())
        sys.stdout.flush()
        return EXIT_OK
    if not stats.players:
        emit("no finished game and no answer yet")
        return EXIT_OK
    emit(f"{'player':12} {'games':>5} {'wins':>4} {'best streak':>11}  {'last played':16} "
         f"{'answers':>7} {'right':>5}")
    for p in stats.players:
        last = when(p.last_played) if p.last_played else ("date unknown" if p.games else "-")
        emit(f"{p.name:12} {p.games:>5} {p.wins:>4} {p.best_streak:>11}  {last:16} "
             f"{p.answers:>7} {p.right:>5}")
        if p.played:
            emit("  wins per game: " + ", ".join(
                f"{_title(GAMES, g)} {p.won.get(g, 0)} of {n}" for g, n in p.played.items()))
    if stats.games:
        emit("")
        emit(f"{'game':22} {'plays':>5} {'typical':>10}  most wins")
    for g in stats.games:
        top = f"{', '.join(g.most_wins)} ({g.most_wins_count})" if g.most_wins else "nobody"
        emit(f"{g.title[:22]:22} {g.plays:>5} {duration(g.typical_s):>10}  {top}")
    return EXIT_OK


def _title(games: dict, name: str) -> str:
    info = games.get(name)
    return info.title if info is not None else name
