"""The journal: every game's header and its accepted actions in SQLite, committed one by one.

The current state of a game is always the replay of its actions, so a power cut loses nothing that
was committed and undo is "delete the last action". WAL with ``synchronous=FULL`` makes each commit
durable before the screen shows it. A file that is not our journal (corrupt, or another program's
database, or a directory) is moved aside with a timestamp and reported, never overwritten; the
newest backup and what the bad file still holds take its place (``journal_file``). The file is
checked before every write, checkpointed and backed up (``Journal.care``). Rows are ordered by
their sequence and stamped with the boot they were written in (``timebase``): ``game_time`` and
``action_times`` give a date, or None when the clock was not known to be right.

A long game keeps a snapshot of its whole state every ``snapshots.EVERY`` actions beside the
actions (``snapshots``, the ``snapshot`` argument of ``append``), so it resumes and undoes
without replaying everything.

Nothing in the file can stop the box from starting: a game whose rows cannot be read (a header or
an action that is not JSON or not UTF-8, players missing) is set aside (status ``damaged``, kept)
and reported; an unreadable calibration row reads as "uncalibrated"; a journal that cannot be
opened or moved aside is reported and the box keeps its games in memory (``degraded``). Every
such report is a ``Notice`` in ``Journal.notices`` for the OLED, the self-test and the log.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Sequence

from .header import Header
from .care import FileCare
from .file import APP, SCHEMA, JournalError, Notice, decode, open_journal
from .sql import UNREADABLE
from .kept import forget, keep_result
from ..text import InputError, bad_char, check, loads
from .timebase import GameTime, Stamp, TimeBase, TimeSource, always_synced

__all__ = ["APP", "SCHEMA", "DamagedGame", "DamagedRow", "GameTime", "Journal", "JournalError",
           "Notice", "SavedGame", "Snapshot"]

log = logging.getLogger(__name__)


class DamagedGame(JournalError):
    """A game's rows cannot be read back (``load``); ``latest`` sets such a game aside."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id}: {reason}")
        self.game_id = game_id
        self.reason = reason


class DamagedRow(JournalError):
    """One row (a header, an action, a calibration, a note) cannot be read back."""


@dataclass(frozen=True)
class SavedGame:
    """A game as the journal holds it."""

    id: int
    header: Header
    actions: list[dict[str, Any]]
    status: str


@dataclass(frozen=True)
class Snapshot:
    """A game's whole state after its first ``seq`` actions, as ``snapshots.encode`` wrote it."""

    seq: int
    engine: str
    state: Any
    digest: Any


class Journal:
    """The SQLite journal.

    ``notices`` lists what went wrong with the file or its rows (oldest first); ``notice`` is the
    line of the last move-aside (kept for callers that show one line); ``degraded`` says why the
    journal lives in memory only (None when it is the file). ``memory_fallback=False`` raises
    JournalError instead of falling back (for tools that must not pretend to save).
    ``time_source`` is the time base (the wall clock, the seconds since boot, whether the clock
    is synchronised, the boot's id: ``timebase.TimeSource``). ``clock`` alone, as tests and
    tools give it, is a wall clock taken to be right: it stands for the seconds since boot too,
    and the clock counts as synchronised. ``care`` keeps the file (``care.FileCare``): its
    connection, checkpoints and backups, the idle ``tick``.
    """

    def __init__(self, path: Path | str, clock: Callable[[], float] | None = None, *,
                 memory_fallback: bool = True, time_source: TimeSource | None = None) -> None:
        self.path = Path(path)
        if time_source is None:
            time_source = TimeSource() if clock is None else \
                TimeSource(wall=clock, mono=clock, synced=always_synced)
        elif clock is not None:
            time_source = replace(time_source, wall=clock)
        source = time_source
        self.clock = source.wall
        self.notice: str | None = None
        self.notices: list[Notice] = []
        self.degraded: str | None = None
        self._aside: set[int] = set()
        self._taken = 0
        opened = open_journal(self.path, self.clock, memory_fallback=memory_fallback)
        self.notices.extend(opened.notices)
        self.notice, self.degraded = opened.moved, opened.degraded
        self.times = TimeBase(lambda: self.db, self.write, source)
        self.care = FileCare(self.path, opened.db, report=self.notices.append,
                             sync_clock=self.times.check_sync, in_memory=self.degraded is not None)

    def stamp(self) -> Stamp:
        """A stamp for a row written now (for the small stores that share this file)."""
        return self.times.stamp()

    @property
    def db(self) -> "sqlite3.Connection":
        """The open connection, for the small stores that share this file (the roster, the
        learning station's history); write through ``write()``."""
        return self.care.db

    def write(self) -> Any:
        """A write transaction on the journal, once its file is known to be there
        (``FileCare.write``; JournalError: nothing can be saved, nothing was written)."""
        return self.care.write()

    def take_notices(self) -> list[Notice]:
        """The notices not taken before (oldest first): what the OLED has yet to show. Rows are
        read lazily (calibration when the scales start), so call it again after start-up."""
        fresh, self._taken = self.notices[self._taken:], len(self.notices)
        return fresh

    # -- games -----------------------------------------------------------------------------------
    def start_game(self, header: Header) -> int:
        """Record a new game; any game still running is marked abandoned."""
        text = _dump(header.to_json(), "the game's header")
        at = self.stamp()
        with self.write():
            ended = self.db.execute(
                "UPDATE games SET status='abandoned', ended=?, ended_boot=?, ended_mono=? "
                "WHERE status='running'", (at.wall, at.boot, at.mono)).rowcount
            cur = self.db.execute(
                "INSERT INTO games (game, header, started, boot, mono, synced) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (header.game, text, at.wall, at.boot, at.mono, int(self.times.anchored)))
        if ended:
            self.care.game_ended()
        assert cur.lastrowid is not None  # an INSERT's row
        return cur.lastrowid

    def append(self, game_id: int, action: dict[str, Any], *, over: bool = False,
               snapshot: tuple[int, str, str, str] | None = None,
               kept: tuple[str, ...] | None = None,
               notes: Sequence[tuple[str, dict[str, Any]]] = ()) -> int:
        """Commit one accepted action (and, with ``over``, the end of the game in the same
        transaction; with ``snapshot``, ``(seq, engine, state, digest)`` beside it; with
        ``kept``, the ended game's ``(key, result)`` for the list of past games,
        ``record_cache``; with ``notes``, the referee's ``(kind, data)`` notes that go with it,
        so a verdict and what the referee keeps of it are one commit); returns its sequence
        number (0-based)."""
        text = _dump(action, "the action")
        noted = [(kind, _dump(data, "the note", nan=True)) for kind, data in notes]
        at = self.stamp()
        with self.write():
            seq = self.db.execute("SELECT COALESCE(MAX(seq) + 1, 0) FROM actions "
                                   "WHERE game_id=?", (game_id,)).fetchone()[0]
            self.db.execute("INSERT INTO actions (game_id, seq, action, at, boot, mono) "
                             "VALUES (?, ?, ?, ?, ?, ?)",
                             (game_id, seq, text, at.wall, at.boot, at.mono))
            if snapshot is not None:
                self.db.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?, ?)",
                                 (game_id, *snapshot))
            if over:
                self.db.execute("UPDATE games SET status='over', ended=?, ended_boot=?, "
                                 "ended_mono=? WHERE id=?", (at.wall, at.boot, at.mono, game_id))
            if kept is not None:
                keep_result(self.db, game_id, kept)  # never fails the action
            self.db.executemany("INSERT INTO notes (at, kind, data, boot, mono) "
                                "VALUES (?, ?, ?, ?, ?)",
                                [(at.wall, kind, data, at.boot, at.mono) for kind, data in noted])
        if over:
            self.care.game_ended()
        return int(seq)

    def undo(self, game_id: int) -> dict[str, Any] | None:
        """Remove and return the last action of the game (None if it has none); snapshots of
        the states after it go with it."""
        with self.write():
            row = self.db.execute(
                "SELECT seq, action FROM actions WHERE game_id=? ORDER BY seq DESC LIMIT 1",
                (game_id,)).fetchone()
            if row is None:
                return None
            action = _row_json(row[1], f"action {row[0]}")  # unreadable: not removed
            self.db.execute("DELETE FROM actions WHERE game_id=? AND seq=?", (game_id, row[0]))
            self.db.execute("DELETE FROM snapshots WHERE game_id=? AND seq>?",
                             (game_id, row[0]))
            forget(self.db, game_id)
            self.db.execute("UPDATE games SET status='running', ended=NULL, ended_boot=NULL, "
                             "ended_mono=NULL WHERE id=?", (game_id,))
        return action

    def set_status(self, game_id: int, status: str) -> None:
        at = self.stamp()
        running = status == "running"
        with self.write():
            self.db.execute("UPDATE games SET status=?, ended=?, ended_boot=?, ended_mono=? "
                             "WHERE id=?", (status, None if running else at.wall,
                                            None if running else at.boot,
                                            None if running else at.mono, game_id))
        if status in ("over", "abandoned"):
            self.care.game_ended()

    def count(self, game_id: int) -> int:
        """How many actions the game has."""
        row = self.db.execute("SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE game_id=?",
                               (game_id,)).fetchone()
        return int(row[0])

    def snapshots(self, game_id: int, upto: int) -> list[Snapshot]:
        """The game's snapshots after at most ``upto`` actions, newest first (as stored: the
        caller checks them, ``snapshots.decode``)."""
        try:
            rows = self.db.execute(
                "SELECT seq, engine, state, digest FROM snapshots WHERE game_id=? AND seq<=? "
                "ORDER BY seq DESC", (game_id, upto)).fetchall()
        except UNREADABLE as exc:
            log.warning("snapshots of game %d unreadable: %s", game_id, exc)
            return []
        return [Snapshot(*row) for row in rows if isinstance(row[0], int)]

    def game_time(self, game_id: int) -> GameTime:
        """When the game was played (see ``GameTime``); all None for an unknown game."""
        row = self.db.execute("SELECT started, boot, mono, synced, ended, ended_boot, "
                               "ended_mono FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            return GameTime(None, None, None, None)
        return self.times.game_time(*row)

    def action_times(self, game_id: int) -> list[float | None]:
        """The wall time of each of the game's actions, in order (None: unknown)."""
        rows = self.db.execute("SELECT at, boot, mono FROM actions WHERE game_id=? ORDER BY seq",
                                (game_id,))
        return [self.times.wall_time(boot, mono, at) for at, boot, mono in rows]

    def load(self, game_id: int) -> SavedGame:
        """A game with its actions; DamagedGame when a row cannot be read back."""
        try:
            row = self.db.execute("SELECT header, status FROM games WHERE id=?",
                                   (game_id,)).fetchone()
            if row is None:
                raise JournalError(f"no game {game_id}")
            rows = self.db.execute("SELECT seq, action FROM actions WHERE game_id=? ORDER BY seq",
                                    (game_id,)).fetchall()
            if any(seq != index for index, (seq, _) in enumerate(rows)):
                raise DamagedGame(game_id, "an action is missing")
        except UNREADABLE as exc:
            raise DamagedGame(game_id, f"unreadable ({exc})") from None
        try:
            header = Header.from_json(_row_json(row[0], "header"))
            actions = _actions_json(rows)
        except (InputError, DamagedRow) as exc:
            raise DamagedGame(game_id, str(exc)) from None
        return SavedGame(game_id, header, actions, row[1])

    def latest(self) -> SavedGame | None:
        """The most recent game that is running or over (the one to show after a restart).
        A game whose rows cannot be read is set aside on the way (see ``set_aside``)."""
        while True:
            try:
                row = self.db.execute(
                    "SELECT id FROM games WHERE status IN ('running', 'over') "
                    f"AND id NOT IN ({','.join(str(i) for i in self._aside)}) "
                    "ORDER BY id DESC LIMIT 1").fetchone()
            except UNREADABLE as exc:
                raise JournalError(f"journal: {exc}") from None
            if row is None:
                return None
            try:
                return self.load(row[0])
            except DamagedGame as exc:
                self.set_aside(exc.game_id, exc.reason)

    def set_aside(self, game_id: int, reason: str) -> None:
        """Keep a game that cannot be played on (status 'damaged') and report it once."""
        self._aside.add(game_id)
        try:
            self.set_status(game_id, "damaged")
        except JournalError as exc:  # read-only: it stays aside for as long as the box runs
            log.error("game %d not marked damaged: %s", game_id, exc)
        text = f"Game {game_id} set aside: {reason}"
        self.notices.append(Notice("set-aside", text, reason, game_id=game_id))
        log.error("%s", text)

    # -- calibration and notes -------------------------------------------------------------------
    def save_calibration(self, pan: str, data: dict[str, Any]) -> None:
        with self.write():
            self.db.execute("INSERT OR REPLACE INTO calibration VALUES (?, ?, ?)",
                             (pan, _dump(data, "the calibration", nan=True), self.clock()))

    def calibration(self, pan: str) -> dict[str, Any] | None:
        """The saved calibration of a pan; None when there is none or it cannot be read (then
        the pan is uncalibrated and a ``calibration`` notice says why)."""
        try:
            row = self.db.execute("SELECT data FROM calibration WHERE pan=?", (pan,)).fetchone()
            if row is None:
                return None
            data = _row_json(row[0], "calibration", constants=True)
            if not isinstance(data, dict):
                raise DamagedRow("not a JSON object")
        except (sqlite3.Error, DamagedRow) as exc:
            reason = str(exc)
            text = f"Calibration of the {pan} pan unusable ({reason}): uncalibrated"
            if all(n.text != text for n in self.notices):
                self.notices.append(Notice("calibration", text, reason, pan=pan))
                log.error("%s", text)
            return None
        return data

    def add_note(self, kind: str, data: dict[str, Any]) -> None:
        """Keep a small record (self-test results, settings, a weighing under way)."""
        text = _dump(data, "the note", nan=True)
        at = self.stamp()
        with self.write():
            self.db.execute("INSERT INTO notes (at, kind, data, boot, mono) VALUES (?, ?, ?, ?, ?)",
                             (at.wall, kind, text, at.boot, at.mono))

    def notes(self, kind: str, limit: int = 100) -> list[dict[str, Any]]:
        """The newest ``limit`` notes of a kind, newest first (unreadable ones left out)."""
        rows = self.db.execute("SELECT data FROM notes WHERE kind=? ORDER BY id DESC LIMIT ?",
                                (kind, limit))
        notes = []
        for (text,) in rows:
            try:
                notes.append(_row_json(text, "note", constants=True))
            except DamagedRow as exc:
                log.warning("note left out: %s", exc)
        return notes

    def close(self) -> None:
        care = getattr(self, "care", None)
        if care is not None:
            care.close()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _actions_json(rows: list[tuple[Any, Any]]) -> list[Any]:
    """The actions' JSON texts parsed: all at once as one array (a long game's thousands of
    rows in one pass of the parser, with every check of ``text.loads``), and row by row, naming
    the damaged one, whenever that does not give one object per row."""
    texts = [text for _, text in rows]
    if all(isinstance(text, str) for text in texts):
        try:
            values = loads("[" + ",".join(texts) + "]", "the actions")
        except InputError:
            values = None
        if values is not None and len(values) == len(texts) and \
                all(isinstance(value, dict) for value in values):
            return values
    return [_row_json(text, f"action {seq}") for seq, text in rows]


def _row_json(value: Any, what: str, *, constants: bool = False) -> Any:
    """A row's JSON text parsed; DamagedRow (naming ``what``) when it is not readable JSON."""
    if isinstance(value, bytes):
        value = decode(value)
    if not isinstance(value, str):
        raise DamagedRow(f"{what} is not text")
    if bad_char(value):
        raise DamagedRow(f"{what} is not UTF-8 text")
    try:
        return loads(value, what, constants=constants)
    except InputError as exc:
        raise DamagedRow(f"{what}: {exc}") from None


def _dump(value: Any, what: str, *, nan: bool = False) -> str:
    """JSON for a row (ASCII, so it always encodes); JournalError for text that is not valid
    Unicode or a value JSON cannot hold: the row is refused, nothing is written."""
    try:
        text = json.dumps(value, allow_nan=nan)
    except (TypeError, ValueError, RecursionError) as exc:
        raise JournalError(f"{what} not saved: {exc}") from None
    try:
        check(value, what)
    except InputError as exc:
        raise JournalError(f"not saved: {exc}") from None
    return text
