"""Benchmark: past games and the family's statistics on a family's journal.

    python benchmarks/past_games.py [--games 200] [--dir DIR]

Builds a journal of ``--games`` finished games (the four games in turn, seeded random play, about
150 actions each on average), bulk-inserted in one transaction as the session's rows would be
(stamped, one boot, a synchronised clock), plus 500 learning answers. Then, each in the same run:

- ``PastGames.list(limit=10)``: the newest ten records, nothing kept yet (a screen's first page);
- ``PastGames.list()``: every ended game's record (what the box's "Past games" entry and
  ``spielleiter games list`` read): the first ever, which replays every game through its engine
  and keeps the results (``record_cache``), then later ones on the box's ``Journal`` and on a
  read-only connection, and one after a correction (that game replayed);
- ``FamilyStats.build`` over that list and the answers;
- ``PastGames.record`` of one game and its export document;
- the baseline: ``GameRecord.from_journal`` for every game (the room's record reader: no time
  base, no corrections, no cache).

Figures go to stdout; exit status 0 (a report).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from spielleiter.device.past.statistics import FamilyStats
from spielleiter.device.past.export import document
from spielleiter.device.journal.header import Header
from spielleiter.device.journal.store import Journal
from spielleiter.device.past.games import PastGames, open_read_only
from spielleiter.device.past.records import GameRecord
from spielleiter.device.replay import start
from spielleiter.games import GAMES, complete

PLAYERS = {"tatort-tonne": ("Mia", "Jonas", "Oma", "Papa"), "bunte-runde": ("Jonas", "Mia", "Papa"),
           "currency-torraku": ("Papa", "Mia", "Jonas"), "tante-trudels-troedel": ("Mia", "Oma")}
T0 = 1_800_000_000.0


def random_game(game: str, seed: int) -> tuple[Header, list[dict]]:
    rng = random.Random(seed)
    header = Header(game, PLAYERS[game], {}, seed)
    state, actions = start(header), []
    info = GAMES[game]
    while not state.is_over:
        player = rng.choice(state.waiting_for())
        action = complete(info, rng.choice(state.legal_actions(player)), rng)
        state, _events = state.apply(action)
        actions.append(action)
    return header, actions


def build(path: Path, count: int) -> int:
    """The family's journal; how many actions it holds."""
    journal = Journal(path, clock=lambda: T0)
    journal.add_note("start", {})  # registers the boot (synchronised: the test clock is right)
    boot = journal.times.boot
    db, total, at = journal.db, 0, T0
    with journal.write():
        for n in range(count):
            header, actions = random_game(sorted(PLAYERS)[n % 4], n)
            cur = db.execute("INSERT INTO games (game, header, status, started, ended, boot, mono, "
                             "synced, ended_boot, ended_mono) VALUES (?, ?, 'over', ?, ?, ?, ?, 1,"
                             " ?, ?)", (header.game, json.dumps(header.to_json()), at,
                                        at + 5 * len(actions), boot, at, boot,
                                        at + 5 * len(actions)))
            db.executemany("INSERT INTO actions (game_id, seq, action, at, boot, mono) VALUES "
                           "(?, ?, ?, ?, ?, ?)", [(cur.lastrowid, seq, json.dumps(a), at + 5 * seq,
                                                   boot, at + 5 * seq)
                                                  for seq, a in enumerate(actions)])
            at += 5 * len(actions) + 3600
            total += len(actions)
        db.execute("CREATE TABLE IF NOT EXISTS learning (id INTEGER PRIMARY KEY, at REAL NOT NULL, "
                   "child TEXT NOT NULL, quiz TEXT NOT NULL, level INTEGER NOT NULL, truth_g REAL,"
                   " guess TEXT, error REAL, correct INTEGER NOT NULL, retry INTEGER NOT NULL "
                   "DEFAULT 0, boot INTEGER, mono REAL)")
        db.executemany("INSERT INTO learning (at, child, quiz, level, truth_g, guess, error, "
                       "correct, retry, boot, mono) VALUES (?, ?, 'grams', 1, 100.0, '90', -10.0,"
                       " ?, 0, ?, ?)", [(at + i, ("Mia", "Jonas")[i % 2], i % 3 != 0, boot,
                                         at + i) for i in range(500)])
    journal.close()
    return total


def timed(fn, repeat: int = 3) -> tuple[float, object]:
    """The median of ``repeat`` runs in ms, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    folder = args.dir or Path(tempfile.mkdtemp(prefix="past-games-"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "journal.sqlite3"
    path.unlink(missing_ok=True)
    t = time.perf_counter()
    actions = build(path, args.games)
    print(f"journal: {args.games} finished games, {actions} actions, 500 answers "
          f"(built in {time.perf_counter() - t:.1f} s)")
    journal = Journal(path, clock=lambda: T0 + 10**7)
    ids = [r[0] for r in journal.db.execute("SELECT id FROM games ORDER BY id")]

    ms, _ = timed(lambda: [GameRecord.from_journal(journal.db, i) for i in ids])
    print(f"baseline GameRecord.from_journal for every game:   {ms:8.1f} ms")
    reader = open_read_only(path)  # nothing is kept through it: every listing replays
    ms, _ = timed(lambda: PastGames(reader).list(limit=10))
    print(f"the newest 10 only, nothing kept (list(limit=10)): {ms:8.1f} ms")
    ms, records = timed(lambda: PastGames(journal).list(), repeat=1)
    print(f"PastGames(journal).list(), first ever (replays):   {ms:8.1f} ms")
    ms, records = timed(lambda: PastGames(journal).list())
    print(f"PastGames(journal).list() after that (kept):       {ms:8.1f} ms")
    past = PastGames(journal)
    db = open_read_only(path)
    ms, _ = timed(lambda: PastGames(db).list())
    print(f"PastGames(read-only connection).list() (kept):     {ms:8.1f} ms")
    ms, stats = timed(lambda: FamilyStats.build(records, past.learning()))
    print(f"FamilyStats.build over them and the answers:       {ms:8.1f} ms "
          f"({len(stats.players)} players, {len(stats.games)} games)")
    ms, _ = timed(lambda: past.record(ids[-1]))
    print(f"PastGames.record of one game:                      {ms:8.1f} ms")
    ms, _ = timed(lambda: document(past, ids[-1]))
    print(f"its export document:                               {ms:8.1f} ms")
    trudel = next(r for r in records if r.game == "tante-trudels-troedel")
    steps = past.steps(trudel.game_id)
    potd = next(s for s in steps if s.action["type"] == "weigh_potd")
    past.correct(trudel.game_id, potd.seq, {**potd.action, "grams": potd.action["grams"] + 0.5},
                 "benchmark")
    ms, _ = timed(past.list)
    print(f"list() after a correction:                         {ms:8.1f} ms")
    db.close()
    journal.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
