"""``spielleiter history [--child NAME] [--csv]``: the learning station's answers, on a laptop.

Reads the journal database of the state directory (the box's, or with ``--sim`` the
simulator's); never writes it. CSV has the columns of ``device.history.COLUMNS`` (times in ISO
8601, UTC; empty when the time is not known: the box's clock was not synchronised then); without
``--csv`` a table to read in the box's language (``--lang``, else the config's ``[ui]
language``; "unknown" for such a time, grams with the language's decimal mark), with each
child's levels below it. The CSV is for programs and stays as it is in every language.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from pathlib import Path

from typing import Any

from ..i18n import _, decimal
from .common import EXIT_OK, EXIT_PROBLEMS, add_config, add_lang, emit, say, speak


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("history", help=_("the learning station's answers, child by child"),
                       description=_("Every answer at the learning station: who, which quiz, the "
                                     "level, the truth, the guess, how far off, and when."),
                       epilog=_("Exit status: 0 done (also when there is nothing yet), 1 no such "
                                "child or the journal cannot be read."))
    p.add_argument("--child", default=None, metavar="NAME", help=_("only this child's answers"))
    p.add_argument("--csv", action="store_true", help=_("CSV for a spreadsheet"))
    p.add_argument("--sim", action="store_true", help=_("the simulator's history"))
    p.add_argument("--state-dir", type=Path, default=None, metavar="DIR",
                   help=_("the journal's directory (default: /var/lib/spielleiter; with --sim "
                          "the simulator's)"))
    add_config(p, _("the config.toml whose [ui] language the lines speak"))
    add_lang(p, _("the lines' language"), settings=False)
    p.set_defaults(func=run)


def quiz_name(quiz: str) -> str:
    """A quiz as the station titles it (an unknown one by its id)."""
    from ..modes.learning.screens import quiz_title

    try:
        return quiz_title(quiz)
    except KeyError:
        return quiz


def guess_text(guess: str) -> str:
    """A side as the box says it ("left", German "links"); a number or an order as it is."""
    from ..pans.words import pan_name

    return _("the same") if guess == "same" else pan_name(guess)


def table_lines(records: list[Any], levels: dict[str, dict[str, int]]) -> list[str]:
    """The answers as a table in the current language, then each child's levels."""
    rows = [(record.iso_time() or _("unknown"), record.child, quiz_name(record.attempt.quiz),
             str(record.attempt.level), decimal(record.attempt.truth_g, 1),
             guess_text(str(record.attempt.guess)), decimal(record.attempt.error, 1),
             (_("yes") if record.attempt.correct else _("no"))
             + (_(" (again)") if record.attempt.retry else "")) for record in records]
    head = (_("time"), _("child"), _("quiz"), _("level"), _("truth g"), _("guess"),
            _("off by"), _("correct?"))
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(len(head))]
    right = {3, 4, 5, 6}  # numbers line up on the right
    out = ["  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                     for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
           for row in [head, *rows]]
    for name, shown in levels.items():
        out.append(_("{name}: levels {levels}").format(name=name, levels=", ".join(
            f"{quiz_name(quiz)} {level}" for quiz, level in shown.items())))
    return out


def run(args: argparse.Namespace) -> int:
    from ..journal.learning import COLUMNS, History
    from ..journal.roster import identity
    from ..journal.store import Journal
    from ..config.paths import JOURNAL_NAME, find_state_dir, sim_state_dir

    speak(args.lang, args.config)
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
        say("history", _("no answers from {child}").format(child=args.child))
        return EXIT_PROBLEMS
    if args.csv:
        writer = csv.DictWriter(sys.stdout, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for record in records:
            writer.writerow(record.row())
        sys.stdout.flush()
        return EXIT_OK
    if not records:
        emit(_("no answers yet"))
        return EXIT_OK
    for line in table_lines(records, levels):
        emit(line)
    return EXIT_OK
