"""``spielleiter games list|show|export|correct``: the box's past games, on a laptop.

Reads the journal of the state directory (the box's, or with ``--sim`` the simulator's) through a
read-only connection, beside the running box, and never writes it, except ``correct``, which adds
a correction row (the original action stays). Games are listed newest first by the journal's
order; a date the box's clock did not know is "date unknown". ``export`` prints a replay document
(``games export ID | spielleiter replay -`` gives the final state) with a board-game logger's
fields under ``play`` (docs/past-games.md), or CSV with one row per action.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import unicodedata
from datetime import datetime
from pathlib import Path
from typing import Any

from .. import DeviceError
from ..i18n import _
from .common import EXIT_OK, EXIT_PROBLEMS, add_config, add_lang, emit, say, speak

EPILOG = """\
Exit status: 0 done (also when there is no game yet), 1 no such game, a refused correction or a
journal that cannot be read, 2 bad usage. Steps (STEP) count a game's actions from 1, as the
box's screens, games show --actions, the CSV export and every refusal number them.
"""


def register(sub: argparse._SubParsersAction) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--sim", action="store_true", help="the simulator's games")
    common.add_argument("--state-dir", type=Path, default=None, metavar="DIR",
                        help="the journal's directory (default: /var/lib/spielleiter; with "
                             "--sim the simulator's)")
    add_config(common, "the box's config.toml, for its name ([fleet] name or box_id)")
    common.add_argument("--location", default=None, metavar="NAME",
                        help="the box's name as the export's location (over the config)")
    add_lang(common, _("the lines' language"), settings=False)
    p = sub.add_parser("games", help="the past games: list, show, export, correct",
                       description="Every ended game in the journal: list them, show one, export "
                                   "them for a board-game logger, correct one after the game.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    games = p.add_subparsers(dest="games_command", required=True, metavar="ACTION")
    ls = games.add_parser("list", parents=[common], help="ended games, newest first",
                          epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ls.add_argument("--since", default=None, metavar="DATE", type=_date,
                    help="only games on or after DATE (2026-11-30; local time)")
    ls.add_argument("--player", default=None, metavar="NAME", help="only games NAME played")
    ls.add_argument("--game", default=None, metavar="NAME",
                    help="only this game (its name or title, e.g. bunte-runde)")
    ls.add_argument("--json", action="store_true", help="the records as JSON")
    ls.set_defaults(func=run_list)
    show = games.add_parser("show", parents=[common], help="one game: result and corrections",
                            epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    show.add_argument("game_id", type=_game_id, metavar="ID", help="the game's number (games list)")
    show.add_argument("--actions", action="store_true",
                      help="also every action, numbered as steps from 1")
    show.set_defaults(func=run_show)
    export = games.add_parser("export", parents=[common],
                              help="a game (or all) as JSON for replay and loggers, or CSV",
                              epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    which = export.add_mutually_exclusive_group(required=True)
    which.add_argument("game_id", type=_game_id, nargs="?", metavar="ID",
                       help="the game's number (games list)")
    which.add_argument("--all", action="store_true", help="every ended game, oldest first")
    export.add_argument("--format", choices=("json", "csv"), default="json",
                        help="json: a replay document with the logger's fields (default); "
                             "csv: one row per action")
    export.set_defaults(func=run_export)
    fix = games.add_parser("correct", parents=[common],
                           help="correct one action of a finished game",
                           description="Correct an action of a finished game (a mistyped die, "
                                       "a wrong weighing). The journal keeps the original; the "
                                       "correction is a new row and the result is replayed.",
                           epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    fix.add_argument("game_id", type=_game_id, metavar="ID", help="the game's number (games list)")
    fix.add_argument("seq", type=_step_number, metavar="STEP",
                     help="the step's number, from 1 (as the box and games show number it)")
    how = fix.add_mutually_exclusive_group(required=True)
    how.add_argument("--set", action="append", metavar="KEY=VALUE", dest="changes",
                     help="change one field of the action (VALUE as JSON, else text); repeat "
                          "for more, e.g. --set value=5")
    how.add_argument("--action", default=None, metavar="JSON", help="the whole action as JSON")
    how.add_argument("--remove", action="store_true", help="the action should not have happened")
    fix.add_argument("--why", required=True, metavar="TEXT", help="why it is corrected")
    fix.set_defaults(func=run_correct)


# -- opening -------------------------------------------------------------------------------------
def journal_path(args: argparse.Namespace) -> Path:
    from ..config.paths import JOURNAL_NAME, find_state_dir, sim_state_dir

    state_dir = (sim_state_dir(args.state_dir, os.environ) if args.sim
                 else find_state_dir(args.state_dir, os.environ))
    return state_dir / JOURNAL_NAME


def location(args: argparse.Namespace) -> str | None:
    """The box's name: ``--location``, else the config's ``[fleet] name`` or ``box_id``."""
    if args.location:
        return str(args.location)
    from ..config.core import ConfigError
    from ..config.paths import find_config, read_config

    try:
        fleet = read_config(find_config(args.config, os.environ)).get("fleet", {})
    except (ConfigError, OSError):
        return None
    if not isinstance(fleet, dict):
        return None
    name = fleet.get("name") or fleet.get("box_id")
    return name if isinstance(name, str) and name else None


def reading(args: argparse.Namespace, command: str = "games") -> Any:
    """PastGames over a read-only connection (None: there is no journal yet)."""
    from ..past.games import PastGames, open_read_only

    path = journal_path(args)
    if not path.is_file():
        say(command, f"no journal in {path.parent} yet (the box's own: /var/lib/spielleiter; "
                     "--sim for the simulator's, --state-dir DIR for another)")
        return None
    return PastGames(open_read_only(path), box_name=location(args))


# -- showing -------------------------------------------------------------------------------------
def when(iso: str | None) -> str:
    """An ISO 8601 time in this computer's local time, or "date unknown"."""
    if not iso:
        return _("date unknown")
    return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")


def duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    minutes = int(round(seconds / 60))
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d} min"


def _game_id(text: str) -> int:
    """A game's number as the command line gives it: a whole number SQLite can hold (beyond
    it, no game has it: bad usage, said plainly, never a traceback)."""
    from ..past.names import SQLITE_MAX

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a game's number: {text!r}") from None
    if not 1 <= value <= SQLITE_MAX:
        raise argparse.ArgumentTypeError(f"no game has the number {text} (1 to {SQLITE_MAX})")
    return value


def _step_number(text: str) -> int:
    """A step's number, from 1 as the box counts them."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a step's number: {text!r}") from None
    if not 1 <= value <= 10**9:
        raise argparse.ArgumentTypeError(f"steps are counted from 1: {text}")
    return value


def _date(text: str) -> str:
    """``--since``'s DATE, checked as the command line is read (a bad one is bad usage: 2)."""
    from ..past.filters import since

    try:
        since(text)
    except DeviceError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def printable(text: str) -> str:
    """``text`` as a terminal may print it: control and format characters (an ANSI escape, a
    right-to-left override) shown as ``\\uXXXX``, never acted on."""
    text = str(text)
    if text.isprintable():  # the usual line, checked in C
        return text
    return "".join(f"\\u{ord(ch):04x}" if unicodedata.category(ch) in ("Cc", "Cf", "Cs")
                   else ch for ch in str(text))


def score(value: Any) -> str:
    return "-" if value is None else str(value)


def run_list(args: argparse.Namespace) -> int:
    speak(args.lang, args.config)
    past = reading(args)
    records = [] if past is None else past.list(args.since, args.player, args.game)
    for problem in [] if past is None else past.problems:
        say("games", problem)
    if args.json:
        emit(json.dumps([r.to_json() for r in records], indent=2, ensure_ascii=False))
        return EXIT_OK
    if not records:
        emit(_("no ended game yet") if args.since is None and args.player is None
             and args.game is None else _("no game matches"))
        return EXIT_OK
    emit(f"{_('id'):>4}  {_('when'):16}  {_('game'):22}  {_('players'):24}  {_('result')}")
    for r in records:
        won = ", ".join(r.winners) or (_("abandoned") if r.status == "abandoned" else
                                       _("damaged") if r.status == "damaged" else _("no one"))
        mark = ("  " + _("(corrected)") if r.corrected else
                "  " + _("(result re-checked)") if r.rechecked else "")
        emit(printable(f"{r.game_id:>4}  {when(r.started or r.ended):16}  {r.title[:22]:22}  "
                       f"{', '.join(r.players)[:24]:24}  {won}{mark}"))
    return EXIT_OK


def run_show(args: argparse.Namespace) -> int:
    from ..past.records import game_time

    speak(args.lang, args.config)
    past = reading(args)
    if past is None:
        say("games", f"no game {args.game_id} (no journal at {journal_path(args)})")
        return EXIT_PROBLEMS
    record = past.record(args.game_id)
    if args.actions and record.status == "running":
        say("games", still_running(args.game_id))
        return EXIT_PROBLEMS
    for line in describe(record):
        emit(printable(line))
    if args.actions:
        emit(_("Steps (number, time, action; * corrected):"))
        for step in past.steps(args.game_id):
            at = when(game_time(step.at))
            emit(f"  {step.seq + 1:>4}{'*' if step.corrected else ' '} {at:16}  "
                 f"{printable(json.dumps(step.action, ensure_ascii=False))}")
    return EXIT_OK


def still_running(game_id: int) -> str:
    """Why a game in play is not exported: its actions hold what the table may not see yet
    (secret choices, hidden grams)."""
    return (f"game {game_id} is still being played: its actions are shown once it has ended "
            "(they hold what the table may not see yet)")


def describe(record: Any) -> list[str]:
    """``games show``: one game, in lines."""
    status = {"over": _("over"), "abandoned": _("abandoned"), "damaged": _("damaged"),
              "running": _("running")}.get(record.status, record.status)
    lines = [_("Game {id}: {title} ({status})").format(id=record.game_id, title=record.title,
                                                       status=status),
             _("When: {when}, {took}").format(when=when(record.started),
                                              took=duration(record.duration_s))]
    if record.box_name:
        lines.append(_("Where: {name}").format(name=record.box_name))
    lines.append(_("Players in seat order: {players}").format(players=", ".join(
        f"{i} {p}" for i, p in enumerate(record.players, 1))))
    if record.status == "abandoned":  # stopped before its end: a ranking would be made up
        scored = ", ".join(f"{s.player} {score(s.score)}" for s in record.standings if s.score)
        lines.append(_("Result: none, the game was abandoned (scores when it stopped: "
                       "{scores})").format(scores=scored) if scored else
                     _("Result: none, the game was abandoned"))
    else:
        lines.append(_("Result:"))
        for s in record.standings:
            lines.append(f"  {s.rank}. {s.player:12} {score(s.score):>8}"
                         f"{'  ' + _('won') if s.winner else ''}")
    if record.error:
        lines.append(_("Not replayed to its end: {why}").format(why=record.error))
    if record.corrected:  # what changed stays in the record's own words (English, as kept)
        changed = not (record.changes and record.changes[-1] == "result unchanged")
        lines.append(_("Corrected after the game: the result changed") if changed else
                     _("Corrected after the game (the result is unchanged)"))
        lines.extend(f"  {line}" for line in record.changes if line != "result unchanged")
    if record.rechecked:
        lines.append(_("Result re-checked: newer rules give this result"))
    lines.append(_("Actions: {n}").format(n=record.actions))
    return lines


def run_export(args: argparse.Namespace) -> int:
    from ..past.export import CSV_COLUMNS, csv_rows, document, write_all

    past = reading(args)
    if past is None:
        if args.all:
            emit(json.dumps({"export": 1, "location": location(args), "games": []})
                 if args.format == "json" else ",".join(CSV_COLUMNS))
            return EXIT_OK
        say("games", f"no game {args.game_id} (no journal at {journal_path(args)})")
        return EXIT_PROBLEMS
    if not args.all and past.record(args.game_id).status == "running":
        say("games", still_running(args.game_id))
        return EXIT_PROBLEMS
    if args.format == "json":
        if args.all:  # game by game: memory stays flat however many games there are
            write_all(past, sys.stdout)
            sys.stdout.flush()
        else:
            emit(json.dumps(document(past, args.game_id), indent=2, ensure_ascii=False))
        return EXIT_OK
    ids = past.ids() if args.all else [args.game_id]
    writer = csv.DictWriter(sys.stdout, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(csv_rows(past, ids))
    sys.stdout.flush()
    return EXIT_OK


# -- correcting ----------------------------------------------------------------------------------
def parse_set(changes: list[str]) -> dict[str, Any]:
    from ..text import InputError, loads

    fields: dict[str, Any] = {}
    for change in changes:
        key, sep, value = change.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--set {change!r}: KEY=VALUE")
        try:
            fields[key.strip()] = loads(value, "the value")
        except InputError:
            fields[key.strip()] = value
    return fields


def run_correct(args: argparse.Namespace) -> int:
    from ..journal.store import Journal, JournalError
    from ..past.games import PastGames
    from ..text import InputError, loads

    speak(args.lang, args.config)
    path = journal_path(args)
    if not path.is_file():
        say("games", f"no game {args.game_id} (no journal at {path})")
        return EXIT_PROBLEMS
    try:
        journal_file = Journal(path, memory_fallback=False)
    except (OSError, JournalError) as exc:
        say("games", f"cannot write {path}: {exc}")
        return EXIT_PROBLEMS
    with journal_file as journal:
        past = PastGames(journal, box_name=location(args))
        try:
            if args.remove:
                action = None
            elif args.action is not None:
                action = loads(args.action, "--action")
            else:
                action = {**_step(past, args).action, **parse_set(args.changes)}
            past.correct(args.game_id, args.seq - 1, action, args.why)
        except InputError as exc:
            say("games", str(exc))
            return EXIT_PROBLEMS
        for line in describe(past.record(args.game_id)):
            emit(printable(line))
    return EXIT_OK


def _step(past: Any, args: argparse.Namespace) -> Any:
    """Step STEP (from 1) as the game has it now (InputError when there is none, or it was
    removed)."""
    from ..text import InputError

    for step in past.steps(args.game_id):
        if step.seq == args.seq - 1:
            return step
    if any(c.seq == args.seq - 1 for c in past.corrections(args.game_id)):
        raise InputError(f"step {args.seq} was removed by a correction; use --action")
    raise InputError(_("The game has no step {n}.").format(n=args.seq))


__all__ = ["describe", "register"]
