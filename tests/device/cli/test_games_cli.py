"""``spielleiter games list|show|export|correct`` and ``spielleiter stats`` (issue 21 points 1, 3,
4 and 6): past games on a laptop, read beside the box and never written but by a correction."""

from __future__ import annotations

import csv
import io
import json
import shutil
import time
from pathlib import Path

import pytest
from support import run_replay

from spielleiter.device.cli import main
from spielleiter.device.past.statistics import COLUMNS
from spielleiter.device.past.export import CSV_COLUMNS
from spielleiter.device.journal.store import Journal
from spielleiter.device.past.games import PastGames
from spielleiter.games import GAMES
from recordskit import PLAYERS, Table

DATA = Path(__file__).parent.parent / "data"


@pytest.fixture(autouse=True)
def utc(monkeypatch):
    """Local time is UTC here, so the printed times can be read off the test's clock."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A journal with one finished game of each kind (undo and a pause in each), an abandoned
    one, and the final public state of each game as the box had it."""
    table = Table(tmp_path_factory.mktemp("box"), seed=5)
    ids = table.every_game()
    finals = {}
    for game, game_id in ids.items():
        saved = table.journal.load(game_id)
        from spielleiter.device.replay import replay, start
        state, _events, error = replay(start(saved.header), saved.actions)
        assert error is None and state.is_over
        finals[game] = state.public()
    session = table.new("tatort-tonne")
    table.play(2)
    session.abandon()
    ids["abandoned"] = session.game_id
    table.close()
    return table.state_dir, ids, finals


@pytest.fixture
def box(played, tmp_path):
    """A copy of the played journal for a test that corrects."""
    state_dir, ids, finals = played
    shutil.copytree(state_dir, tmp_path / "box")
    return tmp_path / "box", ids, finals


def cli(capsys, *argv):
    code = main([*argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_every_game_is_covered_by_the_fixture(played):
    _state_dir, ids, _finals = played
    assert set(GAMES) <= set(ids)  # one finished game of each kind the registry has


def test_list_shows_ended_games_newest_first_with_date_game_players_and_winner(played, capsys):
    state_dir, ids, _ = played
    code, out, err = cli(capsys, "games", "list", "--state-dir", str(state_dir))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["id", "when", "game", "players", "result"]
    assert [int(line.split()[0]) for line in lines[1:]] == sorted(ids.values(), reverse=True)
    first = next(line for line in lines[1:] if int(line.split()[0]) == ids["bunte-runde"])
    assert "2027-01-15 08:00" in first and "Bunte Runde" in first and "Ben, Anna, Cem" in first
    assert lines[1].rstrip().endswith("abandoned")


def test_the_laptop_tools_speak_german_with_lang_de(played, box, capsys):
    """games, stats and players spoke English only while the box, weigh and calibrate spoke
    German (a trial's finding); --lang de, or the config's [ui] language, as the screens."""
    state_dir, ids, _ = played
    _code, out, _err = cli(capsys, "games", "list", "--state-dir", str(state_dir), "--lang", "de")
    lines = out.splitlines()
    assert lines[0].split() == ["Nr.", "wann", "Spiel", "Spieler", "Ergebnis"]
    assert lines[1].rstrip().endswith("abgebrochen")
    _code, out, _err = cli(capsys, "games", "show", str(ids["bunte-runde"]), "--state-dir",
                           str(state_dir), "--lang", "de")
    assert out.startswith(f"Spiel {ids['bunte-runde']}: Bunte Runde (beendet)\nWann: ")
    assert "Spieler in Sitzreihenfolge: 1 Ben, 2 Anna, 3 Cem" in out and "\nErgebnis:" in out
    _code, out, _err = cli(capsys, "stats", "--state-dir", str(state_dir), "--lang", "de")
    assert out.splitlines()[0].split()[:3] == ["Spieler", "Spiele", "Siege"]
    assert "Siege je Spiel: " in out and " von " in out
    copy = str(box[0])                                            # players writes: a copy
    code, out, _err = cli(capsys, "players", "add", "Zoë", "--state-dir", copy, "--lang", "de")
    assert code == 0 and out == "Zoë hinzugefügt\n"
    code, out, err = cli(capsys, "players", "add", "ZOË", "--state-dir", copy, "--lang", "de")
    assert code == 1 and "Zoë" in err and "schon" in err          # the roster's own German
    _code, out, _err = cli(capsys, "games", "list", "--state-dir", str(state_dir))
    assert out.splitlines()[0].split()[0] == "id"                # without --lang: the config's


def test_list_filters_and_json(played, capsys):
    state_dir, ids, _ = played
    code, out, _ = cli(capsys, "games", "list", "--state-dir", str(state_dir), "--player", "CEM",
                       "--game", "Currency Torraku", "--json")
    (record,) = json.loads(out)
    assert code == 0 and record["game_id"] == ids["currency-torraku"]
    assert record["players"] == ["Cem", "Anna", "Ben"] and record["record"] == 1
    code, out, err = cli(capsys, "games", "list", "--state-dir", str(state_dir), "--game",
                         "chess")
    assert code == 1 and "unknown game 'chess'" in err and out == ""
    code, out, _ = cli(capsys, "games", "list", "--state-dir", str(state_dir), "--since",
                       "2027-02-01")
    assert code == 0 and out == "no game matches\n"


def test_a_date_that_is_no_date_is_bad_usage(tmp_path, capsys):
    import pytest

    with pytest.raises(SystemExit) as usage:
        main(["games", "list", "--state-dir", str(tmp_path), "--since", "yesterday"])
    assert usage.value.code == 2  # docs/past-games.md: 2 bad usage
    assert "not a date: 'yesterday' (e.g. 2026-11-30)" in capsys.readouterr().err


def test_without_a_journal_there_is_no_game_yet_and_nothing_is_created(tmp_path, capsys):
    code, out, _ = cli(capsys, "games", "list", "--state-dir", str(tmp_path / "none"))
    assert (code, out) == (0, "no ended game yet\n") and not (tmp_path / "none").exists()
    code, _, err = cli(capsys, "games", "show", "1", "--state-dir", str(tmp_path / "none"))
    assert code == 1 and "no game 1" in err
    code, out, _ = cli(capsys, "stats", "--state-dir", str(tmp_path / "none"))
    assert code == 0 and "no finished game" in out


def test_reading_never_writes_the_journal(played, capsys):
    state_dir, ids, _ = played
    journal = state_dir / "journal.sqlite3"
    before = journal.read_bytes()
    for argv in (["games", "list"], ["games", "show", str(ids["tatort-tonne"]), "--actions"],
                 ["games", "export", "--all"], ["games", "export", "--all", "--format", "csv"],
                 ["stats"], ["stats", "--csv"]):
        assert cli(capsys, *argv, "--state-dir", str(state_dir))[0] == 0
    assert journal.read_bytes() == before
    wal = state_dir / "journal.sqlite3-wal"  # SQLite's reader may leave an empty one behind
    assert not wal.exists() or wal.stat().st_size == 0


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_an_exported_game_replays_to_the_final_state_the_box_had(played, capsys, game):
    state_dir, ids, finals = played
    code, out, _ = cli(capsys, "games", "export", str(ids[game]), "--state-dir", str(state_dir))
    assert code == 0
    doc = json.loads(out)
    assert doc["game"] == game and doc["players"] == list(PLAYERS[game])
    code, state, err = run_replay(capsys, out)
    assert (code, err) == (0, "") and state == finals[game]


def test_the_export_carries_what_a_board_game_logger_needs(played, capsys):
    state_dir, ids, _ = played
    config = state_dir.parent / "config.toml"
    config.write_text('[fleet]\nname = "Küche"\n', encoding="utf-8")
    code, out, _ = cli(capsys, "games", "export", str(ids["bunte-runde"]), "--state-dir",
                       str(state_dir), "--config", str(config))
    play = json.loads(out)["play"]
    assert code == 0 and play["location"] == "Küche" and play["title"] == "Bunte Runde"
    assert play["date"] == "2027-01-15T08:00:05+00:00" and play["duration_s"] > 600
    assert [p["name"] for p in play["players"]] == ["Ben", "Anna", "Cem"]
    assert [p["seat"] for p in play["players"]] == [1, 2, 3]
    assert all({"score", "rank", "winner"} <= set(p) for p in play["players"])
    assert play["winners"] == [p["name"] for p in play["players"] if p["winner"]]
    code, out, _ = cli(capsys, "games", "export", str(ids["bunte-runde"]), "--state-dir",
                       str(state_dir), "--location", "Oma")
    assert json.loads(out)["play"]["location"] == "Oma"


def test_export_all_is_every_ended_game_oldest_first(played, capsys):
    state_dir, ids, _ = played
    code, out, _ = cli(capsys, "games", "export", "--all", "--state-dir", str(state_dir))
    doc = json.loads(out)
    assert code == 0 and doc["export"] == 1
    assert [g["play"]["game_id"] for g in doc["games"]] == sorted(ids.values())


def test_csv_has_one_row_per_action_with_its_sequence_number_and_time(played, capsys):
    state_dir, ids, _ = played
    game_id = ids["tatort-tonne"]
    code, out, _ = cli(capsys, "games", "export", str(game_id), "--format", "csv",
                       "--state-dir", str(state_dir))
    rows = list(csv.DictReader(io.StringIO(out)))
    with Journal(state_dir / "journal.sqlite3") as journal:
        actions = journal.load(game_id).actions
    assert code == 0 and tuple(rows[0]) == CSV_COLUMNS
    assert [int(r["seq"]) for r in rows] == list(range(1, len(actions) + 1))  # steps, from 1
    assert [json.loads(r["action"]) for r in rows] == actions
    assert all(r["time"].startswith("2027-01-15T") for r in rows)


def test_a_correction_from_the_laptop_shows_in_show_list_export_and_stats(box, capsys):
    state_dir, ids, _ = box
    game_id = ids["tante-trudels-troedel"]
    with Journal(state_dir / "journal.sqlite3") as journal:
        before = PastGames(journal).record(game_id)
        actions = journal.load(game_id).actions
    loser = next(s.player for s in before.standings if not s.winner)
    seq = max(i for i, a in enumerate(actions) if a.get("player") == loser and "grams" in a)
    potd = next(a["grams"] for a in actions if a["type"] == "weigh_potd")
    grams = round(potd - 0.1, 1)  # the heaviest basket lighter than the Purchase of the Day
    code, out, err = cli(capsys, "games", "correct", str(game_id), str(seq + 1), "--set",
                         f"grams={grams}", "--why", "wrong weighing", "--state-dir",
                         str(state_dir))
    assert code == 0, err
    assert "Corrected after the game: the result changed" in out
    assert "wrong weighing" in out and f"winners: {loser} (was " in out
    code, out, _ = cli(capsys, "games", "show", str(game_id), "--state-dir", str(state_dir))
    assert code == 0 and "the result changed" in out and "wrong weighing" in out
    code, out, _ = cli(capsys, "games", "list", "--state-dir", str(state_dir))
    line = next(x for x in out.splitlines() if x.split()[0] == str(game_id))
    assert line.endswith(f"{loser}  (corrected)")
    code, out, _ = cli(capsys, "games", "export", str(game_id), "--format", "csv",
                       "--state-dir", str(state_dir))
    row = list(csv.DictReader(io.StringIO(out)))[seq]
    assert row["corrected"] == "1" and row["why"] == "wrong weighing"
    assert json.loads(row["action"])["grams"] == grams
    code, out, _ = cli(capsys, "games", "export", str(game_id), "--state-dir", str(state_dir))
    assert json.loads(out)["play"]["winners"] == [loser]
    assert run_replay(capsys, out)[0] == 0
    with Journal(state_dir / "journal.sqlite3") as journal:
        assert journal.load(game_id).actions == actions  # the original stays


def test_a_refused_correction_says_why_and_writes_nothing(box, capsys):
    state_dir, ids, _ = box
    path = state_dir / "journal.sqlite3"
    game_id = ids["tante-trudels-troedel"]
    for argv, message in (
            (["1", "--set", "value=9"], "the die shows 1 to 6"),
            (["9999", "--set", "value=2"], "The game has no step 9999."),
            (["1", "--set", "oops"], "KEY=VALUE"),
            (["1", "--action", "[1]"], "an action is a JSON object")):
        code, out, err = cli(capsys, "games", "correct", str(game_id), *argv, "--why", "x",
                             "--state-dir", str(state_dir))
        assert code == 1 and message in err and out == "", (argv, err)
    code, _, err = cli(capsys, "games", "correct", str(ids["abandoned"]), "1", "--remove",
                       "--why", "x", "--state-dir", str(state_dir))
    assert code == 1 and "Only a finished game can be corrected." in err
    with Journal(path) as journal:
        assert journal.db.execute("SELECT COUNT(*) FROM corrections").fetchone()[0] == 0


def test_stats_per_player_and_per_game(played, capsys):
    state_dir, ids, _ = played
    code, out, _ = cli(capsys, "stats", "--state-dir", str(state_dir))
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[:3] == ["player", "games", "wins"]
    anna = next(x for x in lines if x.startswith("Anna "))
    # one game of each kind; the abandoned game does not count
    assert anna.split()[1] == str(sum("Anna" in players for players in PLAYERS.values()))
    assert any(x.startswith("  wins per game: ") for x in lines)
    assert any(x.startswith("Bunte Runde") and " 1 " in x for x in lines)
    code, out, _ = cli(capsys, "stats", "--csv", "--state-dir", str(state_dir))
    rows = list(csv.DictReader(io.StringIO(out)))
    assert tuple(rows[0]) == COLUMNS
    assert {r["game"] for r in rows if r["kind"] == "game"} == set(PLAYERS)


def test_the_journal_of_the_current_release_is_listed(tmp_path, capsys):
    shutil.copy(DATA / "journal-0.1.0.sqlite3", tmp_path / "journal.sqlite3")
    code, out, _ = cli(capsys, "games", "list", "--state-dir", str(tmp_path))
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["3", "2", "1"]
    code, out, _ = cli(capsys, "stats", "--state-dir", str(tmp_path))
    assert code == 0 and any(x.startswith("Zoe ") for x in out.splitlines())


def test_the_simulators_games_with_sim(played, capsys, monkeypatch, tmp_path):
    state_dir, ids, _ = played
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    shutil.copytree(state_dir, tmp_path / "spielleiter-sim")
    code, out, _ = cli(capsys, "games", "list", "--sim")
    assert code == 0 and len(out.splitlines()) == 1 + len(ids)


def test_a_game_played_in_the_simulator_with_a_pause_is_listed_and_exported_with_sim(
        box_factory, tmp_path, monkeypatch, capsys):
    """The simulated box (as ``spielleiter sim`` builds it) plays a game, the table pauses it for
    the home menu and continues; the laptop's ``--sim`` then lists it and its export replays."""
    import random

    from support import act, start_header

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    box = box_factory(state_dir=tmp_path / "spielleiter-sim", pans=False)
    start_header(box, "bunte-runde", ["Anna", "Ben"], {})
    rng = random.Random(3)
    moves = 0
    while not box.app.session.state.is_over:
        state = box.app.session.state
        player = rng.choice(state.waiting_for())
        act(box, **rng.choice(state.legal_actions(player)))
        moves += 1
        if moves == 3:
            box.runtime.post(box.app.pause_game)
            box.runtime.pump()
            box.idle(120.0)
            assert box.app.paused
            box.runtime.post(box.app.continue_game)
            box.runtime.pump()
    final = box.app.session.state.public()
    box.close()
    code, out, _ = cli(capsys, "games", "list", "--sim")
    assert code == 0 and "Bunte Runde" in out.splitlines()[1]
    code, out, _ = cli(capsys, "games", "export", "1", "--sim")
    assert code == 0 and run_replay(capsys, out)[1] == final


def test_a_game_still_being_played_shows_no_actions_and_is_not_exported(tmp_path, capsys):
    """Its actions hold what the table may not see yet (Trudel's hidden grams)."""
    table = Table(tmp_path, seed=2)
    session = table.new("tante-trudels-troedel")
    table.play(6)
    table.close()
    for argv in (["show", str(session.game_id), "--actions"], ["export", str(session.game_id)],
                 ["export", str(session.game_id), "--format", "csv"]):
        code, out, err = cli(capsys, "games", *argv, "--state-dir", str(tmp_path))
        assert code == 1 and out == "" and "still being played" in err, argv
    code, out, _ = cli(capsys, "games", "show", str(session.game_id), "--state-dir",
                       str(tmp_path))
    assert code == 0 and "(running)" in out and "grams" not in out
    code, out, _ = cli(capsys, "games", "export", "--all", "--state-dir", str(tmp_path))
    assert json.loads(out)["games"] == []


def test_an_abandoned_game_is_shown_without_a_ranking(played, capsys):
    state_dir, ids, _ = played
    code, out, _ = cli(capsys, "games", "show", str(ids["abandoned"]), "--state-dir",
                       str(state_dir))
    assert code == 0
    assert "Result: none, the game was abandoned" in out
    assert "  1. " not in out  # no made-up ranking of the scores when it stopped
