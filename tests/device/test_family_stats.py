"""The family's statistics (device/past/statistics.py, issue 21 point 4): per player games, wins per
game, last played, best streak and the learning station's answers, one place per child; per game
how often, how long and who wins most."""

from __future__ import annotations

from spielleiter.device.past.statistics import COLUMNS, FamilyStats
from spielleiter.device.journal.learning import History, Record
from spielleiter.device.past.games import PastGames
from spielleiter.device.past.records import GameRecord, Standing
from spielleiter.device.journal.timebase import GameTime
from spielleiter.games import learning
from recordskit import T0, Table


def played(game_id, game, players, winners, *, status="over", started=None, duration=None):
    standings = tuple(Standing(i, p, i, 0, p in winners) for i, p in enumerate(players, 1))
    when = GameTime(started, None if started is None or duration is None else started + duration,
                    duration, True)
    return GameRecord(game_id, game, game.title(), status, tuple(players), {}, standings,
                      tuple(winners), 10, started, None, when=when)


def test_wins_per_game_count_each_winner_of_a_shared_win_and_only_finished_games():
    stats = FamilyStats.build([
        played(1, "bunte-runde", ("Mia", "Jonas"), ("Mia", "Jonas")),
        played(2, "bunte-runde", ("Mia", "Jonas"), ("Jonas",)),
        played(3, "tatort-tonne", ("Mia", "Jonas", "Oma"), ("Mia",)),
        played(4, "tatort-tonne", ("Mia", "Oma"), (), status="abandoned"),
    ])
    mia, jonas = stats.player("mia"), stats.player("JONAS")
    assert (mia.games, mia.wins, mia.won, mia.played) == (
        3, 2, {"bunte-runde": 1, "tatort-tonne": 1}, {"bunte-runde": 2, "tatort-tonne": 1})
    assert (jonas.games, jonas.wins, jonas.won) == (3, 2, {"bunte-runde": 2})
    assert stats.player("Oma").games == 1 and stats.player("Oma").wins == 0


def test_the_best_streak_follows_the_journals_order_and_other_peoples_games_do_not_break_it():
    stats = FamilyStats.build([  # given in any order
        played(5, "bunte-runde", ("Mia", "Jonas"), ("Jonas",)),
        played(1, "bunte-runde", ("Mia", "Jonas"), ("Mia",)),
        played(2, "bunte-runde", ("Mia", "Jonas"), ("Mia",)),
        played(3, "tatort-tonne", ("Jonas", "Oma"), ("Oma",)),  # Mia not at the table
        played(4, "bunte-runde", ("Mia", "Jonas"), ("Mia",)),
    ])
    assert stats.player("Mia").best_streak == 3
    assert stats.player("Jonas").best_streak == 1
    assert stats.player("Mia").last_game_id == 5


def test_last_played_is_the_newest_dated_game_and_unknown_when_none_has_a_date():
    stats = FamilyStats.build([
        played(1, "bunte-runde", ("Mia", "Jonas"), ("Mia",), started=T0),
        played(2, "bunte-runde", ("Mia", "Oma"), ("Mia",)),  # the clock was not synchronised
        played(3, "bunte-runde", ("Oma", "Opa"), ("Opa",)),
    ])
    assert stats.player("Mia").last_played == "2027-01-15T08:00:00+00:00"
    assert stats.player("Mia").last_game_id == 2
    assert stats.player("Opa").last_played is None


def test_a_games_typical_duration_is_the_median_of_the_known_ones_and_who_wins_most():
    stats = FamilyStats.build([
        played(1, "bunte-runde", ("Mia", "Jonas"), ("Mia",), started=T0, duration=600),
        played(2, "bunte-runde", ("Mia", "Jonas"), ("Jonas",), started=T0, duration=900),
        played(3, "bunte-runde", ("Mia", "Jonas"), ("Mia",), started=T0, duration=3000),
        played(4, "bunte-runde", ("Mia", "Jonas"), ("Jonas", "Mia")),
        played(5, "tatort-tonne", ("Mia", "Jonas"), ()),
    ])
    bunte, tatort = stats.games
    assert (bunte.game, bunte.plays, bunte.typical_s) == ("bunte-runde", 4, 900.0)
    assert (bunte.most_wins, bunte.most_wins_count) == (("Mia",), 3)
    assert (tatort.plays, tatort.typical_s, tatort.most_wins) == (1, None, ())


def test_one_place_per_child_for_games_and_learning_answers_whatever_the_case():
    answers = [Record(None, "mia", learning.score_grams(312.0, 300, 1)),
               Record(None, "MIA", learning.score_grams(312.0, 100, 1)),
               Record(None, "Lena", learning.score_grams(50.0, 50, 1))]
    stats = FamilyStats.build([played(1, "bunte-runde", ("Mia", "Jonas"), ("Mia",))], answers)
    assert [p.name for p in stats.players] == ["Mia", "Jonas", "Lena"]
    mia = stats.player("Mia")
    assert (mia.games, mia.answers, mia.right) == (1, 2, 1)
    assert (stats.player("Lena").games, stats.player("Lena").right) == (0, 1)


def test_rows_hold_every_player_their_games_and_every_game_under_the_columns():
    stats = FamilyStats.build([played(1, "bunte-runde", ("Mia", "Jonas"), ("Mia",))])
    rows = stats.rows()
    assert all(tuple(r) == COLUMNS for r in rows)
    assert [(r["kind"], r["name"], r["game"]) for r in rows] == [
        ("player", "Jonas", ""), ("player_game", "Jonas", "bunte-runde"),
        ("player", "Mia", ""), ("player_game", "Mia", "bunte-runde"),
        ("game", "", "bunte-runde")]


def test_a_corrected_winner_counts_as_the_winner(tmp_path):
    table = Table(tmp_path, seed=4)
    session = table.new("tante-trudels-troedel", options={"goal": "heaviest"})
    table.finish()
    History(table.journal).add("Ben", learning.score_grams(312.0, 300, 1))
    past = PastGames(table.journal)
    loser = next(s.player for s in past.record(session.game_id).standings if not s.winner)
    seq = max(i for i, a in enumerate(session.actions)
              if a.get("player") == loser and "grams" in a)
    past.correct(session.game_id, seq, {**session.actions[seq], "grams": 199.9}, "cat on pan")
    stats = FamilyStats.build(past.list(), past.learning())
    assert stats.player(loser).wins == 1 and stats.games[0].most_wins == (loser,)
    assert stats.player("Ben").answers == 1
    table.close()


def test_no_games_and_no_answers_is_empty_not_an_error():
    stats = FamilyStats.build([], [])
    assert stats.players == [] and stats.games == [] and stats.rows() == []
