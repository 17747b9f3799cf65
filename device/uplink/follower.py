"""Following the journal: what it gained since the last look becomes messages in the outbox.

Each look (``scan``) reads one snapshot of the journal and, in one transaction of the uplink's own
state, adds the messages and moves the cursor (``outbox.Outbox``). Games are replayed through
their engines as the box plays them, so every action is published with the events it caused and
redacted (``public.redact``); the engine states stay in memory between looks and are rebuilt by
replay after a restart or an undo. A game the engine cannot replay (a damaged row) is published
up to the last good action and then marked ``unreadable``; nothing of it is guessed.

Only the latest game can change (the box resumes and undoes only its most recent game; an undo of
an older one sets it running again), so a look reads the games from the newest one that was
running or over and any game running, and of each only the actions after the last one
published, unless that one is no longer there as it was (an undo). A finished game corrected
after the game (``past_games``) is published again with its corrected record; the room shows a
game's latest record.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Any

from ...games import GAMES, GameError, State
from .. import fleet
from ..journal.header import Header
from ..journal.learning import parse as parse_learning
from ..past.games import PastGames
from ..past.records import GameRecord
from ..replay import ReplayError, start, steps
from ..text import InputError, loads
from . import public
from .outbox import Outbox, Published
from .reader import ActionRow, GameRow, JournalReader, learning_digest

log = logging.getLogger(__name__)

CHANGEABLE = ("running", "over")  # a game in any other status never changes again


@dataclass
class Followed:
    """A game being followed: its header and the engine state after ``count`` actions."""

    header: Header
    state: State
    count: int
    last_at: float | None = None


@dataclass
class Identity:
    """Who is publishing: the id in the topics, the name the room shows, and Home Assistant's
    discovery prefix when the box is to appear there (``uplink.discovery``)."""

    id: str
    name: str = ""
    homeassistant: str = ""


@dataclass
class Scan:
    """What one look produced: messages put in the outbox and whether the live state changed."""

    messages: int = 0
    state_changed: bool = False
    notes: list[str] = field(default_factory=list)


class Follower:
    """Turns the journal into messages for ``outbox`` (see the module doc)."""

    def __init__(self, reader: JournalReader, outbox: Outbox, box: Identity) -> None:
        self.reader = reader
        self.outbox = outbox
        self.box = box
        self.followed: dict[int, Followed] = {}
        self.latest: int | None = None  # the game the live state shows

    def scan(self) -> Scan:
        """One look (JournalUnavailable when the journal cannot be read now)."""
        result = Scan()
        self.reader.open()
        with self.reader.snapshot():
            identity = self.reader.identity
            try:
                with self.outbox.transaction():
                    key = None if identity is None else f"{identity[0]}:{identity[1]}"
                    known = self.outbox.journal_identity()
                    restored = key != known and known is not None and self._restored()
                    if key is not None and self.outbox.follow_journal(key, restored):
                        result.notes.append("the journal was replaced: following the new one")
                    if key is not None and key != known:
                        if restored:
                            result.notes.append("the journal was restored from its backup: "
                                                "following it as the same journal")
                        self.followed.clear()
                        self.latest = None
                    self._corrections(result)  # before the games: one that ends now is
                    self._games(result)        # published with its corrections once
                    self._learning(result)
            except BaseException:
                self.followed.clear()  # memory may be ahead of the rolled-back cursor
                raise
        return result

    def _restored(self) -> bool:
        """Whether the journal now read is the one published before, in another file (restored
        from its backup): it holds the first thing published of it, unchanged."""
        first = self.outbox.first_sent()
        if first is None:
            return False
        kind, key, digest = first
        if kind == "action":
            rows = self.reader.actions(key, 0)[:1]
            return bool(rows) and rows[0].seq == 0 and rows[0].digest == digest
        row = self.reader.learning_row(key)
        return row is not None and learning_digest(row) == digest

    # -- games -----------------------------------------------------------------------------------
    def _games(self, result: Scan) -> None:
        newest_open, newest = self.outbox.newest_games(CHANGEABLE)
        low = newest_open if newest_open is not None else newest + 1
        latest = None
        for row in self.reader.games_since(low):
            published = self.outbox.game(row.id)
            if published is not None and published.status not in CHANGEABLE:
                continue  # abandoned or damaged: never changes again
            self._game(row, published, result)
            if row.status in CHANGEABLE and row.id in self.followed:
                latest = row.id
        if latest != self.latest:
            self.latest = latest
            result.state_changed = True
        for gid in [g for g in self.followed if g != latest]:
            del self.followed[gid]  # only the latest game can change without its status

    def _game(self, row: GameRow, published: Published | None, result: Scan) -> None:
        if published is None:
            header = self._header(row)
            if header is None:
                self._unreadable(row.id, None, "the game's header cannot be read", result)
                return
            self._put(result, fleet.EVENTS, {
                "kind": "start", "game_id": row.id, "game": header.game,
                "title": GAMES[header.game].title, "players": list(header.players),
                "options": header.options, "at": row.started})
            self.followed[row.id] = Followed(header, start(header), 0, row.started)
            published = Published("running", 0)
            self.outbox.set_game(row.id, "running", 0)
        followed = self.followed.get(row.id)
        if followed is None:  # after a restart: replayed below up to what was published
            header = self._header(row)
            if header is None:
                self._unreadable(row.id, None, "the game's header cannot be read", result)
                return
            followed = self.followed[row.id] = Followed(header, start(header), 0, row.started)
        if not self._actions(row, followed, published.actions, result):
            return
        if row.status != published.status:
            self._status(row, self.followed[row.id], result)
        self.outbox.set_game(row.id, row.status, self.followed[row.id].count)
        if row.status not in CHANGEABLE:
            self.followed.pop(row.id, None)

    def _header(self, row: GameRow) -> Header | None:
        try:
            header = Header.from_json(loads(row.header, "header"))
            start(header)
        except (InputError, ReplayError, GameError):
            return None
        return header

    def _action(self, row: ActionRow) -> dict[str, Any]:
        action = loads(row.text, f"action {row.seq}")
        if not isinstance(action, dict):
            raise InputError(f"action {row.seq} is not a JSON object")
        return action

    def _actions(self, row: GameRow, followed: Followed, count: int, result: Scan) -> bool:
        """Publish undos and new actions of a game whose first ``count`` actions were published;
        False when the game turned out unreadable."""
        tail = self.reader.actions(row.id, max(0, count - 1))
        if followed.count == count and (count == 0 or (
                tail and tail[0].seq == count - 1
                and tail[0].digest == self.outbox.sent_action(row.id, count - 1))):
            rows = [r for r in tail if r.seq >= count]
        else:  # an undo, or a restart: where does the journal part from what was published?
            rows = self.reader.actions(row.id)
            sent = self.outbox.sent_actions(row.id)
            same = 0
            while same < min(len(sent), len(rows)) and rows[same].digest == sent[same]:
                same += 1
            for seq in range(len(sent) - 1, same - 1, -1):
                self._put(result, fleet.EVENTS, {"kind": "undo", "game_id": row.id, "seq": seq})
            self.outbox.drop_actions(row.id, same)
            followed = self.followed[row.id] = Followed(
                followed.header, start(followed.header), 0, row.started)
            published = rows[:same]  # published before, so the engine took them then
            for applied in steps(followed.state, (self._action(r) for r in published)):
                followed.state = applied.after
                followed.count, followed.last_at = followed.count + 1, published[applied.index].at
            rows = rows[same:]
            result.state_changed = True
        info = GAMES[followed.header.game]
        done = 0
        try:
            for applied in steps(followed.state, (self._action(r) for r in rows)):
                action_row = rows[applied.index]
                self._put(result, fleet.EVENTS, {
                    "kind": "action", "game_id": row.id, "game": followed.header.game,
                    "seq": action_row.seq, "at": action_row.at,
                    "action": public.redact(info, applied.action),
                    "events": public.events(applied.events)})
                self.outbox.add_action(row.id, action_row.seq, action_row.digest)
                followed.state, followed.count = applied.after, followed.count + 1
                followed.last_at = action_row.at
                result.state_changed = True
                done += 1
        except (GameError, InputError) as exc:  # a row that cannot be read, or an engine's no
            self._unreadable(row.id, rows[done].seq, str(exc), result)
            self.followed.pop(row.id, None)
            return False
        return True

    def _status(self, row: GameRow, followed: Followed, result: Scan) -> None:
        self._put(result, fleet.EVENTS, {"kind": "status", "game_id": row.id,
                                         "status": row.status, "at": row.ended})
        result.state_changed = True
        if row.status == "over":
            if self.reader.corrected(row.id):  # corrected before the uplink saw it end
                self._record(row.id, result)
                return
            record = replace(GameRecord.from_state(
                row.id, followed.header, followed.state, followed.count, status="over",
                started_at=row.started, ended_at=row.ended, box_id=self.box.id,
                box_name=self.box.name or None), when=self.reader.game_time(row.id))
            self._put(result, fleet.GAMES, {"kind": "game", "game_id": row.id,
                                            "record": record.to_json()})

    # -- corrections after the game --------------------------------------------------------------
    def _corrections(self, result: Scan) -> None:
        """A finished game corrected after the game is published again with its corrected
        record (the room shows a game's latest record)."""
        rows = self.reader.corrections_after(self.outbox.corrections_top())
        if not rows:
            return
        for game_id in sorted({game_id for _, game_id in rows}):
            published = self.outbox.game(game_id)
            if published is not None and published.status == "over":
                self._record(game_id, result)
        self.outbox.set_corrections_top(max(row_id for row_id, _ in rows))

    def _record(self, game_id: int, result: Scan) -> None:
        """The game's record with its corrections applied (``past_games``), published."""
        try:
            record = PastGames(self.reader.db, box_id=self.box.id,
                               box_name=self.box.name or None).record(game_id)
        except InputError as exc:
            log.error("game %d: corrected record not published: %s", game_id, exc)
            return
        self._put(result, fleet.GAMES, {"kind": "game", "game_id": game_id,
                                        "record": record.to_json()})

    def _unreadable(self, game_id: int, seq: int | None, reason: str, result: Scan) -> None:
        log.error("game %d%s cannot be followed: %s", game_id,
                  "" if seq is None else f" action {seq}", reason)
        self._put(result, fleet.EVENTS, {"kind": "unreadable", "game_id": game_id, "seq": seq})
        self.outbox.set_game(game_id, "damaged", 0 if seq is None else seq)

    # -- learning --------------------------------------------------------------------------------
    def _learning(self, result: Scan) -> None:
        top, alive = self.outbox.learning_top()
        top_row = self.reader.learning_row(top) if top else None
        if top and (top_row is None or learning_digest(top_row) != self.outbox.learning_digest(top)
                    or self.reader.learning_count_upto(top) != alive):
            rows = self._forgotten(top, result)  # answers were cleared on the box
        else:
            rows = []
        rows += self.reader.learning_after(top)
        for row in rows:
            self.outbox.add_learning(row[0], learning_digest(row))
            try:
                record = parse_learning(row)
            except (ValueError, TypeError) as exc:
                log.warning("learning row %s not published: %s", row[0], exc)
                continue
            a = record.attempt
            self._put(result, fleet.LEARNING, {
                "kind": "answer", "id": row[0], "at": record.at, "child": record.child,
                "quiz": a.quiz, "level": a.level, "truth_g": a.truth_g, "guess": a.guess,
                "error": a.error, "correct": a.correct, "retry": a.retry})

    def _forgotten(self, top: int, result: Scan) -> list[tuple[Any, ...]]:
        """Publish the answers no longer on the box; returns the rows at or below ``top`` that
        are new (an id used again after the newest answers were cleared)."""
        now = {row[0]: row for row in self.reader.learning_upto(top)}
        sent = self.outbox.sent_learning()
        gone = sorted(i for i, d in sent.items()
                      if i not in now or learning_digest(now[i]) != d)
        if gone:
            self._put(result, fleet.LEARNING, {"kind": "forget", "ids": gone})
            self.outbox.drop_learning(gone)
        return [row for i, row in sorted(now.items()) if i not in sent or i in gone]

    # -- the live state --------------------------------------------------------------------------
    def live(self) -> dict[str, Any]:
        """The retained ``state`` message: the latest game's public view, or no game."""
        doc: dict[str, Any] = {"v": fleet.FORMAT, "box": self.box.id,
                               "name": self.box.name or self.box.id,
                               "stream": self.outbox.stream, "n": self.outbox.last_n}
        followed = self.followed.get(self.latest) if self.latest is not None else None
        if followed is None:
            return {**doc, "game": None}
        return {**doc, "game": followed.header.game, "game_id": self.latest,
                "journal": self.outbox.journal, "title": GAMES[followed.header.game].title,
                "players": list(followed.header.players), "actions": followed.count,
                "at": followed.last_at, **public.view(followed.state)}

    def _put(self, result: Scan, name: str, body: dict[str, Any]) -> None:
        self.outbox.put(name, body)
        result.messages += 1


__all__ = ["Identity", "Follower", "Followed", "Scan"]
