"""A finished game corrected after the game reaches the room again with its corrected record
(the result is re-derived by replay, and what shows it says it changed)."""

from __future__ import annotations

from spielleiter.device.past.games import PastGames
from roomkit import TableBox, follower, taken


def records(messages):
    return [m["record"] for m in messages if m["kind"] == "game"]


def a_changing_correction(box):
    """Correct the Trudel game so that the other player wins; the new winner."""
    session = box.session
    past = PastGames(box.journal)
    loser = next(s.player for s in past.record(session.game_id).standings if not s.winner)
    potd = next(a["grams"] for a in session.actions if a["type"] == "weigh_potd")
    seq = max(i for i, a in enumerate(session.actions)
              if a.get("player") == loser and a["type"] == "weigh_basket")
    past.correct(session.game_id, seq, {**session.actions[seq], "grams": round(potd - 0.1, 1)},
                 "weighed with the coupon in it")
    return loser


def test_a_correction_after_the_game_publishes_the_corrected_record_once(tmp_path):
    box = TableBox(tmp_path / "box", seed=1)
    box.new("tante-trudels-troedel", ("Anna", "Ben"))
    box.finish()
    f = follower(box.path, tmp_path / "uplink")
    f.scan()
    (first,) = records(taken(f.outbox))
    assert "corrected" not in first
    winner = a_changing_correction(box)
    f.scan()
    (again,) = records(taken(f.outbox))
    assert again["game_id"] == first["game_id"] and again["corrected"] is True
    assert again["winners"] == [winner] != first["winners"]
    assert any("weighed with the coupon in it" in line for line in again["changes"])
    f.scan()
    assert taken(f.outbox) == []
    f2 = follower(box.path, tmp_path / "uplink")  # a restarted uplink remembers it was sent
    f2.scan()
    assert records(taken(f2.outbox)) == []


def test_a_game_corrected_before_the_uplink_saw_it_end_is_published_corrected(tmp_path):
    box = TableBox(tmp_path / "box", seed=1)
    box.new("tante-trudels-troedel", ("Anna", "Ben"))
    box.finish()
    winner = a_changing_correction(box)
    f = follower(box.path, tmp_path / "uplink")
    f.scan()
    (published,) = records(taken(f.outbox))
    assert published["corrected"] and published["winners"] == [winner]
    f.scan()
    assert records(taken(f.outbox)) == []
