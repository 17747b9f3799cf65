"""The room's database: every box's messages kept once, and what the page shows built from them.

``ingest`` takes one MQTT message as it arrives. Stream messages (events, learning, games) are
kept in ``messages`` by (box, stream, n): a message sent twice (the uplink's outbox after a power
cut, QoS 1 after a reconnect) is kept once. What the page reads (actions, answers, records) is
built from them so that order does not matter either: an undo hides the action it names only
when it came later on the box (a higher ``n``), whatever order the two arrived in; a ``forget``
hides the answers it names the same way.

Nothing is stored before it passes the door (``schema``: size, then shape): what fails is
counted per box, logged with its reason (a box's first refusal, its 10th, 100th ...) and dropped
alone, leaving no trace (not even its number: the real message with that number is still taken).
A box's current stream is the one first heard last: a new stream means the uplink lost
its own state and published the whole journal again, so only the newest stream is shown.

Someone else speaking for a box (an anonymous broker) is held to what the box's stream has come
to: a number far past it (``JUMP``) is refused, a new stream of a known box must start near 1,
a retained state belongs to the box's current stream, and a finished game's record names the
box of its topic.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable

from .. import fleet
from . import schema
from .tables import DDL

log = logging.getLogger(__name__)

Rejected = schema.Refused  # a message the room cannot use (the reason is logged and counted)
JUMP = 100_000  # how far past a stream's highest number a message may be (see ``_check_jump``)
MAX_BOXES = 256  # a room shows at most this many boxes (a class has 30): names invented by a
STRANGERS = "*"  # stranger are refused beyond it, and their refusals counted under "*"


def _int(doc: dict[str, Any], key: str, low: int = 0) -> int:
    value = doc.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < low or value >= 2**62:
        raise Rejected(f"{key}: {value!r}")
    return value


def _number(value: Any, key: str, *, none: bool = True) -> float | None:
    if value is None and none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value \
            or abs(value) > 1e15:
        raise Rejected(f"{key}: {value!r}")
    return float(value)


def _text(value: Any, key: str, limit: int = 200) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise Rejected(f"{key}: not a short text")
    return value


class Store:
    """The room's SQLite file; ``ingest`` from the collector's thread, reads from the page's."""

    def __init__(self, path: Path | str, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.clock = clock
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.lock = threading.Lock()  # one connection, shared by the collector and the page
        self.rejected = 0
        self.refused: dict[str, int] = {}  # by box: messages refused at the door
        self._touched: set[tuple[str, str]] = set()
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            for statement in DDL.split(";"):
                if statement.strip():
                    self.db.execute(statement)
            self.db.execute("COMMIT")

    # -- taking messages in ----------------------------------------------------------------------
    def ingest_many(self, messages: list[tuple[str, bytes]]) -> int:
        """Keep a batch of (topic, payload) in one transaction; returns how many were new."""
        received = self.clock()
        new = 0
        self._touched = set()
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                for topic, payload in messages:
                    new += self._ingest(topic, payload, received)
                for box, stream in self._touched:
                    self._advance(box, stream)
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
        return new

    def changed_streams(self) -> set[tuple[str, str]]:
        """The (box, stream) pairs the last ``ingest_many`` touched: their ``have`` is due."""
        return set(self._touched)

    def have(self, box: str | None = None) -> dict[tuple[str, str], int]:
        """(box, stream) -> every message up to this ``n`` is kept (the ``have`` answer)."""
        sql, args = "SELECT box, stream, have FROM streams", ()  # type: tuple[str, tuple[str, ...]]
        if box is not None:
            sql, args = sql + " WHERE box = ?", (box,)
        with self.lock:
            return {(b, s): n for b, s, n in self.db.execute(sql, args)}

    def _advance(self, box: str, stream: str) -> None:
        """Move the stream's ``have`` over every message now kept without a gap."""
        (have,) = self.db.execute("SELECT have FROM streams WHERE box=? AND stream=?",
                                  (box, stream)).fetchone()
        while True:
            rows = self.db.execute("SELECT n FROM messages WHERE box=? AND stream=? AND n>? "
                                   "ORDER BY n LIMIT 500", (box, stream, have)).fetchall()
            moved = have
            for (n,) in rows:
                if n != moved + 1:
                    break
                moved = n
            if moved == have:
                break
            have = moved
        self.db.execute("UPDATE streams SET have=? WHERE box=? AND stream=?",
                        (have, box, stream))

    def ingest(self, topic: str, payload: bytes) -> int:
        return self.ingest_many([(topic, payload)])

    def _ingest(self, topic: str, payload: bytes, received: float) -> int:
        where = fleet.parse_topic(topic)
        if where is None or where[1] == fleet.HAVE:
            return 0  # not one of the boxes' topics: not ours to judge
        box, name = where
        try:
            if name == fleet.STATUS:
                if len(payload) > schema.LIMITS[fleet.STATUS]:
                    raise Rejected(f"status of {len(payload)} bytes")
                return self._status(box, payload.decode("utf-8").strip(), received)
            doc = schema.parse(name, payload)
            text = payload.decode("utf-8")
            if name == fleet.STATE:
                schema.state(doc, box)
                return self._state(box, doc, text, received)
            schema.envelope(doc, box)
            return self._stream(box, name, doc, text, received)
        except (Rejected, UnicodeDecodeError) as exc:
            self._refuse(box, topic, str(exc))
            return 0

    def _refuse(self, box: str, topic: str, why: str) -> None:
        """Count a message refused at the door; the log hears of a box's first refusal with its
        reason, and again at the 10th, 100th ... (a box sending nonsense cannot fill the log)."""
        self.rejected += 1
        if self._current(box) is None and not self._known(box):
            box = STRANGERS  # counted together: invented box names cannot fill the memory
        count = self.refused[box] = self.refused.get(box, 0) + 1
        if str(count).rstrip("0") == "1":  # 1, 10, 100, ...
            log.warning("box %s: message on %s refused (%d so far): %s", box, topic, count,
                        why[:200])

    def _known(self, box: str) -> bool:
        return self.db.execute("SELECT 1 FROM boxes WHERE box = ?", (box,)).fetchone() is not None

    def _heard(self, box: str, received: float) -> None:
        if self.db.execute("UPDATE boxes SET heard = ? WHERE box = ?",
                           (received, box)).rowcount:
            return
        (count,) = self.db.execute("SELECT COUNT(*) FROM boxes").fetchone()
        if count >= MAX_BOXES:
            raise Rejected(f"a box more than the {MAX_BOXES} this room shows")
        self.db.execute("INSERT INTO boxes (box, heard) VALUES (?, ?)", (box, received))

    def _status(self, box: str, text: str, received: float) -> int:
        if text not in (fleet.ONLINE, fleet.OFFLINE):
            raise Rejected(f"status {text[:20]!r}")
        self._heard(box, received)
        self.db.execute("UPDATE boxes SET status = ?, status_at = ? WHERE box = ?",
                        (text, received, box))
        return 1

    def _current(self, box: str) -> str | None:
        row = self.db.execute("SELECT stream FROM boxes WHERE box = ?", (box,)).fetchone()
        return None if row is None else row[0]

    def _top(self, box: str, stream: str) -> int | None:
        """The highest ``n`` kept of the stream (None: none yet)."""
        return self.db.execute("SELECT MAX(n) FROM messages WHERE box = ? AND stream = ?",
                               (box, stream)).fetchone()[0]

    def _check_jump(self, box: str, stream: str, n: int) -> None:
        """Refuse a number far past what this stream has come to (someone else speaking for the
        box), and a stream new to a box the room knows unless it starts near 1 (a real uplink
        that lost its state starts again at 1)."""
        top = self._top(box, stream)
        if top is not None:
            if n > top + JUMP:
                raise Rejected(f"n {n} jumps past {top} of stream {stream}")
            return
        current = self._current(box)
        if current is not None and current != stream and n > JUMP:
            raise Rejected(f"a new stream {stream} starting at n {n}")

    def _state(self, box: str, doc: dict[str, Any], text: str, received: float) -> int:
        """The box's live state: the latest heard of its current stream wins (a state never
        makes another stream the box's current one, except for a box not heard of before)."""
        n, stream = doc["n"], doc["stream"]
        current = self._current(box)
        if current is not None and stream != current:
            raise Rejected(f"a state of stream {stream}, not the box's {current}")
        top = self._top(box, stream) or 0
        if n > top + JUMP:
            raise Rejected(f"a state at n {n}, far past {top} of stream {stream}")
        self._heard(box, received)
        if current is None:
            self._stream_seen(box, stream, received)
        self.db.execute("UPDATE boxes SET state = ?, state_n = ? WHERE box = ?",
                        (text, n, box))
        return 1

    def _stream(self, box: str, name: str, doc: dict[str, Any], text: str,
                received: float) -> int:
        stream, n, journal, kind = doc["stream"], doc["n"], doc["journal"], doc["kind"]
        self._check_jump(box, stream, n)
        schema.body(name, doc)
        # A message is kept whole or not at all: one refused (by its body, or by what its
        # projection finds) leaves no trace, not even its number, so the real message with
        # that number is still taken when it comes.
        self.db.execute("SAVEPOINT message")
        try:
            self._heard(box, received)
            self._stream_seen(box, stream, received)
            cur = self.db.execute("INSERT OR IGNORE INTO messages VALUES (?, ?, ?, ?, ?, ?, ?)",
                                  (box, stream, n, name, kind, text, received))
            if cur.rowcount:
                getattr(self, f"_{name}_{kind}")((box, stream, n, journal), doc, received)
        except Rejected:
            self.db.execute("ROLLBACK TO message")
            raise
        finally:
            self.db.execute("RELEASE message")
        return 1 if cur.rowcount else 0  # 0: a duplicate

    def _stream_seen(self, box: str, stream: str, received: float) -> None:
        """A stream first heard now becomes the box's current one (see the module doc); either
        way its ``have`` is due, so an uplink that sent into the void sends again."""
        if self.db.execute("INSERT OR IGNORE INTO streams (box, stream, first_heard) "
                           "VALUES (?, ?, ?)", (box, stream, received)).rowcount:
            self.db.execute("UPDATE boxes SET stream = ?, state_n = -1 WHERE box = ?",
                            (stream, box))
        self._touched.add((box, stream))

    def _events_start(self, key: tuple, doc: dict[str, Any], received: float) -> None:
        players = doc.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise Rejected("players")
        self.db.execute("INSERT INTO starts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (*key, _int(doc, "game_id", 1), _text(doc.get("game"), "game"),
                         _text(doc.get("title"), "title"), json.dumps(players),
                         _number(doc.get("at"), "at")))

    def _events_action(self, key: tuple, doc: dict[str, Any], received: float) -> None:
        action, events = doc.get("action"), doc.get("events")
        if not isinstance(action, dict) or not isinstance(events, list):
            raise Rejected("action or events")
        self.db.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (*key, _int(doc, "game_id", 1), _int(doc, "seq"),
                         _text(doc.get("game"), "game"), _number(doc.get("at"), "at"), received,
                         json.dumps(action), json.dumps(events)))

    def _events_undo(self, key: tuple, doc: dict[str, Any], received: float) -> None:
        self.db.execute("INSERT INTO undos VALUES (?, ?, ?, ?, ?, ?)",
                        (*key, _int(doc, "game_id", 1), _int(doc, "seq")))

    def _events_status(self, key: tuple, doc: dict[str, Any], received: float) -> None:
        _text(doc.get("status"), "status", 20)  # kept in messages; the record says the rest

    def _events_unreadable(self, key: tuple, doc: dict[str, Any], received: float) -> None:
        log.warning("box %s: game %s could not be followed", key[0], doc.get("game_id"))

    def _games_game(self, key: tuple, doc: dict[str, Any], received: float) -> None:
        record = doc.get("record")
        if not isinstance(record, dict):
            raise Rejected("record")
        if record["box"]["id"] != key[0]:
            raise Rejected(f"a record of box {record['box']['id']!r}")
        self.db.execute("INSERT INTO records VALUES (?, ?, ?, ?, ?, ?)",
                        (*key, _int(doc, "game_id", 1), json.dumps(record)))

    def _learning_answer(self, key: tuple, doc: dict[str, Any], received: float) -> None:
        child = _text(doc.get("child"), "child", 60)
        level = _int(doc, "level", 1)
        correct, retry = doc.get("correct"), doc.get("retry")
        if not isinstance(correct, bool) or not isinstance(retry, bool):
            raise Rejected("correct/retry")
        guess = doc.get("guess")
        self.db.execute(
            "INSERT INTO answers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*key, _int(doc, "id", 1), _number(doc.get("at"), "at", none=False), child,
             child.casefold(), _text(doc.get("quiz"), "quiz", 20), level,
             _number(doc.get("truth_g"), "truth_g"), None if guess is None else
             _text(guess, "guess", 40), _number(doc.get("error"), "error"), int(correct),
             int(retry)))

    def _learning_forget(self, key: tuple, doc: dict[str, Any], received: float) -> None:
        ids = doc.get("ids")
        if not isinstance(ids, list) or not all(
                isinstance(i, int) and not isinstance(i, bool) for i in ids):
            raise Rejected("ids")
        self.db.executemany("INSERT OR IGNORE INTO forgets VALUES (?, ?, ?, ?, ?)",
                            [(*key, i) for i in ids])

    # -- reading ---------------------------------------------------------------------------------
    def reader(self) -> "Reader":
        """A connection for one page's reads (WAL: they never wait for the collector's writes);
        for a database in memory, the shared one under the lock."""
        return Reader(self)

    def close(self) -> None:
        with self.lock:
            self.db.close()


class Reader:
    """``with store.reader() as read: read(sql, args)``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.db = None if str(store.path) == ":memory:" else sqlite3.connect(str(store.path))

    def __call__(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if self.db is None:
            with self.store.lock:
                return self.store.db.execute(sql, args).fetchall()
        return self.db.execute(sql, args).fetchall()

    def __enter__(self) -> "Reader":
        return self

    def __exit__(self, *exc: object) -> None:
        if self.db is not None:
            self.db.close()


__all__ = ["Reader", "Rejected", "Store"]
