"""The results of ended games, kept so the list of past games is not a replay of every game.

A record is the replay of a game's actions through its engine (``records.GameRecord.build``),
and the engines copy their state at every action: a family's 200 games took 2.5 s to list on a
laptop, which a Pi Zero 2 W would make ten times longer. An ended game without corrections never
changes, so its result (players, standings, winners, the replay's error, how many actions) is
kept in ``record_cache`` under a key that names everything it was derived from: the engines'
source (``snapshots.engines_digest``), the header's and every action's text. Any change there
(an undo, other rules, a damaged row) gives another key and the game is replayed again; a row
that cannot be read is a miss. A game that ends on the box has its result kept in the
transaction of its last action (``final_entry``, ``keep_result``: under a savepoint, so it can
never cost the action); older games are kept the first time they are listed. The journal's
actions stay the truth; this table only saves time, and deleting it loses nothing. Dates are never kept here: they come from the time base,
which may put them right later.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
from typing import Any, Callable, Sequence

from ..journal.kept import DDL, keep_result
from ..journal.sql import transaction
from .records import GameRecord, Standing
from ..journal.snapshots import engines_digest

log = logging.getLogger(__name__)



def key(header_text: Any, action_texts: Sequence[Any]) -> str:
    """What a game's result is derived from, as one digest."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(engines_digest().encode() + b"\0")
    for text in (header_text, *action_texts):
        digest.update(repr(text).encode("utf-8", "surrogateescape") + b"\0")
    return digest.hexdigest()


def ensure(db: sqlite3.Connection) -> bool:
    """Create the table if it is missing; False when the file cannot be written."""
    try:
        with transaction(db):
            db.execute(DDL)
    except Exception as exc:  # noqa: BLE001 - read-only or damaged: every game is replayed
        log.debug("record cache not created: %s", exc)
        return False
    return True


def load(db: sqlite3.Connection) -> dict[int, tuple[str, str]]:
    """Every kept (key, result text) by game id; none when there is no table."""
    try:
        return {row[0]: (row[1], row[2]) for row in db.execute(
            "SELECT game_id, key, result FROM record_cache")}
    except sqlite3.Error:
        return {}


def save(db: sqlite3.Connection, write: Callable[[], Any],
         entries: dict[int, tuple[str, str]]) -> None:
    """Keep ``entries`` (game id: key, result text) in one transaction; a failure only logs."""
    if not entries:
        return
    try:
        with write():
            db.executemany("INSERT OR REPLACE INTO record_cache VALUES (?, ?, ?)",
                           [(game_id, k, text) for game_id, (k, text) in entries.items()])
    except Exception as exc:  # noqa: BLE001 - a cache that cannot be written costs only time
        log.warning("record cache not written: %s", exc)


def final_entry(game_id: int, header: Any, actions: Sequence[dict[str, Any]],
                state: Any) -> tuple[str, str] | None:
    """(key, result) of a game that ends with ``actions`` in ``state``, for the journal to keep
    in the transaction of its last action (``Journal.append(kept=...)``), so not even the first
    listing replays it. Keyed by the texts the journal writes (``json.dumps`` of the header and
    of each action): were they ever written otherwise, the key would not match and the game
    would be replayed, nothing worse. None (logged) when it cannot be made."""
    try:
        record = GameRecord.from_state(game_id, header, state, len(actions), status="over")
        return (key(json.dumps(header.to_json()), [json.dumps(a) for a in actions]),
                result(record))
    except Exception as exc:  # noqa: BLE001 - a result not kept costs a replay, never a game
        log.warning("result of game %d not kept: %s", game_id, exc)
        return None


def result(record: GameRecord) -> str:
    """The part of a record that replay derives, as the cache keeps it."""
    return json.dumps({"players": list(record.players), "actions": record.actions,
                       "standings": [[s.rank, s.player, s.seat, s.score, s.winner]
                                     for s in record.standings],
                       "winners": list(record.winners), "error": record.error},
                      separators=(",", ":"))


def restore(text: str) -> dict[str, Any] | None:
    """The fields ``result`` kept, for ``GameRecord``; None when the text is not one."""
    try:
        doc = json.loads(text)
        standings = tuple(Standing(int(r), str(p), int(seat), score, bool(w))
                          for r, p, seat, score, w in doc["standings"])
        fields = {"players": tuple(str(p) for p in doc["players"]),
                  "actions": int(doc["actions"]), "standings": standings,
                  "winners": tuple(str(w) for w in doc["winners"]), "error": doc["error"]}
    except (ValueError, TypeError, KeyError, RecursionError):
        return None
    if fields["error"] is not None and not isinstance(fields["error"], str):
        return None
    return fields


__all__ = ["DDL", "ensure", "final_entry", "keep_result", "key", "load", "restore", "result",
           "save"]
