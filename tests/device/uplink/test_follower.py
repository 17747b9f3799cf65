"""The uplink's follower: what the journal gained becomes messages, once, in order, with the
cursor in the uplink's own state (no broker here: the outbox is read directly)."""

from __future__ import annotations

import os

from spielleiter.device.journal.learning import History
from spielleiter.games.learning import Attempt
from spielleiter.device.uplink.reader import JournalReader
from roomkit import TableBox, follower, taken


def kinds(messages):
    return [(m["topic"].rsplit("/", 1)[1], m["kind"]) for m in messages]


def test_every_action_is_published_once_with_its_sequence_number_and_events(tmp_path):
    box = TableBox(tmp_path / "box")
    box.new()
    box.play(5)
    f = follower(box.path, tmp_path / "uplink")
    f.scan()
    first = taken(f.outbox)
    assert kinds(first) == [("events", "start")] + [("events", "action")] * 5
    assert [m["seq"] for m in first[1:]] == [0, 1, 2, 3, 4]
    assert [m["n"] for m in first] == [1, 2, 3, 4, 5, 6]
    assert all(m["box"] == "tisch-1" and m["journal"] == 1 for m in first)
    f.scan()
    assert taken(f.outbox) == []  # nothing new: nothing sent again
    box.play(2)
    f.scan()
    later = taken(f.outbox)
    assert [m["seq"] for m in later] == [5, 6] and [m["n"] for m in later] == [7, 8]
    assert all(isinstance(m["events"], list) for m in first[1:] + later)


def test_a_finished_game_sends_its_status_and_record(tmp_path):
    box = TableBox(tmp_path / "box")
    box.new("bunte-runde", ("Anna", "Ben"))
    box.finish()
    f = follower(box.path, tmp_path / "uplink")
    f.scan()
    messages = taken(f.outbox)
    assert kinds(messages)[-2:] == [("events", "status"), ("games", "game")]
    record = messages[-1]["record"]
    state = box.session.state
    assert record["players"] == ["Anna", "Ben"] and record["status"] == "over"
    assert record["winners"] == list(state.winners())
    assert [s["player"] for s in record["standings"]] == [p for _r, p, _s in state.standings()]
    assert record["box"] == {"id": "tisch-1", "name": "Tisch-1"}
    assert record["actions"] == len(box.session.actions)
    assert f.live()["over"] is True and f.live()["winners"] == list(state.winners())


def test_an_undo_is_published_and_so_is_what_replaced_it(tmp_path):
    box = TableBox(tmp_path / "box")
    box.new("bunte-runde", ("Anna", "Ben"))
    box.play(4)
    f = follower(box.path, tmp_path / "uplink")
    f.scan()
    taken(f.outbox)
    box.session.undo()
    box.session.undo()
    box.play(1)  # undone twice and one new action in between two looks
    f.scan()
    messages = taken(f.outbox)
    assert [(m["kind"], m["seq"]) for m in messages] == [("undo", 3), ("undo", 2), ("action", 2)]
    assert f.live()["actions"] == 3
    assert f.live()["public"] == box.session.state.public()


def test_a_restarted_uplink_goes_on_where_it_stopped(tmp_path):
    box = TableBox(tmp_path / "box")
    box.new()
    box.play(3)
    f = follower(box.path, tmp_path / "uplink")
    f.scan()
    assert len(taken(f.outbox)) == 4
    f.outbox.close()
    f.reader.close()
    box.play(2)
    again = follower(box.path, tmp_path / "uplink")  # a restart: only the state file is kept
    again.scan()
    messages = taken(again.outbox)
    assert [m["seq"] for m in messages] == [3, 4] and [m["n"] for m in messages] == [5, 6]
    assert again.live()["public"] == box.session.state.public()


def test_messages_not_confirmed_before_a_power_cut_are_sent_again(tmp_path):
    box = TableBox(tmp_path / "box")
    box.new()
    box.play(3)
    f = follower(box.path, tmp_path / "uplink")
    f.scan()
    f.outbox.delivered([1, 2])  # the broker confirmed two; then the power went
    f.outbox.close()
    again = follower(box.path, tmp_path / "uplink")
    again.scan()
    assert [m["n"] for m in taken(again.outbox)] == [3, 4]  # same numbers: the room drops twins


def test_learning_answers_and_answers_cleared_on_the_box(tmp_path):
    box = TableBox(tmp_path / "box")
    history = History(box.journal)
    for quiz, correct in (("grams", True), ("grams", False), ("heavier", True)):
        history.add("Mia", Attempt(quiz, 1, 20.0, "21", 1.0, correct))
    history.add("Ole", Attempt("order", 2, 50.0, "1,2,3", 0.0, True))
    f = follower(box.path, tmp_path / "uplink")
    f.scan()
    answers = taken(f.outbox)
    assert [(m["child"], m["quiz"], m["correct"]) for m in answers] == [
        ("Mia", "grams", True), ("Mia", "grams", False), ("Mia", "heavier", True),
        ("Ole", "order", True)]
    assert history.clear("Ole") == 1  # the newest answer goes: its id will be used again
    history.add("Mia", Attempt("balance", 1, 30.0, "30", 0.0, True))
    f.scan()
    messages = taken(f.outbox)
    assert [m["kind"] for m in messages] == ["forget", "answer"]
    assert messages[0]["ids"] == [answers[3]["id"]]
    assert messages[1]["id"] == answers[3]["id"] and messages[1]["quiz"] == "balance"
    history.clear("Mia")
    f.scan()
    assert [m["ids"] for m in taken(f.outbox)] == [[a["id"] for a in answers[:3]]
                                                  + [messages[1]["id"]]]


def test_a_journal_moved_aside_and_started_anew_is_followed_as_a_new_journal(tmp_path):
    box = TableBox(tmp_path / "box")
    box.new()
    box.play(2)
    f = follower(box.path, tmp_path / "uplink")
    f.scan()
    taken(f.outbox)
    box.close()
    os.replace(box.path, box.path.with_name("journal.sqlite3.bad-x"))
    for side in ("-wal", "-shm"):
        if box.path.with_name(box.path.name + side).exists():
            os.replace(box.path.with_name(box.path.name + side),
                       box.path.with_name("journal.sqlite3.bad-x" + side))
    fresh = TableBox(tmp_path / "box")
    fresh.new("bunte-runde", ("Anna", "Ben"))
    fresh.play(1)
    f.scan()
    messages = taken(f.outbox)
    assert [(m["kind"], m["game_id"], m["journal"]) for m in messages] == [
        ("start", 1, 2), ("action", 1, 2)]
    assert [m["n"] for m in messages] == [4, 5]  # the stream goes on


def test_an_action_the_engine_refuses_stops_that_game_and_nothing_else(tmp_path):
    box = TableBox(tmp_path / "box")
    session = box.new()
    box.play(2)
    box.journal.db.execute("UPDATE actions SET action = ? WHERE game_id = ? AND seq = 1",
                           ('{"type": "dance"}', session.game_id))
    history = History(box.journal)
    history.add("Mia", Attempt("grams", 1, 20.0, "20", 0.0, True))
    f = follower(box.path, tmp_path / "uplink")
    f.scan()
    assert [m["kind"] for m in taken(f.outbox)] == ["start", "action", "unreadable", "answer"]
    box.play(0)
    f.scan()
    assert taken(f.outbox) == []


def test_the_reader_never_writes_the_journal(tmp_path):
    box = TableBox(tmp_path / "box")
    box.new()
    box.play(3)
    box.journal.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = box.path.read_bytes()
    reader = JournalReader(box.path)
    reader.open()
    with reader.snapshot():
        assert len(reader.actions(1)) == 3
    try:
        reader._db.execute("CREATE TABLE x (y)")
    except Exception as exc:
        assert "readonly" in str(exc).replace("-", "").lower()
    else:
        raise AssertionError("a read-only connection wrote")
    reader.close()
    assert box.path.read_bytes() == before
