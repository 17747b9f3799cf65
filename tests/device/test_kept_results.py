"""Results kept with the journal: written in the transaction of a game's end with the rules
that made it, read by past games a page at a time with SQL, and brought up to date after a
rules update off the event loop, where a changed result shows as "result re-checked"."""

from __future__ import annotations

import json
import sqlite3

import pytest

from spielleiter.device.modes.past.listing import game_page
from spielleiter.device.past import results
from spielleiter.device.past.games import PastGames
from spielleiter.device.past.recheck import MARK, Rechecker, needed, recheck, stale
from spielleiter.device.past.records import GameRecord
from copies import copy_games
from recordskit import Table, shipped_games


@pytest.fixture
def table(tmp_path):
    t = Table(tmp_path / "box", seed=4)
    yield t
    t.close()


def counting(monkeypatch):
    built: list[int] = []
    original = GameRecord.build.__func__
    monkeypatch.setattr(GameRecord, "build", classmethod(
        lambda cls, *a, **k: built.append(a[0]) or original(cls, *a, **k)))
    return built


def statements(db, do):
    seen: list[str] = []
    db.set_trace_callback(seen.append)
    try:
        do()
    finally:
        db.set_trace_callback(None)
    return seen


def test_a_game_that_ends_keeps_its_result_with_the_rules_that_made_it(table):
    session = table.new("bunte-runde")
    table.finish()
    (row,) = table.journal.db.execute(
        "SELECT game_id, rules, rechecked, result FROM record_cache").fetchall()
    assert row[:3] == (session.game_id, results.rules(), 0)
    assert json.loads(row[3])["winners"] == list(session.state.winners())


def test_a_page_of_past_games_costs_the_same_sql_and_no_replay_with_4_or_200_games(
        table, monkeypatch):
    table.every_game()
    past = PastGames(table.journal)
    past.list(limit=1)  # the tables' columns, once
    built = counting(monkeypatch)
    small = statements(table.journal.db, lambda: past.list(limit=1))
    small_next = statements(table.journal.db,
                            lambda: past.list(limit=1, older_than=past.list(limit=1)[0].game_id))
    copy_games(table.journal.db, 200)
    large = statements(table.journal.db, lambda: past.list(limit=1))
    large_next = statements(table.journal.db,
                            lambda: past.list(limit=1, older_than=past.list(limit=1)[0].game_id))
    assert built == []
    assert len(large) == len(small) and len(large_next) == len(small_next)
    assert not any("FROM actions WHERE game_id" in s for s in large + large_next)
    assert past.count() == 200


def test_other_rules_never_make_the_list_replay_and_the_recheck_marks_a_changed_result(
        table, monkeypatch):
    ids = table.every_game()
    db = table.journal.db
    game_id, text = db.execute("SELECT game_id, result FROM record_cache ORDER BY game_id "
                               "LIMIT 1").fetchone()
    truth = json.loads(text)
    made_by_old_rules = {**truth, "winners": [], "standings": [
        [r, p, s, sc, False] for r, p, s, sc, _w in truth["standings"]]}
    db.execute("UPDATE record_cache SET result=?, rules='old rules' WHERE game_id=?",
               (json.dumps(made_by_old_rules), game_id))
    db.execute("UPDATE record_cache SET rules='old rules'")
    built = counting(monkeypatch)
    past = PastGames(table.journal)
    shown = {r.game_id: r for r in past.list()}
    assert built == [] and shown[game_id].winners == ()  # read as kept, nothing waits
    assert len(stale(db, results.rules())) == len(ids)
    progress = recheck(table.path)
    assert (progress.total, progress.changed, progress.finished) == (len(ids), 1, True)
    assert stale(db, results.rules()) == []
    again = {r.game_id: r for r in past.list()}
    assert list(again[game_id].winners) == truth["winners"] and again[game_id].rechecked
    assert "result re-checked" in game_page(again[game_id]).lines
    assert [g for g, r in again.items() if r.rechecked] == [game_id]
    assert again[game_id].to_json()["rechecked"] is True


def test_the_recheck_runs_in_a_process_of_its_own_and_notes_when_nothing_is_left(table):
    table.every_game(shipped_games())  # the product's own process knows the shipped games
    db = table.journal.db
    db.execute("DELETE FROM record_cache")
    assert needed(db)
    rechecker = Rechecker.start(table.path)
    rechecker.join(120)
    assert not rechecker.running and rechecker.returncode == 0
    assert stale(db, results.rules()) == [] and not needed(db)
    rechecker.close()
    db.execute("UPDATE meta SET value='older rules' WHERE key=?", (MARK,))
    assert needed(db)  # an update of the rules: asked with one row, not every game


def test_an_undo_of_an_ended_game_drops_its_kept_result(table):
    session = table.new("tatort-tonne")
    table.finish()
    assert table.journal.db.execute("SELECT COUNT(*) FROM record_cache").fetchone()[0] == 1
    session.undo()
    assert table.journal.db.execute("SELECT COUNT(*) FROM record_cache").fetchone()[0] == 0
    session.abandon()
    (record,) = PastGames(table.journal).list()
    assert record.status == "abandoned" and record.actions == len(session.actions)


def test_a_game_changed_while_it_was_rechecked_is_left_for_its_own_end(table, monkeypatch):
    session = table.new("tatort-tonne")
    table.finish()
    table.journal.db.execute("DELETE FROM record_cache")
    from spielleiter.device.past import games

    real = games.PastGames.derive

    def undo_meanwhile(self, game_id):
        found = real(self, game_id)
        session.undo()  # the box takes the last action back while the result is replayed
        return found

    monkeypatch.setattr(games.PastGames, "derive", undo_meanwhile)
    recheck(table.path)
    assert table.journal.db.execute("SELECT COUNT(*) FROM record_cache").fetchone()[0] == 0


def test_opening_past_games_after_a_rules_update_replays_nothing_and_rechecks_aside(
        fast_game_box_factory, tmp_path, monkeypatch):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "ui"))
    from pastkit import journal_at, record_game
    from test_past_games_kept import open_past

    from spielleiter.device import i18n
    from spielleiter.device.config.paths import JOURNAL_NAME

    state = tmp_path / "state"
    state.mkdir()
    with journal_at(state / JOURNAL_NAME) as journal:
        for seed, game in enumerate(("bunte-runde", "tatort-tonne", "bunte-runde")):
            record_game(journal, game, ["Mia", "Ben", "Oma"], seed)
    recheck(state / JOURNAL_NAME)
    db = sqlite3.connect(state / JOURNAL_NAME)
    db.execute("UPDATE record_cache SET rules='older rules'")
    db.execute("UPDATE meta SET value='older rules' WHERE key=?", (MARK,))
    db.commit()
    db.close()
    box = fast_game_box_factory(state_dir=state)
    i18n.use("en")
    built = counting(monkeypatch)
    open_past(box)
    assert built == [] and box.app.view().lines[0] == "Bunte Runde"
    mode = box.app.top.mode
    assert mode.rechecker is not None
    mode.rechecker.join(120)
    assert mode.rechecker.returncode == 0 and built == []  # the replays were not the box's
    assert stale(box.journal.db, results.rules()) == []
    box.tap("host.back")


def test_a_journal_with_every_result_kept_starts_no_recheck_and_notes_it(table):
    from spielleiter.device.past.recheck import start_if_needed

    table.every_game()  # each game kept its result as it ended
    db = table.journal.db
    assert needed(db)  # never noted yet
    assert start_if_needed(table.journal) is None
    assert not needed(db) and db.execute(
        "SELECT value FROM meta WHERE key=?", (MARK,)).fetchone()[0] == results.rules()
