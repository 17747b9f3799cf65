"""Past games taken elsewhere: a game as a replay document with what a board-game logger keeps.

The JSON of one game is exactly a replay document (``spielleiter replay`` reads it: the header's
fields and the effective actions, corrections applied), so ``spielleiter games export ID |
spielleiter replay -`` gives the game's final state. Beside them, under ``play``, what a logging
app asks for: date, duration, game, players in seat order with scores and ranks, winners, and the
box's name as the location (docs/past-games.md lists every field). CSV has one row per effective
action with its sequence number and time.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Iterator, TextIO

from .games import PastGames
from .records import GameRecord

EXPORT = 1  # ``play.export``: bumped when a field of ``play`` changes meaning
CSV_COLUMNS = ("game_id", "game", "seq", "time", "player", "type", "action", "corrected", "why")


def play(record: GameRecord) -> dict[str, Any]:
    """What a board-game logger keeps of a play."""
    by_seat = sorted(record.standings, key=lambda s: s.seat)
    doc: dict[str, Any] = {
        "export": EXPORT, "game_id": record.game_id, "game": record.game, "title": record.title,
        "status": record.status, "date": record.started, "ended": record.ended,
        "duration_s": record.duration_s, "location": record.box_name or record.box_id,
        "players": [{"seat": s.seat, "name": s.player, "score": s.score, "rank": s.rank,
                     "winner": s.winner} for s in by_seat],
        "winners": list(record.winners), "corrected": record.corrected,
        "changes": list(record.changes),
    }
    if not by_seat:  # a game the engine could not rank still names its players in seat order
        doc["players"] = [{"seat": i, "name": p, "score": None, "rank": None, "winner": False}
                          for i, p in enumerate(record.players, 1)]
    if record.error:
        doc["error"] = record.error
    return doc


BATCH = 100  # games read at a time by a streaming export: its memory does not grow with them


def document(past: PastGames, game_id: int, record: GameRecord | None = None
             ) -> dict[str, Any]:
    """One game: a replay document (header fields and the effective actions) plus ``play``
    (``record``: the game's record when it is at hand, else it is read)."""
    doc = dict(past.header(game_id).to_json())
    doc["actions"] = past.actions(game_id)
    doc["play"] = play(past.record(game_id) if record is None else record)
    return doc


def documents(past: PastGames) -> Iterator[dict[str, Any]]:
    """Every ended game's ``document``, oldest first (the journal's order), read a batch at a
    time from the kept results (a game is replayed only when its result was never kept)."""
    ids = past.ids()
    for first in range(0, len(ids), BATCH):
        for record in past.records(ids[first:first + BATCH]):
            yield document(past, record.game_id, record)


def everything(past: PastGames) -> dict[str, Any]:
    """Every ended game, oldest first, in one document (small journals; ``write_all`` streams)."""
    return {"export": EXPORT, "location": past.box_name or past.box_id,
            "games": list(documents(past))}


def write_all(past: PastGames, out: TextIO) -> None:
    """``everything`` as indented JSON, written game by game: the same text as
    ``json.dumps(everything(past), indent=2, ensure_ascii=False)``, in flat memory."""
    head = json.dumps({"export": EXPORT, "location": past.box_name or past.box_id},
                      indent=2, ensure_ascii=False)
    out.write(head[:-2] + ',\n  "games": [')
    first = True
    for doc in documents(past):
        text = json.dumps(doc, indent=2, ensure_ascii=False).replace("\n", "\n    ")
        out.write(("\n    " if first else ",\n    ") + text)
        first = False
    out.write("]\n}\n" if first else "\n  ]\n}\n")


def csv_rows(past: PastGames, game_ids: Iterable[int]) -> Iterator[dict[str, Any]]:
    """One row per effective action of each game, under ``CSV_COLUMNS`` (time ISO 8601 UTC,
    empty when unknown; ``action`` the whole action as JSON; ``seq`` the step's number as the
    box and ``games show`` count, from 1), game by game."""
    from .records import game_time

    for game_id in game_ids:
        game = past.header(game_id).game
        for step in past.steps(game_id):
            yield {
                "game_id": game_id, "game": game, "seq": step.seq + 1,
                "time": (game_time(step.at) or "") if step.at is not None else "",
                "player": step.action.get("player", ""), "type": step.action.get("type", ""),
                "action": json.dumps(step.action, ensure_ascii=False, sort_keys=True),
                "corrected": int(step.corrected),
                "why": step.correction.why if step.correction is not None else ""}


__all__ = ["CSV_COLUMNS", "EXPORT", "csv_rows", "document", "documents", "everything", "play",
           "write_all"]
