"""The results of ended games, kept with the journal so past games, statistics and the CLI read a
row instead of replaying every game.

A record is the replay of a game's actions through its engine (``records.GameRecord.build``);
a Pi Zero 2 W replaying a club's thousands of games would keep a child waiting for a minute. So a
game's result (players, standings, winners, the replay's error, how many actions) is written
once, in the transaction of its last action (``final_entry``, ``journal.kept.keep_result``),
into ``record_cache`` with ``key``, a digest of the header's and every action's text, and
``rules``, the version of the engines that derived it (``snapshots.engines_digest``). An undo
drops the row (the game runs again); a salvage drops the rows of the games it changed.

Readers believe a row whatever its rules: new rules never make a list wait. A game without a
row (one of an earlier release, an abandoned game), or a row of other rules or another key, is
derived again off the event loop (``recheck``); when that gives another result, the row says so
(``rechecked``) and the game shows "result re-checked". Deleting the table loses nothing: the
journal's actions stay the truth. Dates are never kept here: they come from the time base,
which may put them right later.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
from typing import Any, Callable, Sequence

from ..journal.kept import COLUMNS, DDL, INSERT, keep_result
from ..journal.schema import add_columns
from ..journal.sql import transaction
from .records import GameRecord, Standing
from ..journal.snapshots import engines_digest

log = logging.getLogger(__name__)



def rules() -> str:
    """The version of the rules a result is derived by: the engines' digest."""
    return engines_digest()


def key(header_text: Any, action_texts: Sequence[Any]) -> str:
    """What a game's result is derived from (the header's and the actions' texts), as one
    digest; the rules are kept beside it (``rules``)."""
    digest = hashlib.blake2b(digest_size=16)
    for text in (header_text, *action_texts):
        digest.update(repr(text).encode("utf-8", "surrogateescape") + b"\0")
    return digest.hexdigest()


def ensure(db: sqlite3.Connection) -> bool:
    """Create the table if it is missing; False when the file cannot be written."""
    try:
        with transaction(db):
            db.execute(DDL)
            add_columns(db, "record_cache", COLUMNS)
    except Exception as exc:  # noqa: BLE001 - read-only or damaged: every game is replayed
        log.debug("record cache not created: %s", exc)
        return False
    return True


def save(db: sqlite3.Connection, write: Callable[[], Any],
         entries: dict[int, tuple[str, str]]) -> None:
    """Keep ``entries`` (game id: key, result text) by today's rules in one transaction; a
    failure only logs."""
    if not entries:
        return
    version = rules()
    try:
        with write():
            db.executemany(INSERT, [(game_id, k, text, version, 0)
                                    for game_id, (k, text) in entries.items()])
    except Exception as exc:  # noqa: BLE001 - a cache that cannot be written costs only time
        log.warning("record cache not written: %s", exc)


def final_entry(game_id: int, header: Any, actions: Sequence[dict[str, Any]],
                state: Any) -> tuple[str, str, str] | None:
    """(key, result, rules) of a game that ends with ``actions`` in ``state``, for the journal to keep
    in the transaction of its last action (``Journal.append(kept=...)``), so not even the first
    listing replays it. Keyed by the texts the journal writes (``json.dumps`` of the header and
    of each action): were they ever written otherwise, the key would not match and the game
    would be replayed, nothing worse. None (logged) when it cannot be made."""
    try:
        record = GameRecord.from_state(game_id, header, state, len(actions), status="over")
        return (key(json.dumps(header.to_json()), [json.dumps(a) for a in actions]),
                result(record), rules())
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


__all__ = ["DDL", "ensure", "final_entry", "keep_result", "key", "restore", "result", "rules",
           "save"]
