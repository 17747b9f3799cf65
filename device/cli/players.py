"""``spielleiter players list|add NAME|remove NAME``: the roster, managed from a laptop.

The roster lives in the journal database of the state directory (the box's, or with ``--sim`` the
simulator's), the same one the box reads at set-up. A running box offers the same over the serial
link (the ``players`` command, docs/link.md).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ..i18n import _
from .common import EXIT_OK, EXIT_PROBLEMS, add_lang, emit, say, speak


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("players", help="list, add or remove the names on the roster",
                       description="The roster of players the box offers at set-up.",
                       epilog="While the box runs, the serial link's players command does "
                              "the same (docs/link.md). Exit status: 0 done, 1 refused (a bad or "
                              "unknown name), 2 bad usage.")
    p.add_argument("action", choices=("list", "add", "remove"), help="what to do")
    p.add_argument("name", nargs="?", default=None, help="the player's name (add, remove)")
    p.add_argument("--sim", action="store_true", help="the simulator's roster")
    p.add_argument("--state-dir", type=Path, default=None, metavar="DIR",
                   help="the journal's directory (default: /var/lib/spielleiter; with --sim "
                        "the simulator's)")
    add_lang(p, _("the lines' language"), settings=False)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..journal.store import Journal, JournalError
    from ..config.paths import JOURNAL_NAME, find_state_dir, sim_state_dir
    from ..journal.roster import Roster
    from ..text import InputError

    speak(args.lang)  # the roster's refusals are the box's own words, in its language
    if args.action != "list" and not args.name:
        say("players", _("{action} needs a NAME").format(action=args.action))
        return 2
    state_dir = (sim_state_dir(args.state_dir, os.environ) if args.sim
                 else find_state_dir(args.state_dir, os.environ))
    if args.action == "list" and not (state_dir / JOURNAL_NAME).exists():
        say("players", _("nobody on the roster in {dir} yet").format(dir=state_dir))  # none made
        return EXIT_OK
    try:
        if args.action != "list":
            state_dir.mkdir(parents=True, exist_ok=True)
        journal_file = Journal(state_dir / JOURNAL_NAME, memory_fallback=False)
    except (OSError, JournalError) as exc:
        hint = "" if args.sim or args.state_dir else " (on a laptop: add --sim; on the box: sudo)"
        say("players", f"cannot use {state_dir}: {getattr(exc, 'strerror', None) or exc}{hint}")
        return EXIT_PROBLEMS
    with journal_file as journal:
        roster = Roster(journal)
        try:
            if args.action == "add":
                emit(_("added {name}").format(name=roster.add(args.name)))
            elif args.action == "remove":
                emit(_("removed {name}").format(name=roster.remove(args.name)))
            else:
                names = roster.names()
                for name in names:
                    emit(name)
                if not names:
                    say("players", _("nobody on the roster in {dir} yet").format(dir=state_dir))
        except InputError as exc:
            say("players", str(exc))
            return EXIT_PROBLEMS
    return EXIT_OK
