"""Past games: every ended game of the journal as a record, its effective actions, and corrections.

``PastGames`` reads through the box's ``Journal`` (and can then correct a finished game) or through
a read-only ``sqlite3`` connection (a laptop's ``spielleiter games``, beside the running box).
Games are ordered by the journal's game id, newest first, never by wall time (a Pi without a
real-time clock jumps at boot); dates come from the journal's time base (``timebase``) and are
None ("date unknown") when the clock was not known to be right. A record is the replay of the
game's effective actions (``corrections``), so a correction re-derives scores and winners by the
engine's own rules, and ``GameRecord.changes`` says what was corrected, why, and what moved.
A game whose rows cannot be read is left out of the list and named in ``problems``; the rows as
read, and the read-only connection, are ``past_rows``.
"""

from __future__ import annotations

import builtins
import logging
import sqlite3
from dataclasses import replace
from datetime import date, datetime
from typing import Any, Callable

from ...games import GAMES
from . import corrections as store
from . import checks
from . import filters as filters
from . import names
from . import results as cache
from .corrections import Correction
from ..journal.header import Header
from ..journal.learning import Record
from ..i18n import _
from .records import GameRecord
from ..replay import ReplayError
from ..text import InputError, loads
from .rows import GameRows, Step, learning_rows, no_write, open_read_only
from ..journal.timebase import TimeBase, TimeSource, always_synced

__all__ = ["ENDED", "Correction", "GameRecord", "PastGames", "Step", "open_read_only"]

log = logging.getLogger(__name__)

ENDED = ("over", "abandoned", "damaged")  # every status but running: the game cannot change
GAME_COLUMNS = ("id", "game", "header", "status", "started", "boot", "mono", "synced", "ended",
                "ended_boot", "ended_mono")


class PastGames:
    """The journal's ended games (see the module doc). ``source``: the device's ``Journal``, or
    a read-only ``sqlite3.Connection``. ``box_name`` is the location an export names."""

    def __init__(self, source: Any, *, box_id: str | None = None,
                 box_name: str | None = None) -> None:
        self.journal = None if isinstance(source, sqlite3.Connection) else source
        if self.journal is None:
            db = source
            self._db: Callable[[], sqlite3.Connection] = lambda: db
            self.times = TimeBase(self._db, no_write,
                                  TimeSource(synced=always_synced, boot_id=lambda: ""))
        else:
            journal = self.journal
            self._db = lambda: journal.db
            self.times = journal.times
            store.ensure(journal.db)
            cache.ensure(journal.db)
        self.box_id, self.box_name = box_id, box_name
        self.problems: builtins.list[str] = []
        self._columns: dict[str, tuple[str, ...]] = {}

    @property
    def db(self) -> sqlite3.Connection:
        return self._db()

    # -- reading ---------------------------------------------------------------------------------
    def list(self, since: date | datetime | str | None = None, player: str | None = None,
             game: str | None = None, limit: int | None = None, *, offset: int = 0,
             older_than: int | None = None, where: str | None = None,
             where_args: tuple[Any, ...] = ()) -> builtins.list[GameRecord]:
        """Ended games, newest first (by game id). ``since``: a date (or ISO text): games on or
        after it; a game without a date counts as after it when an earlier game is dated on or
        after it (the journal's order is the order of play), else it is left out. ``player``:
        games that name them (the roster's identity of a name: "mia" is "Mia", "Strauß" is not
        "Strauss"); ``game``: a game's name or title (InputError for one this box does not
        know). ``limit``/``offset``/``older_than`` (a game id): one page, read with SQL from the
        kept results (``results``), so a page costs the same in a journal of ten games or ten
        thousand; only a game without a kept result is replayed, and kept for next time."""
        cut = None if since is None else filters.since(since)
        wanted = None if game is None else filters.game_name(game)
        who = None if player is None else names.identity(player)
        self.problems = []
        paged = cut is None and who is None and limit is not None
        where_sql = "WHERE g.status IN ('over', 'abandoned', 'damaged')"
        args: builtins.list[Any] = []
        if wanted is not None:
            where_sql += " AND g.game=?"
            args.append(wanted)
        if older_than is not None:
            where_sql += " AND g.id<?"
            args.append(older_than)
        if where is not None:
            where_sql += f" AND {where}"
            args.extend(where_args)
        order = " ORDER BY g.id DESC"
        if paged:
            order += " LIMIT ? OFFSET ?"
            args += [max(0, limit or 0), max(0, offset)]
        try:
            rows = self._kept_rows(where_sql + order, tuple(args))
        except InputError as exc:  # a journal that cannot be read lists nothing, and says why
            self.problems.append(str(exc))
            log.error("past games: %s", exc)
            return []
        found: builtins.list[tuple[GameRows, Any, Any, Any]] = []
        for row in rows:
            try:
                one = self._game(row[:len(GAME_COLUMNS)])
            except InputError as exc:
                self._problem(row[0], str(exc))
                continue
            if wanted is not None and one.header.game != wanted:
                continue
            if who is not None and who not in names.identities(one.header.players):
                continue
            kept, rechecked, count = row[len(GAME_COLUMNS):]
            found.append((one, kept, rechecked, count))
        if cut is not None:
            after = {one.id for one in filters.after([f[0] for f in found[::-1]], cut)}
            found = [f for f in found if f[0].id in after]
        if not paged:
            found = found[max(0, offset):]
            if limit is not None:
                found = found[:max(0, limit)]
        fresh: dict[int, tuple[str, str]] = {}
        corrected = self._corrected_ids([f[0].id for f in found])
        records: builtins.list[GameRecord] = []
        for one, kept, rechecked, count in found:
            try:
                records.append(self._record(one) if one.id in corrected
                               else self._kept(one, kept, bool(rechecked), count, fresh))
            except ReplayError as exc:
                self._problem(one.id, str(exc))
            except Exception as exc:  # noqa: BLE001 - an engine bug must not take the list down
                log.exception("game %d cannot be replayed", one.id)
                self._problem(one.id, f"the engine failed: {type(exc).__name__}: {exc}")
        if fresh and self.journal is not None:
            cache.save(self.journal.db, self.journal.write, fresh)
        return records

    def ids(self) -> builtins.list[int]:
        """Every ended game's id, oldest first (the journal's order)."""
        try:
            return [r[0] for r in self.db.execute(
                "SELECT id FROM games WHERE status IN ('over', 'abandoned', 'damaged') "
                "ORDER BY id")]
        except sqlite3.Error as exc:
            raise InputError(f"the journal cannot be read: {exc}") from None

    def records(self, ids: builtins.list[int]) -> builtins.list[GameRecord]:
        """The records of the ended games ``ids`` (a batch: at most a few hundred), oldest first,
        from their kept results as ``list`` reads them."""
        wanted = [i for i in ids if names.is_game_id(i)][:500]
        if not wanted:
            return []
        marks = ", ".join("?" * len(wanted))
        found = self.list(where=f"g.id IN ({marks})", where_args=tuple(wanted))
        return found[::-1]

    def count(self) -> int:
        """How many ended games there are (one SQL count, for a screen's "3 of 250")."""
        try:
            return int(self.db.execute("SELECT COUNT(*) FROM games WHERE status IN "
                                       "('over', 'abandoned', 'damaged')").fetchone()[0])
        except sqlite3.Error:
            return 0

    def record(self, game_id: int) -> GameRecord:
        """One game's record with its corrections applied; InputError for no such game."""
        return self._record(self._load(game_id))

    def derive(self, game_id: int) -> tuple[str, str, int]:
        """A game's result replayed by today's rules, as ``record_cache`` keeps it: (key,
        result text, how many actions it was derived from). InputError for no such game."""
        found = self._load(game_id)
        record = self._build(found, found.originals, [])
        return (cache.key(found.header_text, [t for _, t in found.texts]), cache.result(record),
                len(found.texts))

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

    def steps(self, game_id: int) -> builtins.list[Step]:
        """The effective actions with the journal's sequence number and time of each (a
        corrected action keeps the number and time it was played; a removed one is left out)."""
        found = self._load(game_id)
        have = self._have("actions")
        stamp = ", ".join(c if c in have else "NULL" for c in ("at", "boot", "mono"))
        try:
            rows = self.db.execute(f"SELECT seq, {stamp} FROM actions WHERE game_id=? "
                                   "ORDER BY seq", (game_id,)).fetchall()
        except sqlite3.Error as exc:
            raise InputError(f"the journal cannot be read: {exc}") from None
        times = {seq: self.times.wall_time(boot, mono, at) for seq, at, boot, mono in rows}
        newest = {c.seq: c for c in self._corrections(found)}
        steps = []
        for seq, original in enumerate(found.originals):
            correction = newest.get(seq)
            if correction is None:
                steps.append(Step(seq, original, times.get(seq), None))
            elif correction.after is not None:
                steps.append(Step(seq, correction.after, times.get(seq), correction))
        return steps

    def action_times(self, game_id: int) -> builtins.list[float | None]:
        """The wall time of each effective action (None: unknown)."""
        return [step.at for step in self.steps(game_id)]

    def learning(self) -> builtins.list[Record]:
        """The learning station's answers, oldest first (``history``; for ``FamilyStats``),
        read without writing (none when the box never had a learning station)."""
        return learning_rows(self.db, self._have("learning"), self.times.wall_time)

    # -- correcting ------------------------------------------------------------------------------
    def correct(self, game_id: int, seq: int, action: dict[str, Any] | None,
                why: str) -> Correction:
        """Correct action ``seq`` (0-based, as the journal numbers it: the table's step
        ``seq + 1``, as every refusal names it) of a finished game to
        ``action`` (None: it should not have happened), because ``why``. The journal's action
        stays; the correction is a new row. Refused with InputError (nothing written, the message
        in the box's language) when the game is not finished, ``seq`` is not one of its actions,
        nothing would change, the action names a field the played one lacks or a measurement
        outside its rules' range (``checks``), ``why`` is empty or holds what a screen cannot
        show, or the game with it does not replay to an end. A correction that puts a step back
        as it was played undoes the earlier ones: the step (and, when no other is, the game) is
        no longer marked corrected."""
        if self.journal is None:
            raise InputError(_("This journal is open for reading only."))
        found = self._load(game_id)
        if found.status != "over":
            raise InputError(_("Only a finished game can be corrected."))
        if found.error:
            raise InputError(_("This game cannot be read to its end."))
        if isinstance(seq, bool) or not isinstance(seq, int) or \
                not 0 <= seq < len(found.originals):
            raise InputError(_("The game has no step {n}.").format(n=seq + 1 if isinstance(
                seq, int) else seq))
        reason = checks.reason(why, store.MAX_WHY)
        text = store.dump(action)
        checks.fields(found.header.game, seq + 1, found.originals[seq], action)
        before = self._corrections(found)
        now = {c.seq: c.after for c in before}.get(seq, found.originals[seq])
        if now == action:
            raise InputError(_("That is what the game already has."))
        trial = Correction(0, game_id, seq, found.originals[seq], action, reason, None)
        actions = store.apply(found.originals, before + [trial])
        checks.replays_to_end(found.header, actions)
        row_id = store.add(self.journal.db, self.journal.write, game_id, seq, text,
                           store.dump(found.originals[seq]) or "", reason, self.journal.stamp())
        log.info("game %d action %d corrected: %s (%s)", game_id, seq, action, reason)
        care = getattr(self.journal, "care", None)
        if care is not None:  # checkpoint and backup: a restore keeps this correction
            care.game_ended()
        made = next((c for c in self._corrections(found) if c.id == row_id), None)
        return made if made is not None else Correction(  # it put the step back as played
            row_id, game_id, seq, found.originals[seq], action, reason, None)

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

    def _kept_rows(self, where: str, args: tuple[Any, ...]) -> builtins.list[tuple[Any, ...]]:
        """The games' rows (``GAME_COLUMNS``) each with its kept result, whether that was
        re-checked (NULL, NULL without one) and how many actions the game has: one query for a
        whole page."""
        have = self._have("games")
        kept = self._have("record_cache")
        columns = ", ".join(f"g.{c}" if c in have else "NULL" for c in GAME_COLUMNS)
        count = "(SELECT COUNT(*) FROM actions a WHERE a.game_id=g.id)"
        if "result" in kept:
            extra = "k.result, " + ("k.rechecked" if "rechecked" in kept else "0") + f", {count}"
            join = "LEFT JOIN record_cache k ON k.game_id=g.id"
        else:
            extra, join = f"NULL, NULL, {count}", ""
        try:
            return self.db.execute(f"SELECT {columns}, {extra} FROM games g {join} {where}",
                                   args).fetchall()
        except sqlite3.Error as exc:
            raise InputError(f"the journal cannot be read: {exc}") from None

    def _load(self, game_id: int) -> GameRows:
        rows = self._rows("WHERE id=?", (game_id,)) if names.is_game_id(game_id) else []
        if not rows:
            raise InputError(_("There is no game {n}.").format(n=game_id))
        return self._game(rows[0])

    def _game(self, row: tuple[Any, ...]) -> GameRows:
        game_id, _name, header_text, status, started, boot, mono, synced, ended, ended_boot, \
            ended_mono = row
        try:
            header = Header.from_json(loads(header_text, "header") if isinstance(
                header_text, str) else None)
        except InputError as exc:
            raise InputError(f"header unreadable ({exc})") from None
        db = self.db

        def read_texts() -> tuple[builtins.list[tuple[Any, Any]], str | None]:
            try:
                return db.execute("SELECT seq, action FROM actions WHERE game_id=? ORDER BY seq",
                                  (game_id,)).fetchall(), None
            except sqlite3.Error as exc:
                return [], f"actions unreadable ({exc})"

        when = self.times.game_time(started, boot, mono, synced, ended, ended_boot, ended_mono)
        return GameRows(game_id, header, header_text, status, read_texts, when, started, ended)

    def _corrected_ids(self, ids: builtins.list[int]) -> set[int]:
        """Which of ``ids`` have corrections (a page's few by their ids, a long list at once)."""
        try:
            if len(ids) <= 100:
                marks = ", ".join("?" * len(ids))
                return {r[0] for r in self.db.execute(
                    f"SELECT DISTINCT game_id FROM corrections WHERE game_id IN ({marks})", ids)}
            return {r[0] for r in self.db.execute("SELECT DISTINCT game_id FROM corrections")}
        except sqlite3.Error:
            return set()

    def _kept(self, found: GameRows, kept: Any, rechecked: bool, count: Any,
              fresh: dict[int, tuple[str, str]]) -> GameRecord:
        """The record of a game without corrections from its kept result, whatever rules made
        it (``recheck`` brings it up to date off the loop); replayed (and put in ``fresh`` to
        be kept) only when there is none, it cannot be read, or it does not fit the game (other
        players, another number of actions: a damaged row)."""
        fields = cache.restore(kept) if isinstance(kept, str) else None
        if fields is not None and (fields["actions"] != count or
                                   set(fields["players"]) != set(found.header.players)):
            fields = None
        if fields is None or found.header.game not in GAMES:
            record = self._build(found, found.originals, [])
            fresh[found.id] = (cache.key(found.header_text, [t for _, t in found.texts]),
                               cache.result(record))
            return record
        return GameRecord(found.id, found.header.game, GAMES[found.header.game].title,
                          found.status, options=dict(found.header.options),
                          started_at=found.started_at, ended_at=found.ended_at,
                          box_id=self.box_id, box_name=self.box_name, when=found.when,
                          rechecked=rechecked, **fields)

    def _corrections(self, found: GameRows) -> builtins.list[Correction]:
        return store.read(self.db, found.id, found.originals, self.times.wall_time)

    def _record(self, found: GameRows) -> GameRecord:
        made = self._corrections(found)
        return self._build(found, store.apply(found.originals, made), made)

    def _build(self, found: GameRows, actions: builtins.list[dict[str, Any]],
               made: builtins.list[Correction]) -> GameRecord:
        record = GameRecord.build(found.id, found.header, actions, status=found.status,
                                  started_at=found.started_at, ended_at=found.ended_at,
                                  box_id=self.box_id, box_name=self.box_name)
        record = replace(record, when=found.when, error=found.error or record.error)
        if not made:
            return record
        original = GameRecord.build(found.id, found.header, found.originals,
                                    status=found.status)
        return replace(record, corrected=True, changes=tuple(store.describe(made, original, record)))

    def _problem(self, game_id: int, reason: str) -> None:
        text = f"game {game_id} left out: {reason}"
        self.problems.append(text)
        log.warning("%s", text)

