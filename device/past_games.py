"""Past games: every ended game of the journal as a record, its effective actions, and corrections.

``PastGames`` reads through the box's ``Journal`` (and can then correct a finished game) or through
a read-only ``sqlite3`` connection (a laptop's ``spielleiter games``, beside the running box).
Games are ordered by the journal's game id, newest first, never by wall time (a Pi without a
real-time clock jumps at boot); dates come from the journal's time base (``timebase``) and are
None ("date unknown") when the clock was not known to be right. A record is the replay of the
game's effective actions (``corrections``), so a correction re-derives scores and winners by the
engine's own rules, and ``GameRecord.changes`` says what was corrected, why, and what moved.
A game whose rows cannot be read is left out of the list and named in ``problems``.
"""

from __future__ import annotations

import builtins
import logging
import sqlite3
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any, Callable, Sequence

from ..games import GAMES, GameError
from . import corrections as store
from .corrections import Correction
from .header import Header
from .history import Record
from .history import parse as parse_learning
from .i18n import _, refusal
from .records import GameRecord
from .replay import ReplayError, start
from .text import InputError, loads
from .timebase import GameTime, TimeBase, TimeSource, always_synced

__all__ = ["ENDED", "Correction", "GameRecord", "PastGames", "open_read_only"]

log = logging.getLogger(__name__)

ENDED = ("over", "abandoned", "damaged")  # every status but running: the game cannot change
LEARNING_COLUMNS = ("id", "at", "child", "quiz", "level", "truth_g", "guess", "error", "correct",
                    "retry", "boot", "mono")
GAME_COLUMNS = ("id", "game", "header", "status", "started", "boot", "mono", "synced", "ended",
                "ended_boot", "ended_mono")


def open_read_only(path: Any) -> sqlite3.Connection:
    """A read-only connection to a journal file (never writes it; the box may run beside it).
    InputError when it cannot be opened or is not a journal."""
    from pathlib import Path

    from .journal_file import APP, decode

    uri = f"{Path(path).resolve().as_uri()}?mode=ro"
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None)
        db.text_factory = decode
        meta = dict(db.execute("SELECT key, value FROM meta"))
    except sqlite3.Error as exc:
        raise InputError(f"cannot read {path}: {exc}") from None
    if meta.get("app") != APP:
        db.close()
        raise InputError(f"{path} is not a Spielleiter journal")
    return db


@dataclass(frozen=True)
class _Game:
    """A game's rows as read: header, journal actions (up to the first unreadable one)."""

    id: int
    header: Header
    status: str
    originals: list[dict[str, Any]]
    when: GameTime
    started_at: float | None
    ended_at: float | None
    error: str | None


class PastGames:
    """The journal's ended games (see the module doc). ``source``: the device's ``Journal``, or
    a read-only ``sqlite3.Connection``. ``box_name`` is the location an export names."""

    def __init__(self, source: Any, *, box_id: str | None = None,
                 box_name: str | None = None) -> None:
        self.journal = None if isinstance(source, sqlite3.Connection) else source
        if self.journal is None:
            db = source
            self._db: Callable[[], sqlite3.Connection] = lambda: db
            self.times = TimeBase(self._db, _no_write,
                                  TimeSource(synced=always_synced, boot_id=lambda: ""))
        else:
            journal = self.journal
            self._db = lambda: journal.db
            self.times = journal.times
            store.ensure(journal.db)
        self.box_id, self.box_name = box_id, box_name
        self.problems: builtins.list[str] = []
        self._columns: dict[str, tuple[str, ...]] = {}

    @property
    def db(self) -> sqlite3.Connection:
        return self._db()

    # -- reading ---------------------------------------------------------------------------------
    def list(self, since: date | datetime | str | None = None, player: str | None = None,
             game: str | None = None) -> builtins.list[GameRecord]:
        """Ended games, newest first (by game id). ``since``: a date (or ISO text): games on or
        after it; a game without a date counts as after it when an earlier game is dated on or
        after it (the journal's order is the order of play), else it is left out. ``player``:
        games that name them (any case); ``game``: a game's name or title (InputError for one
        this box does not know)."""
        cut = None if since is None else _since(since)
        wanted = None if game is None else _game_name(game)
        who = None if player is None else player.casefold()
        self.problems = []
        records: builtins.list[GameRecord] = []
        for row in self._rows("WHERE status IN ('over', 'abandoned', 'damaged') ORDER BY id"):
            try:
                found = self._game(row)
            except InputError as exc:
                self._problem(row[0], str(exc))
                continue
            if wanted is not None and found.header.game != wanted:
                continue
            if who is not None and who not in (p.casefold() for p in found.header.players):
                continue
            try:
                records.append(self._record(found))
            except ReplayError as exc:
                self._problem(found.id, str(exc))
        if cut is not None:
            records = _after(records, cut)
        return records[::-1]

    def record(self, game_id: int) -> GameRecord:
        """One game's record with its corrections applied; InputError for no such game."""
        return self._record(self._load(game_id))

    def original(self, game_id: int) -> GameRecord:
        """The record as the game was played, before any correction."""
        found = self._load(game_id)
        return self._build(found, found.originals, [])

    def header(self, game_id: int) -> Header:
        return self._load(game_id).header

    def actions(self, game_id: int) -> builtins.list[dict[str, Any]]:
        """The effective actions: the journal's, with the corrections applied."""
        found = self._load(game_id)
        return store.apply(found.originals, self._corrections(found))

    def corrections(self, game_id: int) -> builtins.list[Correction]:
        """Every correction of the game, oldest first (a later one of the same action wins)."""
        return self._corrections(self._load(game_id))

    def action_times(self, game_id: int) -> builtins.list[float | None]:
        """The wall time of each effective action (None: unknown); a corrected action keeps the
        time it was played."""
        found = self._load(game_id)
        have = self._have("actions")
        stamp = ", ".join(c if c in have else "NULL" for c in ("at", "boot", "mono"))
        rows = self.db.execute(f"SELECT seq, {stamp} FROM actions WHERE game_id=? ORDER BY seq",
                               (game_id,)).fetchall()
        times = {seq: self.times.wall_time(boot, mono, at) for seq, at, boot, mono in rows}
        gone = {c.seq for c in store.effective(self._corrections(found)) if c.removes}
        return [times.get(seq) for seq in range(len(found.originals)) if seq not in gone]

    def learning(self) -> builtins.list[Record]:
        """The learning station's answers, oldest first (``history``; for ``FamilyStats``),
        read without writing (none when the box never had a learning station)."""
        have = self._have("learning")
        if not have:
            return []
        columns = ", ".join(c if c in have else "NULL" for c in LEARNING_COLUMNS)
        try:
            rows = self.db.execute(f"SELECT {columns} FROM learning ORDER BY id").fetchall()
        except sqlite3.Error as exc:
            log.error("learning history unreadable: %s", exc)
            return []
        found = []
        for row in rows:
            try:
                found.append(parse_learning(row, self.times.wall_time))
            except (ValueError, TypeError) as exc:
                log.warning("learning row %s left out: %s", row[0], exc)
        return found

    # -- correcting ------------------------------------------------------------------------------
    def correct(self, game_id: int, seq: int, action: dict[str, Any] | None,
                why: str) -> Correction:
        """Correct action ``seq`` (0-based, as the journal numbers it) of a finished game to
        ``action`` (None: it should not have happened), because ``why``. The journal's action
        stays; the correction is a new row. Refused with InputError (nothing written, the message
        in the box's language) when the game is not finished, ``seq`` is not one of its actions,
        nothing would change, ``why`` is empty, or the game with it does not replay to an end."""
        if self.journal is None:
            raise InputError(_("This journal is open for reading only."))
        found = self._load(game_id)
        if found.status != "over":
            raise InputError(_("Only a finished game can be corrected."))
        if found.error:
            raise InputError(_("This game cannot be read to its end."))
        if isinstance(seq, bool) or not isinstance(seq, int) or \
                not 0 <= seq < len(found.originals):
            raise InputError(_("The game has no action {n}.").format(n=seq))
        reason = " ".join(str(why).split()) if isinstance(why, str) else ""
        if not reason:
            raise InputError(_("Say why it is corrected."))
        if len(reason) > store.MAX_WHY:
            raise InputError(_("The reason is too long."))
        text = store.dump(action)
        before = self._corrections(found)
        now = {c.seq: c.after for c in before}.get(seq, found.originals[seq])
        if now == action:
            raise InputError(_("That is what the game already has."))
        trial = Correction(0, game_id, seq, found.originals[seq], action, reason, None)
        actions = store.apply(found.originals, before + [trial])
        self._check_replay(found.header, actions)
        row_id = store.add(self.journal.db, self.journal.write, game_id, seq, text, reason,
                           self.journal.stamp())
        log.info("game %d action %d corrected: %s (%s)", game_id, seq, action, reason)
        return next(c for c in self._corrections(found) if c.id == row_id)

    def _check_replay(self, header: Header, actions: builtins.list[dict[str, Any]]) -> None:
        state = start(header)
        for index, action in enumerate(actions):
            try:
                state, _events = state.apply(action)
            except GameError as exc:
                raise InputError(_("Not possible: then action {n} would be refused ({why})."
                                   ).format(n=index, why=refusal(exc))) from None
            except Exception as exc:  # an engine given a shape it never expected
                raise InputError(_("Not possible: then action {n} would be refused ({why})."
                                   ).format(n=index, why=type(exc).__name__)) from None
        if not state.is_over:
            raise InputError(_("Not possible: then the game would not be over."))

    # -- rows ------------------------------------------------------------------------------------
    def _have(self, table: str) -> tuple[str, ...]:
        if table not in self._columns:
            try:
                self._columns[table] = tuple(r[1] for r in self.db.execute(
                    f"PRAGMA table_info({table})"))
            except sqlite3.Error:
                self._columns[table] = ()
        return self._columns[table]

    def _rows(self, where: str, args: tuple[Any, ...] = ()) -> builtins.list[tuple[Any, ...]]:
        have = self._have("games")  # a file of an earlier release, read without migrating it
        columns = ", ".join(c if c in have else "NULL" for c in GAME_COLUMNS)
        try:
            return self.db.execute(f"SELECT {columns} FROM games {where}", args).fetchall()
        except sqlite3.Error as exc:
            raise InputError(f"the journal cannot be read: {exc}") from None

    def _load(self, game_id: int) -> _Game:
        rows = self._rows("WHERE id=?", (game_id,)) if isinstance(game_id, int) else []
        if not rows:
            raise InputError(_("There is no game {n}.").format(n=game_id))
        return self._game(rows[0])

    def _game(self, row: tuple[Any, ...]) -> _Game:
        game_id, _name, header_text, status, started, boot, mono, synced, ended, ended_boot, \
            ended_mono = row
        try:
            header = Header.from_json(loads(header_text, "header") if isinstance(
                header_text, str) else None)
        except InputError as exc:
            raise InputError(f"header unreadable ({exc})") from None
        originals: builtins.list[dict[str, Any]] = []
        error = None
        try:
            rows = self.db.execute("SELECT seq, action FROM actions WHERE game_id=? ORDER BY seq",
                                   (game_id,)).fetchall()
        except sqlite3.Error as exc:
            rows, error = [], f"actions unreadable ({exc})"
        for index, (seq, text) in enumerate(rows):
            try:
                if seq != index:
                    raise InputError("an action is missing")
                action = loads(text, f"action {seq}") if isinstance(text, str) else None
                if not isinstance(action, dict):
                    raise InputError(f"action {seq} is not a JSON object")
            except InputError as exc:
                error = str(exc)
                break
            originals.append(action)
        when = self.times.game_time(started, boot, mono, synced, ended, ended_boot, ended_mono)
        return _Game(game_id, header, status, originals, when, started, ended, error)

    def _corrections(self, found: _Game) -> builtins.list[Correction]:
        return store.read(self.db, found.id, found.originals, self.times.wall_time)

    def _record(self, found: _Game) -> GameRecord:
        made = self._corrections(found)
        return self._build(found, store.apply(found.originals, made), made)

    def _build(self, found: _Game, actions: builtins.list[dict[str, Any]],
               made: builtins.list[Correction]) -> GameRecord:
        record = GameRecord.build(found.id, found.header, actions, status=found.status,
                                  started_at=found.started_at, ended_at=found.ended_at,
                                  box_id=self.box_id, box_name=self.box_name)
        record = replace(record, when=found.when, error=found.error or record.error)
        if not made:
            return record
        original = GameRecord.build(found.id, found.header, found.originals,
                                    status=found.status)
        return replace(record, corrected=True, changes=tuple(describe(made, original, record)))

    def _problem(self, game_id: int, reason: str) -> None:
        text = f"game {game_id} left out: {reason}"
        self.problems.append(text)
        log.warning("%s", text)


def describe(made: Sequence[Correction], original: GameRecord, now: GameRecord) -> list[str]:
    """What was corrected and why, then what that changed in the result (English lines for the
    record, the CLI and the export; screens build their own words from the same data)."""
    lines = []
    for c in store.effective(made):
        what = _action_name(c.before)
        if c.after is None:
            lines.append(f"action {c.seq} ({what}) removed: {c.why}")
        else:
            lines.append(f"action {c.seq} ({what}) {_diff(c.before, c.after)}: {c.why}")
    if original.winners != now.winners:
        lines.append(f"winners: {', '.join(now.winners) or 'nobody'} "
                     f"(was {', '.join(original.winners) or 'nobody'})")
    was = {s.player: s.score for s in original.standings}
    for s in now.standings:
        if s.player in was and was[s.player] != s.score:
            lines.append(f"{s.player}: {s.score} (was {was[s.player]})")
    if len(lines) == len(store.effective(made)):
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


def _game_name(game: str) -> str:
    wanted = game.casefold().strip()
    for name, info in GAMES.items():
        if wanted in (name.casefold(), info.title.casefold()):
            return name
    raise InputError(f"unknown game {game!r}; known: {', '.join(sorted(GAMES))}")


def _since(value: date | datetime | str) -> float:
    """The first moment of a day (local time), or of a datetime, as epoch seconds."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip())
        except ValueError:
            raise InputError(f"not a date: {value!r} (e.g. 2026-11-30)") from None
    if not isinstance(value, datetime):
        value = datetime(value.year, value.month, value.day)
    return value.timestamp()


def _after(oldest_first: list[GameRecord], cut: float) -> list[GameRecord]:
    kept, seen_after = [], False
    for record in oldest_first:
        at = record.when.started if record.when is not None else None
        if at is None:
            at = record.when.ended if record.when is not None else None
        if at is not None:
            seen_after = seen_after or at >= cut
            if at >= cut:
                kept.append(record)
        elif seen_after:
            kept.append(record)
    return kept


def _no_write() -> Any:
    raise InputError("This journal is open for reading only.")
