"""Benchmark: does the headless simulator grow? RSS over many commands.

    python benchmarks/sim_memory.py [--commands 22000] [--every 2000] [--quick] [--shipped-only]

Runs ``spielleiter sim --headless`` (the shipped config: two simulated pans) in a child process
and feeds it a day's worth of play in a loop: walking the home menu, starting Tatort Tonne over
the ``new`` command and choosing cards at the stations, pieces put on and taken off the pans, a
second or two idle, an undo. After every ``--every`` commands it reads the child's resident set
(``VmRSS`` in /proc) once the answer came back. The same script runs twice in the same run: as
shipped, and as a baseline with gpiozero's mock-pin history left to grow (``trim_pin_history``
replaced by nothing: what the simulator did before). The slope is a least-squares fit over the
second half (the first commands still load code and fill caches).

Prints the figures; exit status 0 either way (it is a report).
"""

from __future__ import annotations

import argparse
import itertools
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASELINE = ("import spielleiter.device.cli.headless as h\n"
            "h.trim_pin_history = lambda factory: None\n")
RUN = ("import sys\nfrom spielleiter.device.cli import main\n"
       "raise SystemExit(main(['sim', '--headless', '--state-dir', sys.argv[1]]))\n")
ROUND = [
    "tap host.next", "tap host.next", "tap host.back",
    "new tatort-tonne Ann Bob Cy trash=5",
    "tap s1.A", "tap s2.B", "tap s3.A", "idle 2", "show",
    "put left 12.3", "idle 1", "put right 50", "idle 1", "put left -12.3", "put right -50",
    "keys u", "tap s1.B", "tap host.back", "tap host.back", "show",
]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def measure(commands: int, every: int, baseline: bool) -> list[tuple[int, float]]:
    with tempfile.TemporaryDirectory(prefix="spielleiter-rss-") as state:
        code = (BASELINE if baseline else "") + RUN
        child = subprocess.Popen([sys.executable, "-c", code, state], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                 bufsize=1)
        assert child.stdin is not None and child.stdout is not None
        child.stdout.readline()  # the start report
        points = [(0, rss_mb(child.pid))]
        for n, command in enumerate(itertools.islice(itertools.cycle(ROUND), commands), 1):
            child.stdin.write(command + "\n")
            if not child.stdout.readline():
                raise RuntimeError(f"the simulator stopped at command {n}")
            if n % every == 0:
                points.append((n, rss_mb(child.pid)))
        child.stdin.close()
        child.wait(timeout=30)
        child.stdout.close()
    return points


def slope(points: list[tuple[int, float]]) -> float:
    """MB per 1,000 commands over the second half."""
    half = points[len(points) // 2:]
    if len(half) < 2:
        return 0.0
    xs, ys = [p[0] for p in half], [p[1] for p in half]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return 1000 * sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=22_000)
    parser.add_argument("--every", type=int, default=2_000)
    parser.add_argument("--quick", action="store_true", help="4,000 commands")
    parser.add_argument("--shipped-only", action="store_true",
                        help="only as shipped (no baseline run): half the time")
    args = parser.parse_args()
    commands = 4_000 if args.quick else args.commands
    every = min(args.every, max(1, commands // 4))
    results = {}
    runs = (("as shipped", False), ("pin history kept (before)", True))
    for label, baseline in runs[:1] if args.shipped_only else runs:
        started = time.perf_counter()
        results[label] = measure(commands, every, baseline)
        print(f"{label}: {commands} commands in {time.perf_counter() - started:.0f} s",
              flush=True)
    print(f"\n{'commands':>9} " + " ".join(f"{label:>26}" for label in results))
    for row in zip(*results.values()):
        print(f"{row[0][0]:9d} " + " ".join(f"{mb:23.1f} MB" for _, mb in row))
    print(f"{'MB/1000':>9} " + " ".join(f"{slope(p):26.3f}" for p in results.values()))
    for label, points in results.items():
        half = points[len(points) // 2:]
        print(f"{label}: the second half ({half[0][0]} -> {half[-1][0]} commands) grew "
              f"{half[-1][1] - half[0][1]:+.2f} MB (target: under 1 MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
