"""A finished game's record (device/past/records.py): what the room's ``games`` topic and the export
of past games share, built by replaying the journal's game through its engine."""

from __future__ import annotations

from spielleiter.device.past.records import PLAUSIBLE_FROM, GameRecord, game_time
from roomkit import TableBox


def test_a_record_is_the_engines_result_in_seat_order(tmp_path):
    box = TableBox(tmp_path / "box", seed=2)
    session = box.new("bunte-runde", ("Anna", "Ben", "Cem"))
    box.finish()
    record = GameRecord.from_journal(box.journal.db, session.game_id, box_id="tisch-3",
                                     box_name="Tisch 3")
    state = session.state
    assert record.players == ("Anna", "Ben", "Cem") and record.status == "over"
    assert record.winners == tuple(state.winners()) and record.actions == len(session.actions)
    assert [(s.rank, s.player, s.score) for s in record.standings] == state.standings()
    assert {s.player: s.seat for s in record.standings} == {"Anna": 1, "Ben": 2, "Cem": 3}
    assert all(s.winner == (s.player in state.winners()) for s in record.standings)
    doc = record.to_json()
    assert doc["box"] == {"id": "tisch-3", "name": "Tisch 3"} and doc["title"] == "Bunte Runde"
    assert doc["duration_s"] is not None and doc["duration_s"] >= 0
    assert doc["started"].endswith("+00:00") and "seed" not in doc


def test_trudels_grams_are_in_the_record_only_once_the_game_revealed_them(tmp_path):
    box = TableBox(tmp_path / "box", seed=1)
    session = box.new("tante-trudels-troedel", ("Anna", "Ben"))
    box.play(10)
    running = GameRecord.from_journal(box.journal.db, session.game_id)
    assert all(s.score is None for s in running.standings)  # the engine keeps them secret
    box.finish()
    over = GameRecord.from_journal(box.journal.db, session.game_id)
    assert all(isinstance(s.score, float) for s in over.standings)


def test_a_date_before_the_clock_was_set_is_unknown():
    assert game_time(0.0) is None  # a Pi without a real-time clock, booted offline: 1970
    assert game_time(None) is None
    assert game_time(PLAUSIBLE_FROM + 86400) == "2024-01-02T00:00:00+00:00"
