"""``spielleiter history [--child NAME] [--csv]``: the learning station's answers, on a laptop.

Reads the journal database of the state directory (the box's, or with ``--sim`` the
simulator's); never writes it. CSV has the columns of ``device.history.COLUMNS`` (times in ISO
8601, UTC; empty when the time is not known: the box's clock was not synchronised then); without
``--csv`` a table to read ("unknown" for such a time), with each child's levels below it.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from pathlib import Path

from .common import EXIT_OK, EXIT_PROBLEMS, emit, say


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("history", help="the learning station's answers, child by child",
                       description="Every answer at the learning station: who, which quiz, the "
                                   "level, the truth, the guess, how far off, and when.",
                       epilog="Exit status: 0 done (also when there is nothing yet), 1 no such "
                              "child or the journal cannot be read.")
    p.add_argument("--child", default=None, metavar="NAME", help="only this child's answers")
    p.add_argument("--csv", action="store_true", help="CSV for a spreadsheet")
    p.add_argument("--sim", action="store_true", help="the simulator's history")
    p.add_argument("--state-dir", type=Path, default=None, metavar="DIR",
                   help="the journal's directory (default: /var/lib/spielleiter; with --sim "
                        "the simulator's)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..journal.learning import COLUMNS, History
    from ..journal.roster import identity
    from ..journal.store import Journal
    from ..config.paths import JOURNAL_NAME, find_state_dir, sim_state_dir

    state_dir = (sim_state_dir(args.state_dir, os.environ) if args.sim
                 else find_state_dir(args.state_dir, os.environ))
    path = state_dir / JOURNAL_NAME
    records = []
    if path.is_file():
        with Journal(path, memory_fallback=False) as journal:
            history = History(journal)
            records = history.records(args.child)
            children = history.children()
            levels = {name: history.levels(name) for name in children
                      if args.child is None or identity(name) == identity(args.child)}
    else:
        children, levels = [], {}
    if args.child is not None and not records and \
            identity(args.child) not in (identity(c) for c in children):
        say("history", f"no answers from {args.child}")
        return EXIT_PROBLEMS
    if args.csv:
        writer = csv.DictWriter(sys.stdout, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for record in records:
            writer.writerow(record.row())
        sys.stdout.flush()
        return EXIT_OK
    if not records:
        emit("no answers yet")
        return EXIT_OK
    emit(f"{'time':25} {'child':12} {'quiz':8} {'lv':>2} {'truth_g':>8} {'guess':>8} "
         f"{'error':>7}  ok")
    for record in records:
        a = record.attempt
        mark = "yes" if a.correct else "no"
        emit(f"{record.iso_time() or 'unknown':25} {record.child:12} {a.quiz:8} {a.level:>2} "
             f"{a.truth_g:>8.1f} {a.guess:>8} {a.error:>7g}  {mark}{' (again)' if a.retry else ''}")
    for name, shown in levels.items():
        emit(f"{name}: levels " + ", ".join(f"{quiz} {level}" for quiz, level in shown.items()))
    return EXIT_OK
