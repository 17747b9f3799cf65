"""One name rule and one step numbering everywhere: the roster's identity of a name in the
statistics and the filters (not ``casefold``: "Strauß" and "Strauss" are two people), steps
counted from 1 by the CLI as by the box, and odd input refused plainly."""

from __future__ import annotations

import csv
import io
import json

import pytest

from spielleiter.device.cli import main
from spielleiter.device.past.export import everything, write_all
from spielleiter.device.past.games import PastGames
from spielleiter.device.past.names import identity
from spielleiter.device.past.statistics import FamilyStats
from recordskit import Table


@pytest.fixture
def table(tmp_path):
    t = Table(tmp_path / "box", seed=4)
    yield t
    t.close()


def cli(capsys, *argv):
    code = main([*argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_strauss_and_strauss_with_eszett_are_two_people_in_stats_and_the_filter(table):
    for players in (("Strauß", "Mia"), ("Strauss", "Mia"), ("Strauss", "mia")):
        table.new("bunte-runde", players)
        table.finish()
    past = PastGames(table.journal)
    stats = FamilyStats.build(past.list())
    assert stats.player("Strauß").games == 1 and stats.player("Strauss").games == 2
    assert stats.player("MIA").games == 3  # one case as the screen draws it: one child
    assert len(past.list(player="strauss")) == 2 and len(past.list(player="STRAUSS")) == 2
    assert len(past.list(player="Strauß")) == 1 and len(past.list(player="Ｍia")) == 3
    assert identity("Strauß") != identity("Strauss") and identity(" Mia ") == identity("mIA")


def test_the_cli_numbers_steps_from_1_as_the_box_does(table, capsys):
    session = table.new("tatort-tonne")
    table.finish()
    state = str(table.state_dir)
    code, out, _ = cli(capsys, "games", "show", str(session.game_id), "--actions",
                       "--state-dir", state)
    numbered = [line.split()[0].rstrip("*") for line in out.splitlines()
                if line.startswith("  ") and line.strip()[:1].isdigit()]
    assert code == 0 and numbered[-len(session.actions):] == [
        str(n) for n in range(1, len(session.actions) + 1)]
    code, out, _ = cli(capsys, "games", "export", str(session.game_id), "--format", "csv",
                       "--state-dir", state)
    assert [r["seq"] for r in csv.DictReader(io.StringIO(out))][:2] == ["1", "2"]
    code, _, err = cli(capsys, "games", "correct", str(session.game_id),
                       str(len(session.actions) + 1), "--remove", "--why", "x", "--state-dir",
                       state)
    assert code == 1 and f"The game has no step {len(session.actions) + 1}." in err
    with pytest.raises(SystemExit) as exit_:
        main(["games", "correct", str(session.game_id), "0", "--remove", "--why", "x",
              "--state-dir", state])
    assert exit_.value.code == 2 and "steps are counted from 1" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["show"], ["export"], ["correct", "{id}", "1", "--remove",
                                                             "--why", "x"]])
def test_a_game_id_beyond_sqlites_integer_is_refused_plainly(table, capsys, command):
    table.new("tatort-tonne")
    table.finish()
    huge = str(2 ** 63)
    argv = ["games", command[0], huge, *[w.replace("{id}", "") for w in command[2:]]] \
        if command[0] == "correct" else ["games", command[0], huge]
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--state-dir", str(table.state_dir)])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "no game has the number" in err and "Traceback" not in err


def test_games_show_never_prints_raw_escapes(table, capsys):
    session = table.new("tante-trudels-troedel")
    table.finish()
    PastGames(table.journal)  # makes the corrections table
    table.journal.db.execute(  # a reason written by an older release, escapes and all
        "INSERT INTO corrections (game_id, seq, action, original, why, at) SELECT ?, 0, "
        "NULL, action, ?, 0 FROM actions WHERE game_id=? AND seq=0",
        (session.game_id, "\x1b[2J\u202eoops", session.game_id))
    code, out, _ = cli(capsys, "games", "show", str(session.game_id), "--actions",
                       "--state-dir", str(table.state_dir))
    assert code == 0 and "\x1b" not in out and "\u202e" not in out
    assert "\\u001b[2J\\u202eoops" in out


def test_export_all_is_written_game_by_game_as_the_one_document(table):
    table.every_game()
    past = PastGames(table.journal)
    out = io.StringIO()
    write_all(past, out)
    assert out.getvalue() == json.dumps(everything(past), indent=2, ensure_ascii=False) + "\n"
    assert [g["play"]["game_id"] for g in json.loads(out.getvalue())["games"]] == past.ids()


def test_the_learning_history_keeps_strauss_and_strauss_with_eszett_apart(table):
    from spielleiter.device.journal.learning import History
    from spielleiter.games import learning

    history = History(table.journal)
    for child in ("Strauß", "Strauss", "mia", "Mia"):
        history.add(child, learning.score_grams(312.0, 300, 1))
    assert history.children() == ["Strauß", "Strauss", "mia"]
    assert len(history.records("STRAUSS")) == 1 and len(history.records("strauß")) == 1
    assert len(history.records("MIA")) == 2
    stats = FamilyStats.build([], history.records())
    assert stats.player("Strauss").answers == 1 and stats.player("Mia").answers == 2
