"""Benchmark: does a box grow while its table plays and looks back? RSS (and, with --trace,
tracemalloc's Python heap) over rounds of play with Past games and Statistics opened each round.

    python benchmarks/past_memory.py [--rounds 600] [--trace]

In one process (the box as the headless simulator builds it, pans left out): each round is the
headless simulator's round of ``sim_memory.py`` (the home menu, a Tatort Tonne game started with
``new`` and played at the stations, idle seconds, an undo; its ``put`` lines left out), then the
Past games screen opened and paged three times, then Statistics opened, counted and closed. The
journal grows by a game a round, so the screens read more every round. Six points; the second
half's growth is the figure (target: under 1 MB). ``--trace`` also prints tracemalloc's top
growth between a third and the end (slower: every allocation is traced).
"""

from __future__ import annotations

import argparse
import gc
import io
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from sim_memory import ROUND  # noqa: E402
from support import build_box  # noqa: E402

from spielleiter.device.cli.headless import Headless  # noqa: E402
from spielleiter.device.modes.past.listing import PastGamesMode  # noqa: E402
from spielleiter.device.modes.statistics.pages import StatsMode  # noqa: E402


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=600)
    parser.add_argument("--trace", action="store_true")
    args = parser.parse_args()
    box = build_box(Path(tempfile.mkdtemp(prefix="past-memory-")) / "state", pans=False)
    out = io.StringIO()
    script = Headless(box, out)
    if args.trace:
        tracemalloc.start(6)
    started, points, snaps = time.perf_counter(), [], {}
    every = max(1, args.rounds // 6)
    commands = [c for c in ROUND if not c.startswith("put")]
    for n in range(1, args.rounds + 1):
        for command in commands:
            script.line(command)
        out.seek(0)
        out.truncate()
        past = PastGamesMode(box.app)
        for _ in range(3):
            past.on_host("next")
            past.view()
        past.close()
        stats = StatsMode(box.app)
        box.runtime.pump()
        stats.view()
        stats.close()
        if n % every == 0:
            gc.collect()
            traced = tracemalloc.get_traced_memory()[0] / 1e6 if args.trace else None
            points.append((n, rss_mb(), traced))
            print(f"{n:5d} rounds ({n * len(commands)} commands): RSS {points[-1][1]:.2f} MB"
                  + (f", Python heap {traced:.2f} MB" if traced is not None else "")
                  + f" ({time.perf_counter() - started:.0f} s)", flush=True)
            if args.trace and n in (every * 2, every * 6):
                snaps[n] = tracemalloc.take_snapshot()
    half = points[len(points) // 2:]
    print(f"second half ({half[0][0]} -> {half[-1][0]} rounds): RSS {half[-1][1] - half[0][1]:+.2f}"
          " MB (target: under 1 MB)")
    if len(snaps) == 2:
        first, last = sorted(snaps)
        for stat in snaps[last].compare_to(snaps[first], "lineno")[:6]:
            print(f"  {stat}")
    box.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
