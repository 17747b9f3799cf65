"""``spielleiter sim --headless``: ``new`` and ``put``, and commands that must be refused, not
hang or crash the simulator. Driven in-process: the script on
a byte stdin, the answers (one JSON line each) from stdout."""

from __future__ import annotations

import io
import json
import re
import sys

import pytest

from spielleiter.device.cli import main
from spielleiter.device.cli.headless import MAX_SECONDS
from spielleiter.device.cli.pan_load import PAN_LIMIT_G
from spielleiter.device.replay import run as replay
from spielleiter.device.modes import GAME_MODES
from spielleiter.device.modes import MODES

TO_SCALE = "tap " + " ".join(["host.next"] * [m.name for m in MODES].index("scale"))


def sim(tmp_path, monkeypatch, capsys, *lines: str | bytes) -> list[dict]:
    """Run a script; the answers after the start report, one per line."""
    script = b"".join((ln if isinstance(ln, bytes) else ln.encode()) + b"\n" for ln in lines)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(script), encoding="utf-8"))
    assert main(["sim", "--headless", "--state-dir", str(tmp_path / "state")]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert answers[0]["command"] == "start"
    return answers[1:]


def grams(answer: dict, side: str) -> float:
    """What the Scale tool's screen shows for a pan (side "L" or "R")."""
    match = re.search(rf"{side}\s+(-?[\d.]+) g", answer["view"])
    assert match, answer["view"]
    return float(match[1])


def refused(answer: dict, *words: str) -> bool:
    return set(answer) == {"error"} and all(w in answer["error"] for w in words)


# -- new ------------------------------------------------------------------------------------------
def test_new_starts_the_game_the_link_and_replay_would(tmp_path, monkeypatch, capsys):
    [answer] = sim(tmp_path, monkeypatch, capsys, "new tatort-tonne Ann Bob Cy seed=7 trash=5")
    assert answer["mode"] == "game" and answer["actions"] == 0
    assert "[Spielleiter]" not in answer["view"], answer["view"]  # the game's screen, drawn
    expected, _ = replay(json.dumps({"game": "tatort-tonne", "players": ["Ann", "Bob", "Cy"],
                                     "seed": 7, "options": {"trash": 5}}))
    assert answer["state"] == expected


def test_new_is_journalled_and_resumes(tmp_path, monkeypatch, capsys):
    sim(tmp_path, monkeypatch, capsys, "new tatort-tonne Ann Bob Cy trash=5")
    [answer] = sim(tmp_path, monkeypatch, capsys, "show")
    assert answer["mode"] == "game" and answer["state"]["trash_left"] == 5
    assert [p["name"] for p in answer["state"]["players"]] == ["Ann", "Bob", "Cy"]


@pytest.mark.skipif("tante-trudels-troedel" not in GAME_MODES, reason="Trudel has no mode yet")
def test_new_takes_json_values(tmp_path, monkeypatch, capsys):
    [answer] = sim(tmp_path, monkeypatch, capsys,
                   "new tante-trudels-troedel Ann Bob scale_rows=[5,15]")
    assert answer["mode"] == "game", answer
    assert answer["state"]["scale_rows"] == [5, 15]


@pytest.mark.parametrize("line, words", [
    ("new", ["new GAME PLAYER"]),
    ("new chess Ann Bob", ["unknown game"]),
    ("new tatort-tonne Ann Bob trash=[5]", ["trash"]),            # the engine's refusal
    ("new tatort-tonne Ann Bob trash=five", ["trash"]),           # not JSON
    ("new tatort-tonne Ann Bob trash=NaN", ["NaN"]),
    ("new tatort-tonne Ann Bob trash=" + "9" * 5000, ["trash"]),  # over Python's int limit
    ("new tatort-tonne Ann Bob trash=" + "[" * 5000 + "]" * 5000, ["trash"]),
    ('new tatort-tonne Ann Bob x="\\ud800"', ["Unicode"]),        # a lone surrogate
    ("new tatort-tonne Ann trash=5 Bob", ["players first"]),
    ("new tatort-tonne Ann Bob seed=1.5", ["seed"]),
])
def test_a_bad_new_is_an_error_answer_and_changes_nothing(tmp_path, monkeypatch, capsys, line,
                                                           words):
    first, after = sim(tmp_path, monkeypatch, capsys, line, "show")
    assert refused(first, *words), first
    assert after["mode"] == "home" and after["state"] is None


def test_new_takes_names_as_the_roster_does_quoted_folded_and_one_to_a_person(
        tmp_path, monkeypatch, capsys):
    folded, alike, unquoted, apart = sim(
        tmp_path, monkeypatch, capsys, 'new tatort-tonne "Maria Luise" \uff21nna Ben',
        "new tatort-tonne Anna ANNA Ben", 'new tatort-tonne "Anna Ben',
        "new tatort-tonne Strauß Strauss\u00a0Ben")              # a no-break space parts words
    assert [p["name"] for p in folded["state"]["players"]] == ["Maria Luise", "Anna", "Ben"]
    assert refused(alike, "players 'Anna' and 'ANNA' look the same on the screen")
    assert refused(unquoted, "no closing quotation")
    assert [p["name"] for p in apart["state"]["players"]] == ["Strauß", "Strauss", "Ben"]


def test_a_bad_new_leaves_the_running_game_alone(tmp_path, monkeypatch, capsys):
    started, bad, after = sim(tmp_path, monkeypatch, capsys, "new tatort-tonne Ann Bob Cy",
                              "new tatort-tonne Ann Bob trash=0", "show")
    assert refused(bad, "trash")
    assert after["state"] == started["state"] and after["mode"] == "game"


# -- put ------------------------------------------------------------------------------------------
def test_put_sets_grams_on_every_configured_pan(tmp_path, monkeypatch, capsys):
    answers = sim(tmp_path, monkeypatch, capsys, TO_SCALE, "tap host.ok",
                  "put left 50", "put right 20", "idle 3", "put left -50", "idle 3")
    assert "Scale" in answers[1]["view"]
    loaded, emptied = answers[4], answers[6]
    assert (grams(loaded, "L"), grams(loaded, "R")) == (pytest.approx(50, abs=0.1),
                                                        pytest.approx(20, abs=0.1))
    assert (grams(emptied, "L"), grams(emptied, "R")) == (pytest.approx(0, abs=0.1),
                                                          pytest.approx(20, abs=0.1))


def test_every_answer_says_what_lies_on_each_pan_and_a_restart_brings_it_back(
        tmp_path, monkeypatch, capsys):
    answers = sim(tmp_path, monkeypatch, capsys, "put left 50", "put left 20", "put right 5",
                  "put left -20")
    assert [a["pans"] for a in answers] == [{"left": [50.0], "right": []},
                                            {"left": [50.0, 20.0], "right": []},
                                            {"left": [50.0, 20.0], "right": [5.0]},
                                            {"left": [50.0], "right": [5.0]}]
    [again] = sim(tmp_path, monkeypatch, capsys, "show")
    assert again["pans"] == {"left": [50.0], "right": [5.0]}


def test_empty_lifts_everything_off_one_pan_or_all_of_them(tmp_path, monkeypatch, capsys):
    answers = sim(tmp_path, monkeypatch, capsys, TO_SCALE, "tap host.ok",
                  "put left 50", "put left 7.5", "put right 20", "idle 3",
                  "empty left", "idle 3", "empty", "idle 3", "empty middle", "empty left right")
    one, both = answers[7], answers[9]
    assert (grams(one, "L"), grams(one, "R")) == (pytest.approx(0, abs=0.1),
                                                  pytest.approx(20, abs=0.1))
    assert (grams(both, "L"), grams(both, "R")) == (pytest.approx(0, abs=0.1),
                                                    pytest.approx(0, abs=0.1))
    assert refused(answers[10], "empty [PAN]", "left, right") and refused(answers[11], "empty")


@pytest.mark.parametrize("line, words", [
    ("put middle 5", ["unknown pan 'middle'", "left, right"]),
    ("put left", ["put PAN GRAMS"]),
    ("put left five", ["not a number"]),
    ("put left nan", ["not a finite number"]),
    ("put left inf", ["not a finite number"]),
    ("put left 1e400", ["not a finite number"]),   # float() makes it inf
    ("put left -1e400", ["not a finite number"]),
    (f"put left {PAN_LIMIT_G * 2:g}", [f"at most {PAN_LIMIT_G:g} g"]),
    ("put left 1e300", [f"at most {PAN_LIMIT_G:g} g"]),
    ("put left -1e300", ["0 g lies on the left pan, lift at most that"]),
    ("put left -10", ["-10 g: 0 g lies on the left pan"]),          # no hand lifts an empty pan
])
def test_bad_grams_are_refused_and_the_pan_keeps_weighing(tmp_path, monkeypatch, capsys, line,
                                                          words):
    answers = sim(tmp_path, monkeypatch, capsys, TO_SCALE, "tap host.ok", line,
                  "put left 50", "idle 3")
    assert refused(answers[2], *words), answers[2]
    assert grams(answers[4], "L") == pytest.approx(50, abs=0.1)  # the reader still reads


# -- time -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("line", ["idle inf", "idle 1e9", "idle nan", "idle -1",
                                  f"idle {MAX_SECONDS + 1:g}", "hold host.ok inf",
                                  "hold host.ok 1e9", "hold host.ok 0", "hold host.ok nan",
                                  "idle", "hold host.ok"])
def test_endless_or_negative_time_is_refused_at_once(tmp_path, monkeypatch, capsys, line):
    first, after = sim(tmp_path, monkeypatch, capsys, line, "show")
    assert refused(first), first
    assert after["mode"] == "home"


def test_the_longest_idle_is_allowed(tmp_path, monkeypatch, capsys):
    [answer] = sim(tmp_path, monkeypatch, capsys, f"idle {MAX_SECONDS:g}")
    assert answer["command"] == f"idle {MAX_SECONDS:g}"


@pytest.mark.parametrize("seconds", ["0", "-1", f"{MAX_SECONDS + 1:g}"])
def test_a_hold_out_of_range_is_refused_for_what_is_wrong_with_the_hold(tmp_path, monkeypatch,
                                                                        capsys, seconds):
    [answer] = sim(tmp_path, monkeypatch, capsys, f"hold host.back {seconds}")
    assert refused(answer, "a hold keeps the button down for more than 0 s", "tap BUTTON")
    assert "idle" not in answer["error"]


# -- other input ----------------------------------------------------------------------------------
def test_unknown_commands_buttons_keys_and_bytes_are_answered(tmp_path, monkeypatch, capsys):
    answers = sim(tmp_path, monkeypatch, capsys, "dance", "tap host.nope", "keys !",
                  b"tap host.ok \xff", "", "show")
    assert refused(answers[0], "use tap, hold, idle, keys, put, empty, new or show")
    assert refused(answers[1], "unknown button 'host.nope'")
    assert refused(answers[2], "unknown key '!'", "the pans take put and empty")
    assert refused(answers[3], "not UTF-8")
    assert answers[4]["command"] == "" and answers[5]["command"] == "show"  # every line answered


def test_every_line_is_answered_and_words_that_do_nothing_are_refused(tmp_path, monkeypatch,
                                                                     capsys):
    """A script that waits for each line's answer never hangs (a blank line got none), and a
    command with words it does not take says so instead of doing nothing."""
    answers = sim(tmp_path, monkeypatch, capsys, "", "# a comment", "tap", "keys", "show extra",
                  "show")
    assert len(answers) == 6
    assert [a["command"] for a in answers[:2]] == ["", "# a comment"]
    assert refused(answers[2], "tap BUTTON...") and refused(answers[3], "keys KEY...")
    assert refused(answers[4], "show takes nothing after it")
    assert answers[5]["mode"] == "home"


def test_a_german_box_answers_a_script_in_german_throughout(tmp_path, monkeypatch, capsys):
    """A trial saw German name refusals beside English ones in one session."""
    script = "\n".join(["dance", "new tatort-tonne Ben", "new tatort-tonne Anna ANNA",
                        "put left -5", "tap host.nope", "new chess A B"]) + "\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(script.encode()),
                                                       encoding="utf-8"))
    assert main(["sim", "--headless", "--lang", "de", "--state-dir", str(tmp_path / "s")]) == 0
    errors = [json.loads(line)["error"] for line in capsys.readouterr().out.splitlines()[1:]]
    assert errors == [
        "Befehl 'dance' abgelehnt: Befehle: tap, hold, idle, keys, put, empty, new oder show",
        "Befehl 'new tatort-tonne Ben' abgelehnt: tatort-tonne kann nicht beginnen: "
        + errors[1].split("beginnen: ")[1],
        "Befehl 'new tatort-tonne Anna ANNA' abgelehnt: Spieler 'Anna' und 'ANNA' sehen auf dem "
        "Bildschirm gleich aus",
        "Befehl 'put left -5' abgelehnt: -5 g: auf der Schale links liegen 0 g, höchstens so "
        "viel abnehmen",
        "Befehl 'tap host.nope' abgelehnt: unbekannte Taste 'host.nope' (host.back, host.ok, "
        "host.next, s1.A ...)",
        "Befehl 'new chess A B' abgelehnt: unbekanntes Spiel 'chess'; bekannt: "
        + errors[5].split("bekannt: ")[1],
    ]
    assert "Spieler" in errors[1] and "players" not in errors[1]   # the engine's words, German
