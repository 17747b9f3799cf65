"""``spielleiter replay FILE|-``: one JSON game document in, the final public state out."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..text import bad_char
from .common import EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE, emit, say

EPILOG = """\
The document: {"game": ..., "players": [...], "seed": N, "options": {...}, "actions": [...]}.
Exit status: 0 the whole game replayed; 1 an illegal action (stderr names its index and the
reason, stdout holds the state before it); 2 the document is unusable (not UTF-8, not JSON,
an unknown game, bad fields), with one line on stderr and nothing on stdout.
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="replay a JSON game document, print the final state",
                       description="Replay a JSON game document through the game's engine and "
                                   "print the final public state as JSON.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="FILE", help="the document, or - for standard input")
    p.set_defaults(func=run)


def read_document(name: str) -> str:
    """The document's text; OSError, or UnicodeError for bytes that are not UTF-8."""
    if name != "-":
        return Path(name).read_text(encoding="utf-8")
    raw = getattr(sys.stdin, "buffer", None)
    if raw is not None:  # decode ourselves: the locale may let stdin smuggle bytes through
        return raw.read().decode("utf-8")
    text = sys.stdin.read()  # a stream without bytes (a test's StringIO)
    if bad_char(text):
        raise UnicodeError(f"not UTF-8 text ({bad_char(text)})")
    return text


def run(args: argparse.Namespace) -> int:
    from ..replay import ReplayError, run as replay

    try:
        text = read_document(args.file)
    except (OSError, UnicodeError) as exc:
        say("replay", f"cannot read {args.file}: {exc}")
        return EXIT_UNUSABLE
    try:
        state, error = replay(text)
    except ReplayError as exc:
        say("replay", str(exc))
        return EXIT_UNUSABLE
    out = json.dumps(state, indent=2, ensure_ascii=False)
    if bad_char(out):  # the parser refuses such text; printing must never be what fails
        say("replay", f"the final state is not valid Unicode text ({bad_char(out)})")
        return EXIT_UNUSABLE
    emit(out)
    if error:
        say("replay", error)
        return EXIT_PROBLEMS
    return EXIT_OK
