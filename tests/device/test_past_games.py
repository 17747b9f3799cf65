"""Past games (device/past/games.py, issue 21 points 1, 3 and 5): every ended game as a record,
newest first by the journal's order, its effective actions, and corrections after the game that
keep the original and re-derive the result by replay."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from spielleiter.device.past import results as record_cache
from spielleiter.device.past.corrections import Correction
from spielleiter.device.journal.header import Header
from spielleiter.device.journal.store import Journal
from spielleiter.device.past.games import PastGames, open_read_only
from spielleiter.device.past.records import GameRecord
from spielleiter.device.past.recheck import recheck
from spielleiter.device.replay import replay, start
from spielleiter.device.session import Session
from spielleiter.device.text import InputError
from spielleiter.device.journal.timebase import TimeSource
from recordskit import PLAYERS, T0, Table

DATA = Path(__file__).parent / "data"


@pytest.fixture
def table(tmp_path):
    t = Table(tmp_path / "box", seed=4)
    yield t
    t.close()


def journal_actions(db, game_id):
    return [text for (text,) in db.execute(
        "SELECT action FROM actions WHERE game_id=? ORDER BY seq", (game_id,))]


def a_roll_that_can_be_corrected(past, game_id):
    """(seq, corrected action) of a Trudel die roll whose other value still replays to the end."""
    actions = past.actions(game_id)
    header = past.header(game_id)
    for seq, action in enumerate(actions):
        if action.get("type") != "roll":
            continue
        for value in range(1, 7):
            if value == action["value"]:
                continue
            trial = actions[:seq] + [{**action, "value": value}] + actions[seq + 1:]
            state, _events, error = replay(start(header), trial)
            if error is None and state.is_over:
                return seq, {**action, "value": value}
    raise AssertionError("no correctable roll")


# -- listing ---------------------------------------------------------------------------------------
def test_ended_games_are_listed_newest_first_in_the_journals_order_even_when_the_clock_jumps_back(
        table):
    first = table.new("bunte-runde")
    table.finish()
    table.clock.passes(-10 * 365 * 86400)  # the clock jumped ten years back between two games
    second = table.new("tatort-tonne")
    table.finish()
    table.new("currency-torraku")
    table.play(3)  # still running: not a past game
    records = PastGames(table.journal).list()
    assert [r.game_id for r in records] == [second.game_id, first.game_id]
    assert records[1].started == "2027-01-15T08:00:05+00:00"
    assert records[0].started is None  # 2017 cannot be a date this box saw: unknown, not wrong


def test_an_abandoned_game_is_listed_too_without_a_winner(table):
    session = table.new("tatort-tonne")
    table.play(4)
    session.abandon()
    (record,) = PastGames(table.journal).list()
    assert record.status == "abandoned" and record.winners == () and record.actions == 4


def test_a_record_says_who_sat_where_the_scores_and_the_winners_as_the_engine_ranks_them(table):
    session = table.finish() if table.new("currency-torraku") else None
    record = PastGames(table.journal, box_name="Küche").record(session.game_id)
    assert record.players == ("Cem", "Anna", "Ben") and record.box_name == "Küche"
    assert record.winners == session.state.winners()
    assert [(s.rank, s.player, s.score) for s in record.standings] == session.state.standings()
    assert record.duration_s == pytest.approx(5.0 * len(session.actions), abs=0.2)
    assert not record.corrected and "corrected" not in record.to_json()


def test_filters_find_a_players_games_in_any_case_a_game_by_name_or_title_and_refuse_unknown(
        table):
    ids = table.every_game()
    past = PastGames(table.journal)
    assert [r.game_id for r in past.list(player="cem")] == sorted(
        (i for g, i in ids.items() if "Cem" in PLAYERS[g]), reverse=True)
    assert [r.game_id for r in past.list(game="Tante Trudels Trödel")] == \
        [ids["tante-trudels-troedel"]]
    assert [r.game_id for r in past.list(game="bunte-runde")] == [ids["bunte-runde"]]
    assert past.list(player="Zoe") == []
    with pytest.raises(InputError, match="unknown game 'chess'"):
        past.list(game="chess")
    with pytest.raises(InputError, match="not a date"):
        past.list(since="yesterday")


def test_since_keeps_later_games_and_an_undated_game_played_after_a_dated_one(tmp_path):
    pi = {"synced": True, "wall": T0, "mono": 100.0, "boot": "b1"}

    def tick():
        pi["wall"] += 60
        pi["mono"] += 60

    source = TimeSource(wall=lambda: (tick(), pi["wall"])[1], mono=lambda: pi["mono"],
                        synced=lambda: pi["synced"], boot_id=lambda: pi["boot"])
    journal = Journal(tmp_path / "journal.sqlite3", time_source=source)
    header = Header("tatort-tonne", ("Ann", "Bob"), {}, 1)
    ids = []
    for boot in ("b1", "b2"):
        pi["boot"], pi["synced"] = boot, boot == "b1"  # the second boot never sees network time
        pi["wall"] += 86400 * 2
        session = Session.new(journal, header)
        journal.set_status(session.game_id, "abandoned")
        ids.append(session.game_id)
        journal.close()
        journal = Journal(tmp_path / "journal.sqlite3", time_source=source)
    past = PastGames(journal)
    dated, undated = past.record(ids[0]), past.record(ids[1])
    assert dated.started is not None and undated.started is None
    assert [r.game_id for r in past.list(since=dated.started[:10])] == [ids[1], ids[0]]
    assert past.list(since="2030-01-01") == []  # nothing dated after it: the undated one unknown
    journal.close()


def test_a_date_is_put_right_once_the_clock_synchronises_later_in_the_same_boot(tmp_path):
    pi = {"synced": False, "wall": 1_600_000_000.0, "mono": 30.0}
    source = TimeSource(wall=lambda: pi["wall"], mono=lambda: pi["mono"],
                        synced=lambda: pi["synced"], boot_id=lambda: "boot-1")
    journal = Journal(tmp_path / "journal.sqlite3", time_source=source)
    session = Session.new(journal, Header("tatort-tonne", ("Ann", "Bob"), {}, 1))
    pi["mono"] += 300
    journal.set_status(session.game_id, "abandoned")
    past = PastGames(journal)
    assert past.record(session.game_id).started is None  # the fake-hwclock's 2020: unknown
    assert past.record(session.game_id).duration_s == 300.0  # the monotonic clock knows
    pi.update(synced=True, wall=T0, mono=pi["mono"] + 30)
    journal.add_note("tick", {})  # anything written now anchors the boot
    assert past.record(session.game_id).started == "2027-01-15T07:54:30+00:00"
    journal.close()


def test_a_game_whose_header_cannot_be_read_is_left_out_and_named(table):
    table.new("tatort-tonne")
    table.finish()
    keep = table.new("bunte-runde")
    table.finish()
    table.journal.db.execute("UPDATE games SET header='{broken' WHERE id=1")
    past = PastGames(table.journal)
    assert [r.game_id for r in past.list()] == [keep.game_id]
    assert past.problems and "game 1" in past.problems[0]


def test_a_read_only_connection_lists_the_same_games_and_writes_nothing(table):
    ids = table.every_game()
    table.journal.close()
    before = table.path.read_bytes()
    db = open_read_only(table.path)
    listed = [r.to_json() for r in PastGames(db).list()]
    db.close()
    assert len(listed) == len(ids) and table.path.read_bytes() == before
    with Journal(table.path, clock=table.clock) as journal:
        assert [r.to_json() for r in PastGames(journal).list()] == listed


def test_the_journal_of_the_current_release_lists_its_ended_games(tmp_path):
    copy = tmp_path / "journal.sqlite3"
    shutil.copy(DATA / "journal-0.1.0.sqlite3", copy)
    db = open_read_only(copy)  # read as it is, schema 2, without migrating it
    read_only = PastGames(db).list()
    db.close()
    assert [(r.game_id, r.game, r.status) for r in read_only] == [
        (3, "currency-torraku", "over"), (2, "bunte-runde", "abandoned"),
        (1, "tatort-tonne", "over")]
    assert read_only[2].players == ("Anna", "Ben", "Cleo") and read_only[2].winners
    assert read_only[2].started is not None  # 2026: kept before the boots were, and plausible
    with Journal(copy) as journal:  # and as the box opens it, migrated
        assert [r.to_json() for r in PastGames(journal).list()] == \
            [r.to_json() for r in read_only]
        assert len(PastGames(journal).learning()) == 6


def test_opening_a_file_that_is_not_a_journal_is_refused(tmp_path):
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE meta (key TEXT, value TEXT)")
    with pytest.raises(InputError, match="not a Spielleiter journal"):
        open_read_only(other)
    with pytest.raises(InputError, match="cannot read"):
        open_read_only(tmp_path / "absent.sqlite3")


# -- corrections -----------------------------------------------------------------------------------
def test_a_correction_is_a_new_row_the_original_stays_and_the_result_is_replayed(table):
    session = table.new("tante-trudels-troedel")
    table.finish()
    past = PastGames(table.journal)
    original = journal_actions(table.journal.db, session.game_id)
    seq, fixed = a_roll_that_can_be_corrected(past, session.game_id)
    correction = past.correct(session.game_id, seq, fixed, "  mistyped   the die ")
    assert isinstance(correction, Correction) and correction.after == fixed
    assert correction.before == session.actions[seq] and correction.why == "mistyped the die"
    assert correction.at is not None
    assert journal_actions(table.journal.db, session.game_id) == original
    assert past.actions(session.game_id)[seq] == fixed
    assert past.corrections(session.game_id) == [correction]
    record = past.record(session.game_id)
    assert record.corrected and record.changes[0].startswith(
        f"step {seq + 1} (Anna roll) value {session.actions[seq]['value']} -> {fixed['value']}")
    assert record.changes[0].endswith(": mistyped the die")
    assert record.to_json()["corrected"] is True
    assert past.original(session.game_id).corrected is False


def test_a_corrected_weighing_changes_the_winner_and_the_record_says_so(table):
    session = table.new("tante-trudels-troedel", options={"goal": "heaviest"})
    table.finish()
    past = PastGames(table.journal)
    before = past.record(session.game_id)
    loser = next(s for s in before.standings if not s.winner)
    weighing = max(seq for seq, a in enumerate(session.actions)
                   if a.get("player") == loser.player and "grams" in a)
    action = {**session.actions[weighing], "grams": 199.9}  # the most a basket may weigh
    past.correct(session.game_id, weighing, action, "the cat sat on the pan")
    after = past.record(session.game_id)
    assert after.winners == (loser.player,)
    assert f"winners: {loser.player} (was {', '.join(before.winners)})" in after.changes
    assert any(line.startswith(f"{loser.player}: 199.9 (was ") for line in after.changes)


def test_a_later_correction_of_the_same_action_wins_and_both_are_kept(table):
    session = table.new("tante-trudels-troedel")
    table.finish()
    past = PastGames(table.journal)
    seq, fixed = a_roll_that_can_be_corrected(past, session.game_id)
    past.correct(session.game_id, seq, fixed, "first try")
    past.correct(session.game_id, seq, session.actions[seq], "it was right after all")
    assert table.journal.db.execute("SELECT COUNT(*) FROM corrections").fetchone()[0] == 2
    assert past.corrections(session.game_id) == []  # put back as played: nothing corrected
    assert past.actions(session.game_id) == session.actions
    assert not past.record(session.game_id).corrected


@pytest.mark.parametrize("case, message", [
    ("running", "Only a finished game can be corrected."),
    ("no such action", "The game has no step"),
    ("no reason", "Say why it is corrected."),
    ("unchanged", "That is what the game already has."),
    ("illegal", "Not possible: then step 1 would"),
    ("not over", "Not possible: then the game would not be over."),
    ("no game", "There is no game 99."),
])
def test_a_correction_that_cannot_be_is_refused_with_a_reason_and_nothing_is_written(
        table, case, message):
    session = table.new("tatort-tonne")
    table.finish()
    past = PastGames(table.journal)
    game_id, seq, why = session.game_id, 0, "because"
    action = dict(session.actions[0])
    if case == "running":
        table.new("bunte-runde")
        table.play(2)
        game_id = table.session.game_id
    elif case == "no such action":
        seq = len(session.actions)
    elif case == "no reason":
        action["card"] = "alibi" if action.get("card") != "alibi" else "steal"
        why = "   "
    elif case == "illegal":
        action["player"] = "Nobody"
    elif case == "not over":
        seq, action = len(session.actions) - 1, None
    elif case == "no game":
        game_id = 99
    with pytest.raises(InputError, match=message):
        past.correct(game_id, seq, action, why)
    assert table.journal.db.execute("SELECT COUNT(*) FROM corrections").fetchone()[0] == 0


def test_a_read_only_journal_cannot_be_corrected(table):
    session = table.new("tatort-tonne")
    table.finish()
    db = open_read_only(table.path)
    with pytest.raises(InputError, match="reading only"):
        PastGames(db).correct(session.game_id, 0, {"type": "x"}, "why")
    db.close()


def test_removing_an_action_that_should_not_have_happened(table):
    """A correction to None leaves the action out: a choice made again before the last one was
    in (Tatort Tonne, T2) did not need the first; the last choice, which ended it, was needed."""
    session = table.new("tatort-tonne", ("Anna", "Ben"), {"trash": 2})
    for player, card in (("Anna", "alibi"), ("Anna", "steal"), ("Ben", "steal")):
        session.apply({"type": "choose", "player": player, "card": card})
    assert session.state.is_over
    past = PastGames(table.journal)
    with pytest.raises(InputError, match="Not possible"):
        past.correct(session.game_id, 2, None, "pressed twice")
    past.correct(session.game_id, 0, None, "pressed by the cat")
    assert past.actions(session.game_id) == session.actions[1:]
    assert [s.seq for s in past.steps(session.game_id)] == [1, 2]
    record = past.record(session.game_id)
    assert record.changes == ("step 1 (Anna choose) removed: pressed by the cat",
                              "result unchanged")
    assert record.actions == 2


def test_action_times_follow_the_effective_actions(table):
    session = table.new("tatort-tonne")
    table.finish()
    times = PastGames(table.journal).action_times(session.game_id)
    assert len(times) == len(session.actions) and times == sorted(times)
    assert all(t is not None and t > T0 for t in times)


# -- the kept results --------------------------------------------------------------------------
def test_a_kept_result_gives_the_same_records_as_replaying_every_game(table, monkeypatch):
    ids = table.every_game()
    first = [r.to_json() for r in PastGames(table.journal).list()]
    assert table.journal.db.execute("SELECT COUNT(*) FROM record_cache").fetchone()[0] == len(ids)
    replays = []
    monkeypatch.setattr(GameRecord, "build", classmethod(
        lambda cls, *a, **k: replays.append(a) or pytest.fail("replayed")))
    again = PastGames(table.journal).list()
    assert [r.to_json() for r in again] == first and replays == []
    db = open_read_only(table.path)  # a laptop reads the kept results too
    assert [r.to_json() for r in PastGames(db).list()] == first
    db.close()


def test_a_game_is_replayed_again_when_its_actions_or_the_rules_changed(table, monkeypatch):
    session = table.new("tatort-tonne")
    table.finish()
    past = PastGames(table.journal)
    (before,) = past.list()
    session.undo()  # the last action taken back: the game runs again ...
    assert past.list() == []
    table.finish()  # ... and ends another way (or the same): the record follows the journal
    (after,) = past.list()
    assert after.winners == session.state.winners() and after.actions == len(session.actions)
    built = []
    original = GameRecord.build.__func__
    monkeypatch.setattr(GameRecord, "build", classmethod(
        lambda cls, *a, **k: built.append(a[0]) or original(cls, *a, **k)))
    past.list()
    assert built == []
    monkeypatch.setattr(record_cache, "engines_digest", lambda: "other rules")
    past.list()
    assert built == []  # other rules never make the list replay: the recheck does, off the loop
    progress = recheck(table.path)
    assert built == [session.game_id] and (progress.total, progress.changed) == (1, 0)
    assert table.journal.db.execute("SELECT rules, rechecked FROM record_cache").fetchall() == \
        [("other rules", 0)]
    assert past.list()[0].to_json() == after.to_json() and not past.list()[0].rechecked


def test_a_damaged_kept_result_is_replayed_not_believed(table):
    session = table.new("bunte-runde")
    table.finish()
    truth = PastGames(table.journal).list()[0].to_json()
    table.journal.db.execute("UPDATE record_cache SET result='{\"standings\": 7}'")
    assert PastGames(table.journal).list()[0].to_json() == truth
    table.journal.db.execute("UPDATE record_cache SET result=?", (json.dumps({
        "players": ["X"], "actions": 1, "standings": [], "winners": ["X"], "error": None}),))
    table.journal.db.execute("UPDATE record_cache SET key='stale'")
    assert PastGames(table.journal).list()[0].to_json() == truth
    assert session.game_id == truth["game_id"]


def test_a_correction_of_an_action_undone_and_played_again_corrects_nothing(table):
    """The box may undo the last action of a finished game (after a correction from the laptop)
    and the table play another: the correction was of the action that is gone."""
    session = table.new("tante-trudels-troedel")
    table.finish()
    past = PastGames(table.journal)
    last = len(session.actions) - 1
    action = session.actions[last]
    grams = {**action, "grams": round(action["grams"] + 1.0, 1)}
    past.correct(session.game_id, last, grams, "wrong weighing")
    assert past.actions(session.game_id)[last] == grams
    session.undo()
    session.apply({**action, "grams": round(action["grams"] + 2.0, 1)})
    assert past.actions(session.game_id) == session.actions
    assert past.corrections(session.game_id) == []
    assert not past.record(session.game_id).corrected


def test_a_limit_gives_the_newest_games_and_replays_no_other(table, monkeypatch):
    ids = table.every_game()
    table.journal.db.execute("DELETE FROM record_cache")  # a journal of before results were kept
    built = []
    original = GameRecord.build.__func__
    monkeypatch.setattr(GameRecord, "build", classmethod(
        lambda cls, *a, **k: built.append(a[0]) or original(cls, *a, **k)))
    records = PastGames(table.journal).list(limit=2)
    newest = sorted(ids.values(), reverse=True)[:2]
    assert [r.game_id for r in records] == newest and sorted(built) == sorted(newest)
    assert PastGames(table.journal).list(limit=0) == []
    assert [r.game_id for r in PastGames(table.journal).list(player="Cem", limit=1)] == \
        [ids["tatort-tonne"]]


def test_an_engine_that_fails_on_a_stored_action_leaves_that_game_out_not_the_list(
        table, monkeypatch):
    from spielleiter.device.past import records

    table.new("tatort-tonne")
    table.finish()
    keep = table.new("bunte-runde")
    table.finish()
    real = records.replay

    def failing(state, actions, **kwargs):
        if state.game == "tatort-tonne":
            raise TypeError("an engine bug")
        return real(state, actions, **kwargs)

    monkeypatch.setattr(records, "replay", failing)
    table.journal.db.execute("DELETE FROM record_cache")  # results not kept: replayed now
    past = PastGames(table.journal)
    assert [r.game_id for r in past.list()] == [keep.game_id]
    assert past.problems == ["game 1 left out: the engine failed: TypeError: an engine bug"]


def test_a_journal_whose_games_cannot_be_read_lists_nothing_and_says_why(tmp_path):
    db = sqlite3.connect(tmp_path / "journal.sqlite3")
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("INSERT INTO meta VALUES ('app', 'spielleiter-journal')")
    db.commit()
    db.close()
    db = open_read_only(tmp_path / "journal.sqlite3")
    past = PastGames(db)
    assert past.list() == [] and "cannot be read" in past.problems[0]
    db.close()


def test_a_game_that_ends_keeps_its_result_so_not_even_the_first_list_replays_it(
        table, monkeypatch):
    ids = table.every_game()
    assert table.journal.db.execute("SELECT COUNT(*) FROM record_cache").fetchone()[0] == len(ids)
    original = GameRecord.build.__func__
    built = []
    monkeypatch.setattr(GameRecord, "build", classmethod(
        lambda cls, *a, **k: built.append(a[0]) or original(cls, *a, **k)))
    kept = [r.to_json() for r in PastGames(table.journal).list()]
    assert built == []
    table.journal.db.execute("DELETE FROM record_cache")
    assert [r.to_json() for r in PastGames(table.journal).list()] == kept
    assert len(built) == len(ids)


def test_a_result_that_cannot_be_kept_never_costs_the_games_last_action(table):
    table.journal.db.execute("CREATE TABLE record_cache (game_id INTEGER PRIMARY KEY)")  # wrong
    session = table.new("tatort-tonne")
    table.finish()
    assert table.journal.load(session.game_id).status == "over"
    assert table.journal.load(session.game_id).actions == session.actions
    (record,) = PastGames(table.journal).list()  # replayed instead
    assert record.winners == session.state.winners()
