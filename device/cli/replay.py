"""``spielleiter replay FILE|-``: one JSON game document in, the final public state out."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..exc import DeviceError
from ..text import bad_char
from .common import EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE, emit, say

# The largest document read: a long game's document is a few hundred KB; a replay holds about
# fifteen times its size in memory, which a Pi Zero 2 W (512 MB) must still have to spare.
MAX_BYTES = 4 * 1024 * 1024

EPILOG = """\
The document: {"game": ..., "players": [...], "seed": N, "options": {...}, "actions": [...]},
at most 4 MiB (a long game's document is a few hundred KB).
Exit status: 0 the whole game replayed; 1 an illegal action (stderr names its index and the
reason, stdout holds the state before it); 2 the document is unusable (not UTF-8, not JSON,
larger than 4 MiB, an unknown game, bad fields), with one line on stderr and nothing on stdout.
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="replay a JSON game document, print the final state",
                       description="Replay a JSON game document through the game's engine and "
                                   "print the final public state as JSON.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="FILE", help="the document, or - for standard input")
    p.set_defaults(func=run)


class TooLarge(DeviceError, ValueError):
    """A document over ``MAX_BYTES``."""


def read_document(name: str, most: int = MAX_BYTES) -> str:
    """The document's text; OSError, UnicodeError for bytes that are not UTF-8, TooLarge for
    more than ``most`` bytes (never read further than one byte past it)."""
    if name != "-":
        with open(Path(name), "rb") as fh:
            return _decoded(fh.read(most + 1), most)
    raw = getattr(sys.stdin, "buffer", None)
    if raw is not None:  # decode ourselves: the locale may let stdin smuggle bytes through
        return _decoded(raw.read(most + 1), most)
    text = sys.stdin.read(most + 1)  # a stream without bytes (a test's StringIO)
    if len(text) > most:
        raise TooLarge(f"larger than {most // (1024 * 1024)} MiB")
    if bad_char(text):
        raise UnicodeError(f"not UTF-8 text ({bad_char(text)})")
    return text


def _decoded(data: bytes, most: int) -> str:
    if len(data) > most:
        raise TooLarge(f"larger than {most // (1024 * 1024)} MiB")
    return data.decode("utf-8")


def run(args: argparse.Namespace) -> int:
    from ..replay import ReplayError, run as replay

    try:
        text = read_document(args.file)
    except (OSError, UnicodeError, TooLarge) as exc:
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
