"""Corrections after the game: a row each in the journal database, beside the actions they correct.

The journal's actions are never rewritten: a correction is a new row (``corrections``) naming the
game, the sequence number of the action it corrects, that action as the journal held it, the
action as it should have been (NULL: the action should not have happened) and why. A game's
effective actions are its journal actions with the newest correction of each applied
(``apply``); the result is their replay. A correction whose action is no longer in the journal
as it was (the game was undone on the box and played on) corrects nothing, and neither do the
corrections of a step whose newest one puts it back as it was played. Rows are ordered by
their id, never by time; each keeps its time stamp (``timebase.Stamp``) to show.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..journal.schema import add_columns
from .records import GameRecord
from ..journal.sql import transaction
from ..text import InputError, check, loads

log = logging.getLogger(__name__)

DDL = """CREATE TABLE IF NOT EXISTS corrections (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT,
    original TEXT,
    why TEXT NOT NULL,
    at REAL NOT NULL,
    boot INTEGER,
    mono REAL
)"""
INDEX = "CREATE INDEX IF NOT EXISTS corrections_game ON corrections (game_id, id)"
MAX_WHY = 200      # a few words, one line of a screen's worth after wrapping
MAX_ACTION = 4096  # characters of JSON: an action is a handful of fields


@dataclass(frozen=True)
class Correction:
    """One correction: action ``seq`` of game ``game_id`` was ``before`` (as the journal holds it)
    and should have been ``after`` (None: it should not have happened), because ``why``. ``at``
    is its wall time, None when the clock was not known to be right."""

    id: int
    game_id: int
    seq: int
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    why: str
    at: float | None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "seq": self.seq, "before": self.before, "after": self.after,
                "why": self.why, "at": self.at}


def ensure(db: sqlite3.Connection) -> bool:
    """Create the table (and its index) if it is missing; False when the file cannot be written
    (a read-only connection: then there are simply no corrections to read until there is one)."""
    try:
        with transaction(db):
            db.execute(DDL)
            add_columns(db, "corrections", {"original": "TEXT"})  # a table of a dev build
            db.execute(INDEX)
    except Exception as exc:  # noqa: BLE001 - read-only or damaged: reading still works
        log.debug("corrections table not created: %s", exc)
        return False
    return True


def read(db: sqlite3.Connection, game_id: int, originals: Sequence[dict[str, Any] | None],
         when: Callable[[Any, Any, Any], float | None]) -> list[Correction]:
    """The game's corrections, oldest first (rows that cannot be read are left out and logged;
    none when the table does not exist yet)."""
    try:
        rows = db.execute("SELECT id, seq, action, original, why, at, boot, mono FROM "
                          "corrections WHERE game_id=? ORDER BY id", (game_id,)).fetchall()
    except sqlite3.Error:
        return []
    found = []
    for row_id, seq, text, original, why, at, boot, mono in rows:
        try:
            if not isinstance(seq, int) or seq < 0 or not isinstance(why, str):
                raise InputError("seq or why unreadable")
            after = None if text is None else loads(text, f"correction {row_id}")
            if after is not None and not isinstance(after, dict):
                raise InputError("the action is not a JSON object")
            was = loads(original, f"correction {row_id}") if isinstance(original, str) else None
        except InputError as exc:
            log.warning("correction %s of game %d left out: %s", row_id, game_id, exc)
            continue
        before = originals[seq] if seq < len(originals) else None
        if before is None or was != before:
            log.info("correction %s of game %d: action %d is no longer the one corrected",
                     row_id, game_id, seq)
            continue
        found.append(Correction(row_id, game_id, seq, before, after, why, when(boot, mono, at)))
    undone = {seq for seq, c in {c.seq: c for c in found}.items() if c.after == c.before}
    return [c for c in found if c.seq not in undone]  # put back as played: nothing corrected


def apply(originals: Sequence[dict[str, Any]], corrections: Sequence[Correction]
          ) -> list[dict[str, Any]]:
    """The effective actions: each original replaced by its newest correction (or left out when
    that says it should not have happened). A correction of an action no longer in the journal
    (an undo after it) corrects nothing."""
    newest = {c.seq: c for c in corrections}
    effective = []
    for seq, action in enumerate(originals):
        correction = newest.get(seq)
        if correction is None:
            effective.append(action)
        elif correction.after is not None:
            effective.append(correction.after)
    return effective


def effective(corrections: Sequence[Correction]) -> list[Correction]:
    """The corrections that count: the newest of each action, in action order."""
    newest = {c.seq: c for c in corrections}
    return [newest[seq] for seq in sorted(newest)]


def dump(action: dict[str, Any] | None) -> str | None:
    """An action as the table stores it; InputError for one that cannot be kept."""
    if action is None:
        return None
    if not isinstance(action, dict):
        raise InputError("an action is a JSON object")
    check(action, "the action")
    try:
        text = json.dumps(action, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise InputError(f"the action cannot be kept: {exc}") from None
    if len(text) > MAX_ACTION:
        raise InputError("the action is too long")
    return text


def add(db: sqlite3.Connection, write: Callable[[], Any], game_id: int, seq: int,
        text: str | None, original: str, why: str, stamp: Any) -> int:
    """Keep one correction of action ``seq`` (``original``: its JSON as the journal holds it;
    ``stamp``: the journal's ``Stamp`` for now); its id."""
    with write():
        cur = db.execute("INSERT INTO corrections (game_id, seq, action, original, why, at, "
                         "boot, mono) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         (game_id, seq, text, original, why, stamp.wall, stamp.boot, stamp.mono))
    assert cur.lastrowid is not None
    return cur.lastrowid


def describe(made: Sequence[Correction], original: GameRecord, now: GameRecord) -> list[str]:
    """What was corrected and why, then what that changed in the result (English lines for the
    record, the CLI and the export, steps counted from 1 as the box counts them; screens build
    their own words from the same data)."""
    lines = []
    for c in effective(made):
        what = _action_name(c.before)
        if c.after is None:
            lines.append(f"step {c.seq + 1} ({what}) removed: {c.why}")
        else:
            lines.append(f"step {c.seq + 1} ({what}) {_diff(c.before, c.after)}: {c.why}")
    if original.winners != now.winners:
        lines.append(f"winners: {', '.join(now.winners) or 'nobody'} "
                     f"(was {', '.join(original.winners) or 'nobody'})")
    was = {s.player: s.score for s in original.standings}
    for s in now.standings:
        if s.player in was and was[s.player] != s.score:
            lines.append(f"{s.player}: {s.score} (was {was[s.player]})")
    if len(lines) == len(effective(made)):
        lines.append("result unchanged")
    return lines


def _action_name(action: dict[str, Any] | None) -> str:
    if not action:
        return "?"
    return " ".join(str(action[k]) for k in ("player", "type") if k in action) or "?"


def _diff(before: dict[str, Any] | None, after: dict[str, Any]) -> str:
    before = before or {}
    parts = [f"{k} {before.get(k, '-')} -> {after.get(k, '-')}"
             for k in sorted(set(before) | set(after)) if before.get(k) != after.get(k)]
    return ", ".join(parts) or "unchanged"


__all__ = ["DDL", "MAX_WHY", "Correction", "add", "apply", "describe", "dump", "effective",
           "ensure", "read"]
