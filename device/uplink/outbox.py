"""The uplink's own state: what it has published of the journal (the cursor) and what is still to
be delivered (the outbox), in one SQLite file of its own, never the box's journal.

The cursor and the outbox change in one transaction (``synchronous=FULL``): a power cut either
keeps both or neither, so every message is made exactly once and numbered once. A message leaves
the outbox only when the room says it keeps it (``have``, see ``fleet``), not merely when the
broker took it; until then it is sent again after every restart and after a silence, and the
room drops what it already has by (box, stream, n).

The cursor per game is the count of its actions published and a fingerprint of each, so an undo
on the box (the last action removed, perhaps another put in its place) is seen and published as
an undo; per learning answer its id and fingerprint, so answers cleared on the box are seen too.
"""

from __future__ import annotations

import json
import logging
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from .. import fleet

log = logging.getLogger(__name__)

NAME = "uplink.sqlite3"
DDL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    game_id INTEGER PRIMARY KEY, status TEXT NOT NULL, actions INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS sent_actions (
    game_id INTEGER NOT NULL, seq INTEGER NOT NULL, digest TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sent_learning (id INTEGER PRIMARY KEY, digest TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS outbox (
    n INTEGER PRIMARY KEY, topic TEXT NOT NULL, payload TEXT NOT NULL, made REAL NOT NULL
);
"""


@dataclass(frozen=True)
class Pending:
    """A message waiting for the broker's acknowledgement."""

    n: int
    topic: str
    payload: str


@dataclass(frozen=True)
class Published:
    """What the cursor says of one game."""

    status: str
    actions: int


class Outbox:
    """The uplink's state file (see the module doc) for the box ``box_id``."""

    def __init__(self, directory: Path | str, box_id: str,
                 clock: Callable[[], float] = time.time) -> None:
        self.directory = Path(directory)
        self.box_id = box_id
        self.clock = clock
        self.directory.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.directory / NAME, isolation_level=None,
                                  check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        with self.transaction():
            for statement in DDL.split(";"):
                if statement.strip():
                    self.db.execute(statement)
            if self._meta("stream") is None:  # a new state: a new stream, numbered from 1
                self._set("stream", secrets.token_hex(6))
                self._set("next_n", "1")
                self._set("journal", "1")
        self.stream = str(self._meta("stream"))
        self._last_n: int | None = None
        self._journal: int | None = None  # the journal count, kept in memory like ``_last_n``

    # -- transactions ----------------------------------------------------------------------------
    def transaction(self) -> "_Transaction":
        return _Transaction(self)

    def _meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else row[0]

    def _set(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    # -- the journal followed --------------------------------------------------------------------
    @property
    def journal(self) -> int:
        """How many journal files this box has had since the stream began (1, 2 ...; kept in
        memory: the live state asks it on every change)."""
        if self._journal is None:
            self._journal = int(self._meta("journal") or 1)
        return self._journal

    def journal_identity(self) -> str | None:
        return self._meta("journal_identity")

    def first_sent(self) -> tuple[str, int, str] | None:
        """A fingerprint of the journal as published: ("action", game id, digest) of the oldest
        game's first action, else ("answer", id, digest) of the oldest answer; None when
        nothing was published."""
        row = self.db.execute("SELECT game_id, digest FROM sent_actions WHERE seq = 0 "
                              "ORDER BY game_id LIMIT 1").fetchone()
        if row is not None:
            return ("action", row[0], row[1])
        row = self.db.execute("SELECT id, digest FROM sent_learning ORDER BY id LIMIT 1"
                              ).fetchone()
        return None if row is None else ("answer", row[0], row[1])

    def follow_journal(self, identity: str, restored: bool = False) -> bool:
        """Record the journal file being read; True when it is another journal than before (a
        journal moved aside and started anew): its games are new games, counted afresh. A file
        that is the same journal ``restored`` from its backup keeps the count and what was
        published of it (the follower then publishes only where it parts from that)."""
        known = self._meta("journal_identity")
        if known == identity:
            return False
        if known is not None and restored:
            self._set("journal_identity", identity)
            return False
        if known is not None:
            self._set("journal", str(self.journal + 1))
            self._journal = None
            for table in ("games", "sent_actions", "sent_learning"):
                self.db.execute(f"DELETE FROM {table}")
            self.db.execute("DELETE FROM meta WHERE key='corrections'")
        self._set("journal_identity", identity)
        return known is not None

    # -- corrections after the game ---------------------------------------------------------------
    def corrections_top(self) -> int:
        """The newest correction row whose game's record was published again (0: none)."""
        return int(self._meta("corrections") or 0)

    def set_corrections_top(self, top: int) -> None:
        self._set("corrections", str(top))

    # -- games -----------------------------------------------------------------------------------
    def game(self, game_id: int) -> Published | None:
        row = self.db.execute("SELECT status, actions FROM games WHERE game_id=?",
                              (game_id,)).fetchone()
        return None if row is None else Published(row[0], row[1])

    def newest_games(self, statuses: tuple[str, ...]) -> tuple[int | None, int]:
        """(the newest published game in one of ``statuses`` or None, the newest game id or 0)."""
        marks = ",".join("?" * len(statuses))
        row = self.db.execute(f"SELECT MAX(game_id) FROM games WHERE status IN ({marks})",
                              statuses).fetchone()
        top = self.db.execute("SELECT MAX(game_id) FROM games").fetchone()
        return row[0], int(top[0] or 0)

    def set_game(self, game_id: int, status: str, actions: int) -> None:
        self.db.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?)",
                        (game_id, status, actions))

    def sent_actions(self, game_id: int) -> list[str]:
        """The fingerprints of the game's published actions, by sequence number."""
        return [d for (d,) in self.db.execute(
            "SELECT digest FROM sent_actions WHERE game_id=? ORDER BY seq", (game_id,))]

    def sent_action(self, game_id: int, seq: int) -> str | None:
        row = self.db.execute("SELECT digest FROM sent_actions WHERE game_id=? AND seq=?",
                              (game_id, seq)).fetchone()
        return None if row is None else row[0]

    def add_action(self, game_id: int, seq: int, digest: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO sent_actions VALUES (?, ?, ?)",
                        (game_id, seq, digest))

    def drop_actions(self, game_id: int, from_seq: int) -> None:
        self.db.execute("DELETE FROM sent_actions WHERE game_id=? AND seq>=?",
                        (game_id, from_seq))

    # -- learning --------------------------------------------------------------------------------
    def learning_top(self) -> tuple[int, int]:
        """(highest published answer id, how many published answers are still on the box)."""
        top, count = self.db.execute("SELECT MAX(id), COUNT(*) FROM sent_learning").fetchone()
        return int(top or 0), int(count)

    def sent_learning(self) -> dict[int, str]:
        return dict(self.db.execute("SELECT id, digest FROM sent_learning"))

    def learning_digest(self, row_id: int) -> str | None:
        row = self.db.execute("SELECT digest FROM sent_learning WHERE id=?",
                              (row_id,)).fetchone()
        return None if row is None else row[0]

    def add_learning(self, row_id: int, digest: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO sent_learning VALUES (?, ?)", (row_id, digest))

    def drop_learning(self, ids: Iterable[int]) -> None:
        self.db.executemany("DELETE FROM sent_learning WHERE id=?", [(i,) for i in ids])

    # -- the outbox ------------------------------------------------------------------------------
    def put(self, name: str, body: dict[str, Any]) -> int:
        """Number a stream message, wrap it in the envelope and keep it for sending (inside a
        transaction, with the cursor change that made it). Returns its ``n``."""
        n = int(self._meta("next_n") or 1)
        self._set("next_n", str(n + 1))
        self._last_n = n
        doc = {"v": fleet.FORMAT, "box": self.box_id, "stream": self.stream, "n": n,
               "journal": self.journal, **body}
        self.db.execute("INSERT INTO outbox VALUES (?, ?, ?, ?)",
                        (n, fleet.topic(self.box_id, name), json.dumps(doc, ensure_ascii=False),
                         self.clock()))
        return n

    @property
    def last_n(self) -> int:
        """The number of the newest message made (kept in memory: asked every turn)."""
        if self._last_n is None:
            self._last_n = int(self._meta("next_n") or 1) - 1
        return self._last_n

    def pending(self, after: int = 0, limit: int = 100) -> list[Pending]:
        """Undelivered messages with ``n`` above ``after``, oldest first."""
        return [Pending(*row) for row in self.db.execute(
            "SELECT n, topic, payload FROM outbox WHERE n > ? ORDER BY n LIMIT ?",
            (after, limit))]

    @property
    def sent_mark(self) -> int:
        """The highest ``n`` ever handed to the broker, as last saved (``save_sent``)."""
        return int(self._meta("sent") or 0)

    def save_sent(self, n: int) -> None:
        """Remember that everything up to ``n`` was handed to the broker: a room's ``have``
        beyond it cannot be true. Saved now and then, so it may lag after a power cut; what
        it lags by is sent again after a restart anyway."""
        if n > self.sent_mark:
            with self.transaction():
                self._set("sent", str(n))

    def count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])

    def kept_upto(self, n: int) -> int:
        """The room keeps every message up to ``n``: they leave the outbox; how many left."""
        with self.transaction():
            return self.db.execute("DELETE FROM outbox WHERE n <= ?", (n,)).rowcount

    def delivered(self, ns: Iterable[int]) -> None:
        """The broker has these: they leave the outbox (one transaction)."""
        rows = [(n,) for n in ns]
        if rows:
            with self.transaction():
                self.db.executemany("DELETE FROM outbox WHERE n=?", rows)

    def close(self) -> None:
        db, self.db = self.db, None  # type: ignore[assignment]
        if db is not None:
            db.close()


class _Transaction:
    def __init__(self, outbox: Outbox) -> None:
        self.outbox = outbox

    def __enter__(self) -> None:
        self.outbox.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type:
            self.outbox.db.execute("ROLLBACK")
            self.outbox._last_n = None  # numbers handed out in it were never kept
            self.outbox._journal = None
        else:
            self.outbox.db.execute("COMMIT")


__all__ = ["NAME", "Outbox", "Pending", "Published"]
