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
from typing import Any, Iterable

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


def document(past: PastGames, game_id: int) -> dict[str, Any]:
    """One game: a replay document (header fields and the effective actions) plus ``play``."""
    doc = dict(past.header(game_id).to_json())
    doc["actions"] = past.actions(game_id)
    doc["play"] = play(past.record(game_id))
    return doc


def everything(past: PastGames) -> dict[str, Any]:
    """Every ended game, oldest first (the journal's order), each as ``document`` makes it."""
    games = [document(past, r.game_id) for r in reversed(past.list())]
    return {"export": EXPORT, "location": past.box_name or past.box_id, "games": games}


def csv_rows(past: PastGames, game_ids: Iterable[int]) -> list[dict[str, Any]]:
    """One row per effective action of each game, under ``CSV_COLUMNS`` (time ISO 8601 UTC,
    empty when unknown; ``action`` the whole action as JSON)."""
    from .records import game_time

    rows = []
    for game_id in game_ids:
        game = past.header(game_id).game
        for step in past.steps(game_id):
            rows.append({
                "game_id": game_id, "game": game, "seq": step.seq,
                "time": (game_time(step.at) or "") if step.at is not None else "",
                "player": step.action.get("player", ""), "type": step.action.get("type", ""),
                "action": json.dumps(step.action, ensure_ascii=False, sort_keys=True),
                "corrected": int(step.corrected),
                "why": step.correction.why if step.correction is not None else ""})
    return rows


__all__ = ["CSV_COLUMNS", "EXPORT", "csv_rows", "document", "everything", "play"]
