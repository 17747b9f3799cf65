"""Benchmark: a journal of years. Past games opened and paged, cold and after a rules update,
with 20, 2,000 and 10,000 finished games; ``games list``, ``stats`` and ``games export --all``
on a laptop.

    python benchmarks/journal_years.py [--sizes 20 2000 10000] [--dir DIR] [--no-baseline]

The journals are copies of real games: ``--base`` (20) games played at random through the
engines, written as the box writes them (``past_games.build``), their results kept by
``recheck``, then copied with SQL (headers, actions, kept results) up to each size. For each:

- open: what the Past games screen does when it opens (the newest game, whether a recheck is
  needed), on a fresh connection, the median of five; page: 30 presses of NEXT (the next older
  game each), median and worst;
- after a rules update: every kept row marked as made by other rules, then the same open and
  pages while ``Rechecker`` re-derives every result in its process; meanwhile the main thread
  stands for the box's loop: it sleeps 5 ms, pages every tenth tick, and records how late each
  tick wakes, until the recheck finishes. The recheck's process is stopped and let go every
  second: the ticks of the stopped seconds are the same run's baseline (the machine's own);
- the baseline in the same run: what opening Past games did before (a replay of every game whose
  kept result does not fit: after a rules update, all of them), ``GameRecord.from_journal``;
- ``spielleiter games list``, ``stats``, ``games export --all`` as subprocesses, each size in
  turn, three rounds (the median wall time; peak RSS, ``VmHWM``, of the export against an
  export of an empty journal).

Figures go to stdout; exit status 0 (a report).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from copies import copy_games  # noqa: E402
from past_games import T0, build  # noqa: E402

from spielleiter.device.journal.store import Journal  # noqa: E402
from spielleiter.device.past.games import PastGames  # noqa: E402
from spielleiter.device.past.recheck import MARK, Rechecker, needed, recheck  # noqa: E402
from spielleiter.device.past.records import GameRecord  # noqa: E402
from spielleiter.device.past.recheck import stale  # noqa: E402
from spielleiter.device.past.results import rules  # noqa: E402


def ms_since(t: float) -> float:
    return (time.perf_counter() - t) * 1000


def open_and_page(journal: Journal, pages: int = 30) -> tuple[float, list[float]]:
    t = time.perf_counter()
    past = PastGames(journal)  # what PastGamesMode does when it opens
    (record,) = past.list(limit=1)
    needed(journal.db)
    opened = ms_since(t)
    times = []
    for _ in range(pages):
        t = time.perf_counter()
        found = past.list(limit=1, older_than=record.game_id) or past.list(limit=1)
        times.append(ms_since(t))
        record = found[0]
    return opened, times


def during_recheck(path: Path, journal: Journal) -> dict[str, float]:
    """Pages and a 5 ms loop tick while the recheck runs; its process is stopped (SIGSTOP) and
    let go again every second, so the same run holds the ticks with and without it: the
    difference is the recheck's, the rest is the machine's (other jobs share its cores)."""
    past = PastGames(journal)
    record = past.list(limit=1)[0]
    started = time.perf_counter()
    rechecker = Rechecker.start(path)
    late: dict[bool, list[float]] = {True: [], False: []}
    pages: list[float] = []
    ticks, running, switched = 0, True, time.perf_counter()
    while rechecker.running:
        if time.perf_counter() - switched >= 1.0:
            running = not running
            os.kill(rechecker.process.pid, signal.SIGCONT if running else signal.SIGSTOP)
            switched = time.perf_counter()
        t = time.perf_counter()
        time.sleep(0.005)
        late[running].append(ms_since(t) - 5.0)
        ticks += 1
        if ticks % 10 == 0:
            t = time.perf_counter()
            record = (past.list(limit=1, older_than=record.game_id) or past.list(limit=1))[0]
            pages.append(ms_since(t))
    took = time.perf_counter() - started
    left = len(stale(journal.db, rules()))
    on, off = sorted(late[True]), sorted(late[False])
    return {"recheck_s": took, "left": left,
            "tick_late_max": on[-1] if on else 0.0,
            "tick_late_p99": on[int(0.99 * (len(on) - 1))] if on else 0.0,
            "idle_max": off[-1] if off else 0.0,
            "idle_p99": off[int(0.99 * (len(off) - 1))] if off else 0.0,
            "page_max": max(pages, default=0.0),
            "page_med": statistics.median(pages) if pages else 0.0, "ticks": len(on)}


def cli(state: Path, *words: str) -> tuple[float, int, int]:
    """(wall s, peak RSS KiB, output bytes) of ``spielleiter WORDS --state-dir STATE``."""
    # VmHWM, not ru_maxrss: the latter keeps the forking parent's peak across exec
    code = ("import sys\nfrom spielleiter.device.cli import main\n"
            "rc = main(sys.argv[1:])\nsys.stdout.flush()\n"
            "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0]\n"
            "sys.stderr.write('RSS %s\\n' % hwm.split()[1])\nraise SystemExit(rc)")
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, *words, "--state-dir", str(state)],
                          capture_output=True, env={**os.environ, "SPIELLEITER_LANG": "en"})
    took = time.perf_counter() - t
    rss = int(done.stderr.decode().rsplit("RSS ", 1)[-1].split()[0])
    return took, rss, len(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 2000, 10000])
    parser.add_argument("--base", type=int, default=20)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--no-baseline", action="store_true")
    args = parser.parse_args()
    folder = args.dir or Path(tempfile.mkdtemp(prefix="journal-years-"))
    folder.mkdir(parents=True, exist_ok=True)
    base = folder / "base" / "journal.sqlite3"
    base.parent.mkdir(exist_ok=True)
    base.unlink(missing_ok=True)
    actions = build(base, args.base)
    recheck(base)
    print(f"base: {args.base} real games, {actions} actions, results kept")
    rows = {}
    for size in args.sizes:
        state = folder / f"games-{size}"
        shutil.rmtree(state, ignore_errors=True)
        state.mkdir()
        path = state / "journal.sqlite3"
        shutil.copy(base, path)
        journal = Journal(path, clock=lambda: T0 + 10**7)
        copy_games(journal.db, size)
        journal.close()
        opens = []
        for _ in range(5):  # each on a fresh connection (cold): the median of five
            journal.close()
            journal = Journal(path, clock=lambda: T0 + 10**7)
            opened, pages = open_and_page(journal)
            opens.append(opened)
        opened = statistics.median(opens)
        journal.db.execute("UPDATE record_cache SET rules='rules of an older release'")
        journal.db.execute("UPDATE meta SET value='rules of an older release' WHERE key=?",
                           (MARK,))
        opens = []
        for _ in range(5):
            journal.close()
            journal = Journal(path, clock=lambda: T0 + 10**7)
            opened_new, pages_new = open_and_page(journal)
            opens.append(opened_new)
        opened_new = statistics.median(opens)
        during = during_recheck(path, journal)
        baseline = None
        if not args.no_baseline:
            ids = [r[0] for r in journal.db.execute("SELECT id FROM games ORDER BY id")]
            t = time.perf_counter()
            for game_id in ids:
                GameRecord.from_journal(journal.db, game_id)
            baseline = ms_since(t)
        journal.close()
        rows[size] = [opened, pages, opened_new, pages_new, during, baseline]
        print(f"\n{size} games:")
        print(f"  open Past games: {opened:7.2f} ms   page: median {statistics.median(pages):.2f}"
              f" ms, worst {max(pages):.2f} ms")
        print(f"  after a rules update: open {opened_new:7.2f} ms   page: median "
              f"{statistics.median(pages_new):.2f} ms, worst {max(pages_new):.2f} ms")
        print(f"  recheck in its process: {during['recheck_s']:.1f} s, {during['left']} games "
              f"left; loop tick late: worst "
              f"{during['tick_late_max']:.1f} ms, p99 {during['tick_late_p99']:.1f} ms over "
              f"{during['ticks']} ticks (the seconds it was stopped, same run: worst "
              f"{during['idle_max']:.1f} ms, p99 {during['idle_p99']:.1f} ms); pages meanwhile: "
              f"median {during['page_med']:.2f} ms, worst {during['page_max']:.2f} ms")
        if baseline is not None:
            print(f"  baseline (a replay of every game, as opening did after a rules update): "
                  f"{baseline:9.1f} ms")
    print("\nthe CLI, each size in turn, three rounds (medians):")
    measured: dict[int, list] = {size: [] for size in rows}
    for words in (("games", "list"), ("stats",), ("games", "export", "--all")):
        for _ in range(3):
            for size in rows:
                measured[size].append((words, cli(folder / f"games-{size}", *words)))
    for size in rows:
        for words in (("games", "list"), ("stats",), ("games", "export", "--all")):
            runs = [r for w, r in measured[size] if w == words]
            rows[size].append((statistics.median(r[0] for r in runs), max(r[1] for r in runs),
                               runs[0][2]))
        listed, stats, export = rows[size][6:9]
        print(f"  {size:6d} games: games list {listed[0]:.2f} s   stats {stats[0]:.2f} s   "
              f"export --all {export[0]:.2f} s, peak RSS {export[1] / 1024:.1f} MB, "
              f"{export[2] / 1e6:.1f} MB out")
    empty = folder / "empty"
    empty.mkdir(exist_ok=True)
    Journal(empty / "journal.sqlite3").close()
    nothing = cli(empty, "games", "export", "--all")
    print(f"\nexport --all of an empty journal: peak RSS {nothing[1] / 1024:.1f} MB")
    small, large = min(rows), max(rows)
    s, l_ = rows[small], rows[large]
    print(f"\n{large} against {small} games:")
    print(f"  open: {l_[0] / s[0]:.2f}x  page median: "
          f"{statistics.median(l_[1]) / statistics.median(s[1]):.2f}x  after a rules update "
          f"open: {l_[2] / s[2]:.2f}x (target: within 2x)")
    print(f"  games list: {l_[6][0] / s[6][0]:.2f}x  stats: {l_[7][0] / s[7][0]:.2f}x "
          f"(target: within 3x)")
    print(f"  export --all peak RSS: {l_[8][1] / nothing[1]:.2f}x an empty export (target: "
          f"within 1.2x)")
    print(f"  loop tick late while the recheck ran: at most "
          f"{max(r[4]['tick_late_max'] for r in rows.values()):.1f} ms; in the seconds it was "
          f"stopped: at most {max(r[4]['idle_max'] for r in rows.values()):.1f} ms "
          f"(target: under 100 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
