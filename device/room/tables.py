"""The room's tables, and which of their rows the page shows: a box's current stream, and
nothing a later undo or forget took back (whatever order the messages arrived in)."""

from __future__ import annotations

DDL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS boxes (
    box TEXT PRIMARY KEY, stream TEXT, status TEXT, status_at REAL, state TEXT,
    state_n INTEGER NOT NULL DEFAULT -1, heard REAL
);
CREATE TABLE IF NOT EXISTS streams (
    box TEXT NOT NULL, stream TEXT NOT NULL, first_heard REAL NOT NULL,
    have INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (box, stream)
);
CREATE TABLE IF NOT EXISTS messages (
    box TEXT NOT NULL, stream TEXT NOT NULL, n INTEGER NOT NULL, topic TEXT NOT NULL,
    kind TEXT NOT NULL, payload TEXT NOT NULL, received REAL NOT NULL,
    PRIMARY KEY (box, stream, n)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS actions (
    box TEXT NOT NULL, stream TEXT NOT NULL, n INTEGER NOT NULL, journal INTEGER NOT NULL,
    game_id INTEGER NOT NULL, seq INTEGER NOT NULL, game TEXT, at REAL, received REAL,
    action TEXT NOT NULL, events TEXT NOT NULL, PRIMARY KEY (box, stream, n)
);
CREATE INDEX IF NOT EXISTS actions_game ON actions (box, stream, journal, game_id, seq);
CREATE TABLE IF NOT EXISTS undos (
    box TEXT NOT NULL, stream TEXT NOT NULL, n INTEGER NOT NULL, journal INTEGER NOT NULL,
    game_id INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (box, stream, n)
);
CREATE INDEX IF NOT EXISTS undos_game ON undos (box, stream, journal, game_id, seq);
CREATE TABLE IF NOT EXISTS starts (
    box TEXT NOT NULL, stream TEXT NOT NULL, n INTEGER NOT NULL, journal INTEGER NOT NULL,
    game_id INTEGER NOT NULL, game TEXT, title TEXT, players TEXT, at REAL,
    PRIMARY KEY (box, stream, n)
);
CREATE TABLE IF NOT EXISTS records (
    box TEXT NOT NULL, stream TEXT NOT NULL, n INTEGER NOT NULL, journal INTEGER NOT NULL,
    game_id INTEGER NOT NULL, record TEXT NOT NULL, PRIMARY KEY (box, stream, n)
);
CREATE TABLE IF NOT EXISTS answers (
    box TEXT NOT NULL, stream TEXT NOT NULL, n INTEGER NOT NULL, journal INTEGER NOT NULL,
    id INTEGER NOT NULL, at REAL NOT NULL, child TEXT NOT NULL, child_key TEXT NOT NULL,
    quiz TEXT NOT NULL, level INTEGER NOT NULL, truth_g REAL, guess TEXT, error REAL,
    correct INTEGER NOT NULL, retry INTEGER NOT NULL, PRIMARY KEY (box, stream, n)
);
CREATE INDEX IF NOT EXISTS answers_child ON answers (child_key, quiz, at);
CREATE TABLE IF NOT EXISTS forgets (
    box TEXT NOT NULL, stream TEXT NOT NULL, n INTEGER NOT NULL, journal INTEGER NOT NULL,
    id INTEGER NOT NULL, PRIMARY KEY (box, stream, n, id)
);
"""

# The visible rows: the box's current stream, and nothing a later undo or forget took back.
CURRENT = "JOIN boxes b ON b.box = {t}.box AND b.stream = {t}.stream"
VISIBLE_ACTION = (CURRENT.format(t="a") + " WHERE NOT EXISTS (SELECT 1 FROM undos u WHERE "
                  "u.box = a.box AND u.stream = a.stream AND u.journal = a.journal AND "
                  "u.game_id = a.game_id AND u.seq = a.seq AND u.n > a.n)")
VISIBLE_ANSWER = (CURRENT.format(t="a") + " WHERE NOT EXISTS (SELECT 1 FROM forgets f WHERE "
                  "f.box = a.box AND f.stream = a.stream AND f.journal = a.journal AND "
                  "f.id = a.id AND f.n > a.n)")


__all__ = ["CURRENT", "DDL", "VISIBLE_ACTION", "VISIBLE_ANSWER"]
