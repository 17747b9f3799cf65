"""Benchmark: the journal with a 50,000-action game: start-up, resume, undo, and a game's end.

    python benchmarks/journal.py [--actions 50000] [--dir DIR]

Builds one Currency Torraku game of ``--actions`` legal actions (a bag of 999 of each piece;
random play that mostly drops a piece, which changes nothing, so the game goes on), written
the way the session writes it: one row per action, a snapshot every ``snapshots.EVERY``. It is
bulk-inserted (50,000 single commits with fsync would only measure the disk) and checkpointed,
as a box leaves it after an idle minute. Then, each in the same run:

- start-up: ``Journal()`` (the sidecar and log checks, ``quick_check``) and ``Session.resume``,
  with the snapshots (now) and with the snapshots deleted (the release before them, which
  replayed every action);
- undo: the median of 5 undos, with and without snapshots;
- a game's end: the checkpoint and the backup (``VACUUM INTO``) that follow it, on this
  journal and on a family's journal (200 finished games of 150 actions, 30,000 in all);
- after a power cut: the log holding 500 unsaved actions, read and checked at start.

Figures go to stdout; exit status 0 (a report). ``--dir`` keeps the files (default: a temporary
directory, on the disk of ``$TMPDIR``: put it on the card to measure the card).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from spielleiter.device.journal import wal as journal_wal, snapshots
from spielleiter.device.journal.header import Header
from spielleiter.device.journal.store import Journal
from spielleiter.device.replay import start
from spielleiter.device.session import Session
from spielleiter.games import GAMES, complete

NAME = "journal.sqlite3"
BAG = {"truck": 999, "washing_machine": 999, "rice_cooker": 999}
HEADER = Header("currency-torraku", ("Ann", "Bob", "Cy"), {"bag": BAG, "long": True}, 1)


def long_game(count: int, header: Header = HEADER, seed: int = 1, drop: float = 0.9
              ) -> tuple[list[dict], dict[int, tuple]]:
    """``count`` legal actions and the snapshot rows the session would have written."""
    rng = random.Random(seed)
    info = GAMES[header.game]
    state, actions, rows = start(header), [], {}
    while len(actions) < count and not state.is_over:
        legal = state.legal_actions(rng.choice(state.waiting_for()))
        drops = [a for a in legal if a["type"] == "drop"]
        action = complete(info, rng.choice(drops) if drops and rng.random() < drop
                          else rng.choice(legal), rng)
        state, _ = state.apply(action)
        actions.append(action)
        if snapshots.due(len(actions)):
            rows[len(actions)] = snapshots.encode(state, len(actions))
    return actions, rows


def write(journal: Journal, header: Header, actions: list[dict], rows: dict[int, tuple],
          status: str = "running") -> int:
    game = journal.start_game(header)
    db = journal.db
    at = journal.stamp()
    with journal.write():
        db.executemany("INSERT INTO actions (game_id, seq, action, at, boot, mono) "
                       "VALUES (?, ?, ?, ?, ?, ?)",
                       [(game, n, json.dumps(a), at.wall, at.boot, at.mono)
                        for n, a in enumerate(actions)])
        db.executemany("INSERT INTO snapshots VALUES (?, ?, ?, ?, ?)",
                       [(game, *row) for row in rows.values()])
        db.execute("UPDATE games SET status=? WHERE id=?", (status, game))
    return game


def timed(fn, repeat: int = 1) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def start_up(path: Path) -> tuple[float, float, int]:
    """(open s, resume s, actions) of the journal at ``path``."""
    opened, journal = timed(lambda: Journal(path))
    resumed, session = timed(lambda: Session.resume(journal))
    n = len(session.actions)
    journal.close()
    return opened, resumed, n


def undo_median(path: Path, times: int = 5) -> float:
    with Journal(path) as journal:
        session = Session.resume(journal)
        spent = []
        for _ in range(times):
            started = time.perf_counter()
            session.undo()
            spent.append(time.perf_counter() - started)
    return statistics.median(spent)


def game_end(path: Path) -> tuple[dict[str, float], int]:
    """A whole game played to its end on the journal at ``path``, one commit per action as at
    the table: what the checkpoint and the backup after it took, and the log's size before."""
    header = Header("currency-torraku", ("Ann", "Bob", "Cy"), {}, 5)
    with Journal(path) as journal:
        session = Session.new(journal, header)
        for action in long_game(10_000, header, seed=5, drop=0.0)[0]:
            wal = (path.with_name(NAME + "-wal")).stat().st_size
            session.apply(action)
        assert session.state.is_over
        return dict(journal.care.last_maintenance), wal


def family(path: Path, games: int = 200, per_game: int = 150) -> None:
    """A family's journal: ``games`` finished games of ``per_game`` actions."""
    with Journal(path) as journal:
        for n in range(games):
            header = Header("currency-torraku", ("Ann", "Bob", "Cy"), {"bag": BAG}, n)
            actions, rows = long_game(per_game, header, seed=n, drop=0.5)
            write(journal, header, actions, rows, status="over")
        journal.care.checkpoint()


def power_cut(base: Path, count: int) -> tuple[float, int, float, int]:
    """Open time of a journal whose log holds ``count`` unsaved actions (copied mid-game), the
    log's size, and the time and frames of reading the log itself (``journal_wal``)."""
    live = base / "live"
    live.mkdir()
    journal = Journal(live / NAME)
    session = Session.new(journal, HEADER)
    for action in long_game(count)[0]:
        session.apply(action)
    cut = base / "cut"
    shutil.copytree(live, cut)
    wal = (cut / f"{NAME}-wal").stat().st_size
    journal.close()
    scanned, scan = timed(lambda: journal_wal.scan_wal(cut / f"{NAME}-wal"))
    opened, _ = timed(lambda: Journal(cut / NAME).close())
    return opened, wal, scanned, scan.frames if scan else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=50_000)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    base = args.dir or Path(tempfile.mkdtemp(prefix="spielleiter-bench-"))
    base.mkdir(parents=True, exist_ok=True)
    now, before = base / "snapshots", base / "replay"
    for folder in (now, before):
        folder.mkdir()
    print(f"building a {args.actions}-action game in {base} ...", flush=True)
    actions, rows = long_game(args.actions)
    with Journal(now / NAME) as journal:
        write(journal, HEADER, actions, rows)
        journal.care.checkpoint()
    shutil.copy(now / NAME, before / NAME)
    with Journal(before / NAME) as journal:  # the release before snapshots: replay it all
        with journal.write():
            journal.db.execute("DELETE FROM snapshots")
        journal.care.checkpoint()
    size = (now / NAME).stat().st_size

    print(f"\n{len(actions)} actions, journal {size / 1e6:.1f} MB "
          f"(snapshot every {snapshots.EVERY})")
    print(f"{'':34} {'snapshots':>12} {'replay all':>12}")
    o1, r1, n1 = start_up(now / NAME)
    o2, r2, n2 = start_up(before / NAME)
    assert n1 == n2 == len(actions)
    print(f"{'start-up: open (checks)':34} {o1 * 1e3:9.0f} ms {o2 * 1e3:9.0f} ms")
    print(f"{'start-up: resume the game':34} {r1 * 1e3:9.0f} ms {r2 * 1e3:9.0f} ms")
    print(f"{'start-up: total':34} {(o1 + r1) * 1e3:9.0f} ms {(o2 + r2) * 1e3:9.0f} ms")
    u1, u2 = undo_median(now / NAME), undo_median(before / NAME)
    print(f"{'undo (median of 5)':34} {u1 * 1e3:9.1f} ms {u2 * 1e3:9.1f} ms")

    print("\na game played to its end (one commit per action), then its checkpoint and backup:")
    (base / "family").mkdir()
    family(base / "family" / NAME)
    for label, path in (("this journal", before / NAME),
                        ("a family's: 200 games, 30,000 actions", base / "family" / NAME)):
        end, wal = game_end(path)
        size = path.stat().st_size
        print(f"  {label} ({size / 1e6:.1f} MB, log {wal / 1e6:.2f} MB): checkpoint "
              f"{end['checkpoint_s'] * 1e3:.1f} ms, backup {end['backup_s'] * 1e3:.0f} ms, "
              f"together {(end['checkpoint_s'] + end['backup_s']) * 1e3:.0f} ms")
    (base / "cut").mkdir()
    for count in (100, 400):
        folder = base / f"cut-{count}"
        folder.mkdir()
        opened, wal, scanned, frames = power_cut(folder, count)
        print(f"start-up after a power cut, {count} actions only in the log ({wal / 1e6:.1f} MB,"
              f" {frames} frames): {opened * 1e3:.0f} ms, of which reading the log "
              f"{scanned * 1e3:.0f} ms")
    if args.dir is None:
        shutil.rmtree(base)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
