"""The roster: the names of the people who play at this box, kept in the journal database.

Set-up picks players from it (or guests), the learning station keeps each child's progress under
the name, and a laptop manages it with ``spielleiter players`` or over the link.
"""

from __future__ import annotations

import functools
import logging
import unicodedata
from typing import TYPE_CHECKING, Any

from ..screen import render as screens
from ..i18n import _
from .schema import add_columns
from .sql import transaction
from ..text import InputError, bad_char

if TYPE_CHECKING:
    from .store import Journal

log = logging.getLogger(__name__)

MAX_NAME = 12  # fits a 21-character line with a number beside it
# ``seq`` orders the roster (the order names were added); ``added`` is the wall clock then, kept
# but never used for order: a box without a real-time clock may jump (timebase).
DDL = ("CREATE TABLE IF NOT EXISTS roster (name TEXT PRIMARY KEY COLLATE NOCASE, added REAL, "
       "seq INTEGER)")


def clean_name(name: Any) -> str:
    """A name as the roster keeps it (NFKC, spaces folded), or InputError saying what is wrong, in
    the box's language. A name the screen could only draw as "?" is refused: two children
    shown as "????" could not tell which is theirs."""
    if not isinstance(name, str):
        raise InputError(_("a name is text"))
    bad = bad_char(name)
    if bad:
        raise InputError(_("a name may not hold {what}").format(what=bad))
    text = " ".join(unicodedata.normalize("NFKC", name).split())  # "Ｍia" is "Mia"
    if not any(ch.isalpha() for ch in text):
        raise InputError(_("a name needs a letter"))
    if len(text) > MAX_NAME:
        raise InputError(_("a name has at most {n} characters").format(n=MAX_NAME))
    if any(unicodedata.category(ch)[0] in "CZ" and ch != " " for ch in text):
        raise InputError(_("a name holds letters, digits and spaces"))
    unshown = screens.cannot_show(text)
    if unshown:
        raise InputError(_("the screen cannot show {letters}: use Latin letters").format(
            letters=unshown))
    return text


def clean_players(names: Any) -> Any:
    """The players of a game started from outside (the link's or a script's ``new``) as the
    roster keeps names ("Ｍia" is "Mia"), by its rules, as the set-up only offers such names:
    InputError names the first refused one and why, or two that the screen would show alike
    ("Anna" and "ANNA": nobody could tell which is meant). Not a list: returned as given, for
    the header's own check to refuse."""
    if not isinstance(names, (list, tuple)):
        return names
    kept: dict[str, str] = {}
    for name in names:
        try:
            text = clean_name(name)
        except InputError as exc:
            raise InputError(_("player {name}: {why}").format(name=repr(name), why=exc)) from None
        if shown(text) in kept:
            raise InputError(_("players {first} and {second} look the same on the screen").format(
                first=repr(kept[shown(text)]), second=repr(name)))
        kept[shown(text)] = text
    return list(kept.values())


def shown(name: str) -> str:
    """A name as the screen draws it, in one case: two names alike here are one person."""
    return "".join(screens.drawn_as(ch) for ch in name).lower()  # not casefold: ß is not ss


@functools.lru_cache(maxsize=4096)  # a family's few names, asked for once per game and player
def identity(name: Any) -> str:
    """The one form two spellings of the same person share, wherever names are counted or
    filtered (statistics, the learning history, the CLI): spaces folded, NFKC, ``shown``."""
    return shown(" ".join(unicodedata.normalize("NFKC", str(name)).split()))


class Roster:
    """Names in the order they were added (a sequence, not the clock); case does not make two
    people."""

    def __init__(self, journal: "Journal") -> None:
        self.journal = journal
        try:
            with transaction(journal.db):
                journal.db.execute(DDL)
                if add_columns(journal.db, "roster", {"seq": "INTEGER"}):
                    # a roster from release 0.1.0: rowids are the order of insertion
                    journal.db.execute("UPDATE roster SET seq = (SELECT COUNT(*) FROM roster r "
                                       "WHERE r.rowid <= roster.rowid)")
        except Exception as exc:  # a read-only or damaged file: the roster is just empty
            log.error("roster unavailable: %s", exc)

    def names(self) -> list[str]:
        try:
            rows = self.journal.db.execute("SELECT name FROM roster ORDER BY seq, rowid")
            return [str(name) for (name,) in rows if isinstance(name, str)]
        except Exception as exc:
            log.error("roster unreadable: %s", exc)
            return []

    def add(self, name: Any) -> str:
        """Add a player; returns the name as kept. InputError for a bad or known name."""
        text = clean_name(name)
        known = [n for n in self.names() if shown(n) == shown(text)]
        if known:  # the same on the screen is the same child there
            raise InputError(_("{name} is already on the roster").format(name=known[0]))
        with self.journal.write():  # JournalError when it cannot be saved
            self.journal.db.execute(
                "INSERT INTO roster (name, added, seq) SELECT ?, ?, COALESCE(MAX(seq), 0) + 1 "
                "FROM roster", (text, self.journal.clock()))
        return text

    def remove(self, name: Any) -> str:
        """Remove a player (their games and history stay); InputError for an unknown name."""
        text = clean_name(name)
        known = [n for n in self.names() if shown(n) == shown(text)]
        if not known:
            raise InputError(_("{name} is not on the roster").format(name=text))
        with self.journal.write():
            self.journal.db.execute("DELETE FROM roster WHERE name=?", (known[0],))
        return known[0]
