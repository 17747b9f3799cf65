"""The learning station's memory (``device.history``) and ``spielleiter history`` on a laptop."""

from __future__ import annotations

import csv
import io

from spielleiter.device.cli import main
from spielleiter.device.journal.learning import COLUMNS, History
from spielleiter.device.journal.store import Journal
from spielleiter.games import learning

T0 = 1_800_000_000.0  # 2027-01-15T08:00:00+00:00


def journal_at(path, times):
    it = iter(times)
    return Journal(path / "journal.sqlite3", clock=lambda: next(it))


def fill(tmp_path):
    with journal_at(tmp_path, [T0 + n * 60 for n in range(100)]) as journal:
        history = History(journal)
        history.add("Mia", learning.score_heavier(300.0, 120.0, "left", 1))
        history.add("Mia", learning.score_grams(312.0, 250, 1))
        history.add("Jonas", learning.score_order([140.0, 60.0, 505.0], (2, 1, 3), 2))
        history.add("Mia", learning.score_grams(312.0, 300, 1, retry=True))


# -- the store -----------------------------------------------------------------------------------
def test_every_attempt_is_kept_with_its_child_quiz_level_truth_guess_error_and_time(tmp_path):
    fill(tmp_path)
    with Journal(tmp_path / "journal.sqlite3") as journal:
        rows = [r.row() for r in History(journal).records("mia")]   # names ignore case
    assert [r["quiz"] for r in rows] == ["heavier", "grams", "grams"]
    assert rows[1] == {"time": "2027-01-15T08:01:00+00:00", "child": "Mia", "quiz": "grams",
                       "level": 1, "truth_g": 312.0, "guess": "250", "error": -62.0,
                       "correct": 1, "retry": 0}


def test_a_damaged_row_is_left_out_and_the_rest_still_read(tmp_path):
    fill(tmp_path)
    with Journal(tmp_path / "journal.sqlite3") as journal:
        db = journal.db
        db.execute("UPDATE learning SET level='high' WHERE id=1")
        db.execute("INSERT INTO learning (at, child, quiz, level, correct) "
                   "VALUES (1, 'Mia', 'juggling', 1, 1)")
        db.execute("INSERT INTO learning (at, child, quiz, level, truth_g, guess, error, correct)"
                   " VALUES (1, 'Mia', 'grams', 1, 'x', '3', 0, 7)")
        history = History(journal)
        assert [r.attempt.guess for r in history.records("Mia")] == ["250", "300"]
        assert history.summary("Mia").total == 2


def test_clear_forgets_one_child_and_no_other(tmp_path):
    fill(tmp_path)
    with Journal(tmp_path / "journal.sqlite3") as journal:
        history = History(journal)
        assert history.clear("MIA") == 3
        assert history.records("Mia") == [] and len(history.records("Jonas")) == 1
        assert history.levels("Mia") == {q: 1 for q in learning.QUIZZES}


def test_the_summary_counts_today_the_best_streak_and_the_levels(tmp_path):
    times = [T0 - 86400.0] * 3 + [T0] * 20
    with journal_at(tmp_path, times) as journal:
        history = History(journal)
        for _ in range(3):                                   # yesterday: three misses
            history.add("Mia", learning.score_grams(100.0, 900, 1))
        for n in range(9):                                   # today: better and better
            history.add("Mia", learning.score_grams(100.0, 100 if n != 2 else 900, 1))
        summary = history.summary("Mia", now=T0)
    assert (summary.today, summary.today_right, summary.best_streak) == (9, 8, 6)
    assert summary.trend == "up" and summary.levels["grams"] == 3


def test_a_journal_that_cannot_hold_the_table_gives_an_empty_history(tmp_path):
    with Journal(tmp_path / "journal.sqlite3") as journal:
        journal.db.execute("CREATE TABLE learning (nonsense TEXT)")
        history = History(journal)
        assert history.records() == [] and history.summary("Mia").total == 0


# -- the command ---------------------------------------------------------------------------------
def test_history_csv_has_the_columns_and_iso_times(tmp_path, capsys):
    fill(tmp_path)
    assert main(["history", "--csv", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    rows = list(csv.DictReader(io.StringIO(out)))
    assert tuple(rows[0]) == COLUMNS
    assert out.splitlines()[0].startswith("time,child,quiz,level,truth_g,guess,error,correct")
    assert [r["child"] for r in rows] == ["Mia", "Mia", "Jonas", "Mia"]
    assert rows[2] == {"time": "2027-01-15T08:02:00+00:00", "child": "Jonas", "quiz": "order",
                       "level": "2", "truth_g": "505.0", "guess": "2,1,3", "error": "0.0",
                       "correct": "1", "retry": "0"}


def test_history_for_one_child_as_a_table(tmp_path, capsys):
    fill(tmp_path)
    assert main(["history", "--child", "jonas", "--state-dir", str(tmp_path), "--lang", "en"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:3] == ["time", "child", "quiz"]
    assert len(out) == 3 and "Jonas" in out[1] and "Put them in order" in out[1]
    assert out[2] == ("Jonas: levels Which is heavier? 1, How many grams? 1, Make it balance 1, "
                      "Put them in order 1")


def test_history_speaks_german_with_the_decimal_comma_as_the_box_does(tmp_path, capsys):
    fill(tmp_path)
    assert main(["history", "--child", "Mia", "--state-dir", str(tmp_path), "--lang", "de"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:3] == ["Zeit", "Kind", "Quiz"]
    assert "links" in out[1] and "180,0" in out[1] and "ja" in out[1].split()
    assert "(nochmal)" in out[3] and "312,0" in out[3]
    assert "grams" not in " ".join(out) and "yes" not in " ".join(out)


def test_history_of_an_unknown_child_says_so(tmp_path, capsys):
    fill(tmp_path)
    assert main(["history", "--child", "Nobody", "--state-dir", str(tmp_path),
                 "--lang", "en"]) == 1
    assert capsys.readouterr().err.strip() == "spielleiter history: no answers from Nobody"


def test_history_without_a_journal_prints_nothing_yet_and_creates_nothing(tmp_path, capsys):
    assert main(["history", "--state-dir", str(tmp_path / "none"), "--lang", "en"]) == 0
    assert capsys.readouterr().out == "no answers yet\n"
    assert main(["history", "--csv", "--state-dir", str(tmp_path / "none")]) == 0
    assert capsys.readouterr().out == ",".join(COLUMNS) + "\n"
    assert not (tmp_path / "none").exists()
