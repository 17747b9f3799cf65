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

from ..i18n import _
from .common import EXIT_OK, add_lang, emit, speak


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
    add_lang(p, _("the lines' language"), settings=False)
    p.set_defaults(func=run, config=None, location=None)


def run(args: argparse.Namespace) -> int:
    from ..past.statistics import COLUMNS, FamilyStats
    from ...games import GAMES
    from .games import duration, reading, when

    speak(args.lang)
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
        emit(_("no finished game and no answer yet"))
        return EXIT_OK
    emit(f"{_('player'):12} {_('games'):>6} {_('wins'):>6} {_('best streak'):>12}  "
         f"{_('last played'):16} {_('answers'):>9} {_('correct'):>7}")
    for p in stats.players:
        last = when(p.last_played) if p.last_played else (_("date unknown") if p.games else "-")
        emit(f"{p.name:12} {p.games:>6} {p.wins:>6} {p.best_streak:>12}  {last:16} "
             f"{p.answers:>9} {p.right:>7}")
        if p.played:
            emit("  " + _("wins per game: {wins}").format(wins=", ".join(
                _("{game} {won} of {n}").format(game=_title(GAMES, g), won=p.won.get(g, 0), n=n)
                for g, n in p.played.items())))
    if stats.games:
        emit("")
        emit(f"{_('game'):22} {_('plays'):>6} {_('typical'):>10}  {_('most wins')}")
    for g in stats.games:
        top = f"{', '.join(g.most_wins)} ({g.most_wins_count})" if g.most_wins else _("no one")
        emit(f"{g.title[:22]:22} {g.plays:>6} {duration(g.typical_s):>10}  {top}")
    return EXIT_OK


def _title(games: dict, name: str) -> str:
    info = games.get(name)
    return info.title if info is not None else name
