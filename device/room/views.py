"""What the room's page shows, read from the store: the boxes live, the finished games, and for
the class each child's answers per quiz. Plain data; ``pages`` turns it into HTML.

A box is ``offline`` when its uplink said so (or the broker did, by its last will), ``stale``
when it is online but the room has heard nothing from it for ``stale_s`` (a box that stops
talking without the broker noticing yet), ``unheard`` while the broker itself is away (the room
hears nobody, which says nothing of the box), else ``live``. Children are one child across boxes by
their name without regard to case, as the box itself compares names; a child's level in a quiz
is the box's own rule (``games.learning.levels``) over all of the child's answers in time order.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ...games import learning
from ...games.learning import Attempt
from . import schema
from .store import Reader
from .tables import VISIBLE_ACTION, VISIBLE_ANSWER

STALE_S = 180.0  # three heartbeats


@dataclass(frozen=True)
class BoxView:
    box: str
    name: str
    condition: str            # live, stale, offline
    heard_ago_s: float | None
    game: str | None          # the title of the latest game, None when none
    status: str | None        # running / over
    players: tuple[str, ...]
    waiting_for: tuple[str, ...]
    standings: tuple[tuple[Any, str, Any], ...]  # rank, player, score as the box sent them
    winners: tuple[str, ...]
    actions: int
    missing: int              # stream messages the room lacks (sent, not arrived yet)
    last_answer: "AnswerView | None" = None
    refused: int = 0          # messages refused at the room's door since it started


@dataclass(frozen=True)
class AnswerView:
    box: str
    at: float
    child: str
    quiz: str
    level: int
    truth_g: float | None
    guess: str | None
    error: float | None
    correct: bool
    retry: bool


@dataclass
class ChildQuiz:
    """One child's answers in one quiz, oldest first, with the level they stand at now."""

    child: str
    quiz: str
    answers: list[AnswerView] = field(default_factory=list)

    @property
    def right(self) -> int:
        return sum(a.correct for a in self.answers)

    @property
    def level(self) -> int:
        return learning.levels(_attempt(a) for a in self.answers)[self.quiz]


def _attempt(a: AnswerView) -> Attempt:
    return Attempt(a.quiz, a.level, a.truth_g or 0.0, a.guess or "", a.error or 0.0, a.correct,
                   a.retry)


SANE = " AND a.at BETWEEN 0 AND 32503680000"  # a time a calendar holds (see ``schema``)
ANSWER_COLUMNS = ("a.box, a.at, a.child, a.quiz, a.level, a.truth_g, a.guess, a.error, "
                  "a.correct, a.retry")


def _answer(row: tuple[Any, ...]) -> AnswerView:
    box, at, child, quiz, level, truth, guess, error, correct, retry = row
    return AnswerView(box, at, child, quiz, level, truth, guess, error, bool(correct), bool(retry))


def boxes(read: Reader, now: float, stale_s: float = STALE_S, *, away: bool = False,
          refused: dict[str, int] | None = None) -> list[BoxView]:
    """Every box the room has heard of, by name. While the broker is ``away`` the room hears
    nobody, which says nothing of the boxes: each keeps its last known state, ``unheard``."""
    out = []
    last = {row[0]: _answer(row) for row in read(
        f"SELECT {ANSWER_COLUMNS} FROM answers a {VISIBLE_ANSWER}{SANE} AND a.n = "
        "(SELECT MAX(n) FROM answers x WHERE x.box = a.box AND x.stream = a.stream)")}
    missing = dict(read("SELECT m.box, MAX(m.n) - COUNT(*) FROM messages m JOIN boxes b ON "
                        "b.box = m.box AND b.stream = m.stream GROUP BY m.box"))
    for box, status, state_text, heard in read(
            "SELECT box, status, state, heard FROM boxes ORDER BY box"):
        state = _json(state_text)
        if not schema.state_ok(state):
            state = {}  # kept by an older room that let it in: shown as no game
        ago = None if heard is None else max(0.0, now - heard)
        condition = ("offline" if status == "offline" else "unheard" if away else
                     "stale" if ago is None or ago > stale_s else "live")
        game = state.get("title") if state.get("game") else None
        out.append(BoxView(
            box, str(state.get("name") or box), condition, ago, game,
            ("over" if state.get("over") else "running") if game else None,
            _names(state.get("players")), _names(state.get("waiting_for")),
            tuple((s.get("rank"), str(s.get("player")), s.get("score"))
                  for s in state.get("standings") or [] if isinstance(s, dict)),
            _names(state.get("winners")), int(state.get("actions") or 0),
            int(missing.get(box) or 0), last.get(box), (refused or {}).get(box, 0)))
    return sorted(out, key=lambda b: (b.name.casefold(), b.box))


def _json(text: str | None) -> dict[str, Any]:
    try:
        value = json.loads(text) if text else {}
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def _names(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def games(read: Reader, limit: int = 50) -> list[dict[str, Any]]:
    """The finished games, newest first: each box's latest record of a game that no later undo
    reopened."""
    rows = read(
        "SELECT r.box, r.record FROM records r JOIN boxes b ON b.box = r.box AND "
        "b.stream = r.stream WHERE r.n = (SELECT MAX(n) FROM records x WHERE x.box = r.box "
        "AND x.stream = r.stream AND x.journal = r.journal AND x.game_id = r.game_id) AND NOT "
        "EXISTS (SELECT 1 FROM undos u WHERE u.box = r.box AND u.stream = r.stream AND "
        "u.journal = r.journal AND u.game_id = r.game_id AND u.n > r.n) "
        "ORDER BY r.rowid DESC LIMIT ?", (limit,))
    names = {box: str(_json(state).get("name") or box)
             for box, state in read("SELECT box, state FROM boxes")}
    # the table as the room knows the box, never as a record names it
    return [{**record, "box": names.get(box, box)} for box, text in rows
            if schema.record_ok(record := _json(text))]


def actions(read: Reader, box: str) -> list[tuple[int, int, int, dict[str, Any]]]:
    """(journal, game id, seq, redacted action) of every action the box's games stand on now."""
    return [(journal, game_id, seq, _json(text)) for journal, game_id, seq, text in read(
        f"SELECT a.journal, a.game_id, a.seq, a.action FROM actions a {VISIBLE_ACTION} "
        "AND a.box = ? ORDER BY a.journal, a.game_id, a.seq", (box,))]


def answers(read: Reader, child: str | None = None) -> list[AnswerView]:
    """Every answer kept (one child's: by name without regard to case), oldest first."""
    where, args = ("", ()) if child is None else (" AND a.child_key = ?", (child.casefold(),))
    return [_answer(row) for row in read(
        f"SELECT {ANSWER_COLUMNS} FROM answers a {VISIBLE_ANSWER}{SANE}{where} "
        "ORDER BY a.at, a.box, a.n", args)]


def by_child(rows: list[AnswerView]) -> dict[str, dict[str, ChildQuiz]]:
    """Answers grouped child by child (the name as last written), quiz by quiz."""
    names: dict[str, str] = {}
    grouped: dict[str, dict[str, ChildQuiz]] = {}
    for a in rows:
        key = a.child.casefold()
        names[key] = a.child
        grouped.setdefault(key, {}).setdefault(a.quiz, ChildQuiz(a.child, a.quiz)
                                               ).answers.append(a)
    return {names[k]: {q: grouped[k][q] for q in learning.QUIZZES if q in grouped[k]}
            for k in sorted(grouped, key=lambda k: names[k].casefold())}


__all__ = ["AnswerView", "BoxView", "ChildQuiz", "STALE_S", "actions", "answers", "boxes", "by_child",
           "games"]
