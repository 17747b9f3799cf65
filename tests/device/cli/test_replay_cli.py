"""``spielleiter replay`` for Tatort Tonne: the rulebook example and T1-T7 through the CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support import run_replay

from spielleiter.device.cli import main

EXAMPLE = ["Alexandra", "Melanie", "Ulrike", "Birgit", "Sarah"]


replay = run_replay


def choose(player, card):
    return {"type": "choose", "player": player, "card": card}


def point(player, target):
    return {"type": "point", "player": player, "target": target}


def doc(players, actions, **options):
    return {"game": "tatort-tonne", "players": players, "seed": 7, "options": options,
            "actions": actions}


ROUND_ONE = [choose("Alexandra", "alibi"), choose("Melanie", "accuse"),
             choose("Ulrike", "accuse"), choose("Birgit", "alibi"), choose("Sarah", "steal"),
             point("Melanie", "Birgit"), point("Ulrike", "Birgit")]


def test_rulebook_example_through_replay(capsys):
    code, state, err = replay(capsys, doc(EXAMPLE, ROUND_ONE))
    assert code == 0 and err == ""
    assert state["game"] == "tatort-tonne" and state["phase"] == "choose" and state["round"] == 2
    assert state["players"] == [
        {"name": "Alexandra", "in_game": True, "trash": 0},
        {"name": "Melanie", "in_game": False, "trash": 0},
        {"name": "Ulrike", "in_game": False, "trash": 0},
        {"name": "Birgit", "in_game": True, "trash": 0},
        {"name": "Sarah", "in_game": True, "trash": 1},
    ]
    assert state["trash_left"] == 24 and state["winners"] == []


def test_replay_reads_a_file_too(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc(EXAMPLE, ROUND_ONE)))
    result = subprocess.run([sys.executable, "-m", "spielleiter.device.cli", "replay", str(path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["trash_left"] == 24


def test_T1_replay_rejects_eleven_players_and_honours_the_trash_option(capsys):
    code, state, err = replay(capsys, doc([f"p{i}" for i in range(11)], []))
    assert code == 2 and state is None and "2-10 players" in err
    code, state, _ = replay(capsys, doc(["a", "b"], [], trash=5))
    assert code == 0 and state["trash_left"] == 5 and state["phase"] == "choose"


def test_T2_replay_keeps_the_last_choice(capsys):
    code, state, _ = replay(capsys, doc(["a", "b"], [choose("a", "steal"), choose("a", "alibi"),
                                                     choose("b", "steal")]))
    assert code == 0 and [p["trash"] for p in state["players"]] == [0, 1]


def test_T3_replay_stops_at_self_accusation_with_the_state_before(capsys):
    actions = [choose("a", "accuse"), choose("b", "steal"), choose("c", "alibi"),
               point("a", "a")]
    code, state, err = replay(capsys, doc(["a", "b", "c"], actions))
    assert code == 1 and state["phase"] == "point"
    assert err.count("\n") == 1 and "action 3" in err and "oneself" in err


def test_T4_replay_alibi_sends_both_accusers_out(capsys):
    code, state, _ = replay(capsys, doc(EXAMPLE, ROUND_ONE))
    assert [p["in_game"] for p in state["players"]] == [True, False, False, True, True]


def test_T5_replay_three_trash_wins(capsys):
    rounds = [choose("a", "steal"), choose("b", "alibi")] * 3
    code, state, _ = replay(capsys, doc(["a", "b"], rounds))
    assert code == 0 and state["phase"] == "over" and state["winners"] == ["a"]


def test_T5_replay_playoff_between_players_with_three_trash(capsys):
    rounds = [choose("a", "steal"), choose("b", "steal"), choose("c", "alibi")] * 3
    code, state, _ = replay(capsys, doc(["a", "b", "c"], rounds))
    assert code == 0 and state["phase"] == "choose"
    assert [p["in_game"] for p in state["players"]] == [True, True, False]
    code, state, _ = replay(capsys, doc(["a", "b", "c"], rounds + [choose("a", "steal"),
                                                                   choose("b", "alibi")]))
    assert state["winners"] == ["a"]


def test_T6_replay_empty_pile_shares_the_win(capsys):
    code, state, _ = replay(capsys, doc(["a", "b"], [choose("a", "steal"), choose("b", "steal")],
                                        trash=2))
    assert state["phase"] == "over" and state["winners"] == ["a", "b"]


def test_T7_replay_never_empties_the_table(capsys):
    actions = [choose("a", "accuse"), choose("b", "accuse"), choose("c", "alibi"),
               point("a", "c"), point("b", "c")]
    code, state, _ = replay(capsys, doc(["a", "b", "c"], actions))
    assert state["winners"] == ["c"] and state["phase"] == "over"


@pytest.mark.parametrize("text, message", [
    ("{not json", "malformed JSON"),
    ("[]", "must be a JSON object"),
    (json.dumps({"game": "chess", "players": ["a", "b"]}), "unknown game 'chess'"),
    (json.dumps({"game": "tatort-tonne", "players": "ab"}), "'players' must be a list"),
    (json.dumps({"game": "tatort-tonne", "players": ["a", "b"], "seed": "x"}), "'seed'"),
    (json.dumps({"game": "tatort-tonne", "players": ["a", "b"], "actions": {}}), "'actions'"),
    (json.dumps({"game": "tatort-tonne", "players": ["a", "b"], "options": {"x": 1}}),
     "unknown option"),
    ("", "malformed JSON"),
])
def test_garbage_replay_input_gets_one_line_and_exit_2(capsys, text, message):
    code, state, err = replay(capsys, text)
    assert code == 2 and state is None
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("action, message", [
    (choose("Zoe", "steal"), "no player 'Zoe'"),
    (choose("a", "sword"), "no card 'sword'"),
    ({"type": "choose"}, "needs 'player'"),
    ("steal", "JSON object"),
])
def test_unknown_player_or_card_stops_the_replay_with_exit_1(capsys, action, message):
    code, state, err = replay(capsys, doc(["a", "b"], [choose("b", "alibi"), action]))
    assert code == 1 and state["waiting_for"] == ["a"]
    assert message in err and "action 1" in err


def test_unreadable_file_is_a_clean_error(capsys, tmp_path):
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.parametrize("text, message", [
    (json.dumps({"game": ["tatort-tonne"], "players": ["a", "b"]}), "unknown game"),
    ("[" * 100_000, "nested too deeply"),  # deep enough to hit the limit of 3.11 and 3.13
])
def test_odd_json_is_refused_with_one_line(capsys, text, message):
    code, state, err = replay(capsys, text)
    assert code == 2 and message in err and err.count("\n") == 1


# -- issue 9, point 3: the command line's side --------------------------------------------------
BAD_UTF8 = b'{"game":"tatort-tonne","players":["Al\x83x","B"]}'


def replay_process(data: bytes, *, env: dict | None = None, read: bool = True):
    """``spielleiter replay -`` in a subprocess; ``read=False`` closes stdout's reader first."""
    import os

    proc = subprocess.Popen([sys.executable, "-m", "spielleiter.device.cli", "replay", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, **(env or {})})
    if not read:
        proc.stdout.close()  # like `| head -c 10` that has already gone
    out, err = proc.communicate(data, timeout=60) if read else (b"", None)
    if not read:
        proc.stdin.write(data)
        proc.stdin.close()
        err = proc.stderr.read()
        proc.stderr.close()
        proc.wait(timeout=60)
    return proc.returncode, out, err.decode("utf-8", "replace")


@pytest.mark.parametrize("locale", [{}, {"LC_ALL": "C", "PYTHONUTF8": "0"}])
def test_invalid_utf8_on_stdin_is_refused_like_a_file(tmp_path, locale):
    code, out, err = replay_process(BAD_UTF8, env=locale)
    assert code == 2 and out == b""
    assert err.count("\n") == 1 and "cannot read -" in err and "utf-8" in err.lower(), err
    path = tmp_path / "bad.json"
    path.write_bytes(BAD_UTF8)
    assert main(["replay", str(path)]) == 2


def test_a_reader_that_goes_away_gets_no_traceback():
    many = [{"type": "choose", "player": p, "card": "alibi"} for p in ("a", "b")]
    code, _out, err = replay_process(json.dumps(doc(["a", "b"], many)).encode(), read=False)
    assert "Traceback" not in err and "BrokenPipe" not in err, err
    assert code == 141  # as a shell reports a writer stopped by SIGPIPE


def test_a_lone_surrogate_in_a_name_is_one_line_and_exit_2(capsys):
    code, state, err = replay(capsys, '{"game": "tatort-tonne", "players": ["\\ud800x", "B"]}')
    assert code == 2 and state is None and err.count("\n") == 1, err


def test_printing_the_final_state_cannot_raise(capsys, monkeypatch):
    from spielleiter.device import replay as replay_mod

    monkeypatch.setattr(replay_mod, "run", lambda text: ({"players": ["\ud800x"]}, None))
    code, state, err = replay(capsys, doc(["a", "b"], []))
    assert code == 2 and state is None
    assert err.count("\n") == 1 and "not valid Unicode" in err, err


def test_a_document_over_the_size_limit_is_refused_without_reading_it_all(tmp_path, capsys):
    from spielleiter.device.cli import replay as command

    path = tmp_path / "huge.json"
    with open(path, "wb") as fh:  # a sparse 64 MiB file: reading it all would be the failure
        fh.truncate(64 * 1024 * 1024)
    code = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "larger than 4 MiB" in err
    assert command.MAX_BYTES == 4 * 1024 * 1024
    fits = doc(EXAMPLE, ROUND_ONE * 1)
    path.write_text(json.dumps(fits))
    assert main(["replay", str(path)]) == 0
