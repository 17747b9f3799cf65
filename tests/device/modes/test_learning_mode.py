"""The learning station on the whole simulated box: mock pins, simulated pans, the journal."""

from __future__ import annotations

import pytest

from spielleiter.device.cli.demo import run_demo
from spielleiter.device.history import History
from spielleiter.device.journal import Journal
from spielleiter.device.modes import MODES
from spielleiter.device.roster import Roster
from spielleiter.device.screens import CHARS
from spielleiter.games import learning
from support import HeadlessSim

SETTLE = 2.0  # things put down: settled and judged together, the new screen read


def fits(view) -> None:
    """The table's rules for screens: short lines, a short big word, nothing below the fold."""
    assert len(view.title) <= CHARS and all(len(line) <= CHARS for line in view.lines), view
    assert len(view.footer) <= CHARS, view
    if view.big:
        assert len(view.big) <= CHARS // 2, view
        room = 1 if view.footer else 2
        assert len(view.lines) <= room, view.as_text()
    elif view.cursor is None:
        assert len(view.lines) <= (4 if view.footer else 5), view.as_text()


@pytest.fixture
def station(box_factory):
    """A box with two pans, Mia and Jonas on the roster; every screen shown is checked."""
    box = box_factory()
    roster = Roster(box.journal)
    roster.add("Mia")
    roster.add("Jonas")
    shown = box._show

    def show(view):
        fits(view)
        shown(view)

    box.app._show = show
    return box


def open_learning(box) -> None:
    while MODES[box.app.cursor].name != "learning":
        box.tap("host.next")
    box.tap("host.ok")
    assert box.last_view.title == "Who is learning?"


def pick(box, line: str) -> None:
    """Move the cursor to the line that starts with ``line`` and choose it."""
    for _ in range(len(box.last_view.lines)):
        if box.last_view.lines[box.last_view.cursor].startswith(line):
            box.tap("host.ok")
            return
        box.tap("host.next")
    raise AssertionError(f"{line!r} not on {box.last_view.as_text()}")


def start(box, child: str, quiz: str) -> None:
    open_learning(box)
    pick(box, child)
    pick(box, quiz)


def clear_pans(box, **grams: float) -> None:
    for pan, g in grams.items():
        box.put(pan, -g)
    box.idle(SETTLE)


def heavier_round(box, left: float, right: float, key: str) -> str:
    box.put("left", left)
    box.put("right", right)
    box.idle(SETTLE)
    box.tap(key)
    box.idle(SETTLE)
    return box.last_view.big


def attempts(box, child: str) -> list:
    return [r.attempt for r in History(box.journal).records(child)]


# -- the four quizzes ----------------------------------------------------------------------------
def test_which_is_heavier_is_judged_from_the_stable_pans_and_revealed_with_the_difference(station):
    box = station
    start(box, "Mia", "Heavier?")
    assert box.last_view.big == "2 THINGS"
    assert heavier_round(box, 300.0, 120.0, "s1.A") == "YES!"
    assert box.last_view.lines == ("Left: 180 g more",)
    box.tap("host.ok")
    assert box.last_view.big == "EMPTY"                  # the same things are not asked twice
    clear_pans(box, left=300.0, right=120.0)
    assert box.last_view.big == "2 THINGS"
    [attempt] = attempts(box, "Mia")
    assert (attempt.quiz, attempt.guess, attempt.truth_g, attempt.correct) == \
        ("heavier", "left", 180.0, True)


def test_a_miss_hides_the_answer_and_trying_again_on_the_same_things_costs_nothing(station):
    box = station
    start(box, "Mia", "Heavier?")
    assert heavier_round(box, 90.0, 400.0, "s2.A") == "NOT QUITE"
    assert box.last_view.lines == ("Try again!",) and "400" not in box.last_view.as_text()
    box.tap("host.ok")                                   # try again
    box.put("right", -400.0)                             # lifts the pot to heft it ...
    box.idle(0.5)
    box.put("right", 400.0)                              # ... and puts it back
    box.idle(SETTLE)
    box.tap("s2.C")
    box.idle(SETTLE)
    assert box.last_view.big == "YES!"
    first, again = attempts(box, "Mia")
    assert (first.correct, first.retry, again.correct, again.retry) == (False, False, True, True)


def test_next_after_a_miss_shows_the_answer(station):
    box = station
    start(box, "Mia", "Heavier?")
    heavier_round(box, 90.0, 400.0, "s1.B")
    box.tap("host.next")
    assert box.last_view.big == "RIGHT" and box.last_view.lines == ("Right: 310 g more",)


def test_which_is_heavier_answers_from_the_host_panel_too(station):
    box = station
    start(box, "Jonas", "Heavier?")
    box.put("left", 100.0)
    box.put("right", 104.0)
    box.idle(SETTLE)
    box.tap("host.next")                                 # cursor to "the same"
    box.tap("host.ok")
    box.idle(SETTLE)
    assert box.last_view.big == "YES!" and box.last_view.lines == ("Only 4 g apart",)


def test_how_many_grams_steps_coarse_and_fine_and_hints_more_or_less(station):
    box = station
    start(box, "Mia", "Grams?")
    assert box.last_view.big == "1 THING"
    box.put("left", 37.0)
    box.idle(SETTLE)
    assert box.last_view.big == "100 g" and "250" not in box.last_view.as_text()
    box.tap("s1.A")                                       # 50 g
    box.tap("s1.B")                                       # fine: steps of 10 g
    for _ in range(4):
        box.tap("s1.C")                                   # 90 g
    assert box.last_view.big == "90 g"
    box.tap("host.ok")
    assert box.last_view.big == "LESS"                     # 53 g off: more than half of 37 g
    box.tap("host.ok")                                     # try again
    for _ in range(5):
        box.tap("s1.A")                                    # 40 g
    box.tap("host.ok")
    assert box.last_view.big == "YES!" and box.last_view.lines == ("It is 37 g",)
    miss, good = attempts(box, "Mia")
    assert (miss.guess, miss.error, miss.correct) == ("90", 53.0, False)
    assert (good.guess, good.retry, good.correct) == ("40", True, True)


def test_how_many_grams_shows_the_truth_on_next_after_a_miss(station):
    box = station
    start(box, "Mia", "Grams?")
    box.put("left", 640.0)
    box.idle(SETTLE)
    box.tap("host.ok")                                     # 100 g: far too little
    assert box.last_view.big == "MORE"
    box.tap("host.next")
    assert box.last_view.big == "640 g" and box.last_view.lines == ("You said 100 g",)


def test_make_it_balance_says_more_and_less_until_the_pans_balance(station):
    box = station
    start(box, "Mia", "Balance")
    assert box.last_view.big == "LEFT"
    box.put("left", 250.0)
    box.idle(SETTLE)
    assert box.last_view.big == "MORE"
    box.put("right", 300.0)
    box.idle(SETTLE)
    assert box.last_view.big == "LESS"
    box.put("right", -40.0)
    box.idle(SETTLE)
    assert box.last_view.big == "BALANCED" and box.last_view.lines == ("250 g = 260 g",)
    [attempt] = attempts(box, "Mia")
    assert (attempt.truth_g, attempt.error, attempt.correct) == (250.0, 10.0, True)


def test_giving_up_on_the_balance_shows_the_left_pans_weight(station):
    box = station
    start(box, "Mia", "Balance")
    box.put("left", 180.0)
    box.idle(SETTLE)
    box.tap("host.next")
    assert box.last_view.big == "180 g"
    assert attempts(box, "Mia")[0].correct is False


def weigh_three(box, weights) -> None:
    for grams in weights:
        box.put("left", grams)
        box.idle(SETTLE)
        assert box.last_view.lines == ("Take it off.",)
        box.put("left", -grams)
        box.idle(SETTLE)


def test_put_them_in_order_weighs_three_things_without_showing_grams(station):
    box = station
    start(box, "Mia", "In order")
    assert box.last_view.big == "No. 1"
    weigh_three(box, (140.0, 60.0, 505.0))
    assert box.last_view.title == "Lightest first" and box.last_view.big == "_ < _ < _"
    box.tap("s1.A")
    box.tap("host.back")                                    # takes back the last pick
    assert box.last_view.big == "_ < _ < _"
    box.tap("s1.B")
    box.tap("s1.B")                                         # picked already: says so
    assert "already picked" in box.last_view.as_text()
    box.tap("host.ok")                                      # the first left: thing 1
    box.tap("s1.C")
    assert box.last_view.big == "YES!" and box.last_view.lines == ("60 < 140 < 505 g",)


def test_put_them_in_order_a_wrong_order_can_be_tried_again_then_shown(station):
    box = station
    start(box, "Mia", "In order")
    weigh_three(box, (140.0, 60.0, 505.0))
    for key in ("s1.C", "s1.B", "s1.A"):
        box.tap(key)
    assert box.last_view.big == "NOT QUITE"
    box.tap("host.ok")
    for key in ("s1.A", "s1.B", "s1.C"):
        box.tap(key)
    assert box.last_view.big == "NOT QUITE"
    box.tap("host.next")
    assert box.last_view.big == "2 < 1 < 3"
    first, again = attempts(box, "Mia")
    assert (first.error, first.retry, again.error, again.retry) == (2, False, 1, True)


def test_a_press_that_does_nothing_says_why(station):
    box = station
    start(box, "Mia", "Heavier?")
    box.tap("s1.A")
    assert "each pan first" in box.last_view.as_text()


# -- levels, memory, guests ----------------------------------------------------------------------
def test_the_level_rises_on_the_device_after_a_run_of_good_answers(station):
    box = station
    start(box, "Mia", "Heavier?")
    for n in range(learning.UP_AFTER):
        assert heavier_round(box, 200.0, 100.0, "s1.A") in ("YES!", "LEVEL 2")
        if n == learning.UP_AFTER - 1:
            assert box.last_view.big == "LEVEL 2"            # announced at once
        box.tap("host.ok")
        clear_pans(box, left=200.0, right=100.0)
    box.tap("host.back")
    assert box.last_view.lines[0] == "Heavier?  \u2605\u2605"
    box.tap("host.ok")
    # 12 g apart: "the same" for a beginner, not at level 2
    assert heavier_round(box, 112.0, 100.0, "s1.B") == "NOT QUITE"
    assert attempts(box, "Mia")[-1].level == 2


def test_the_level_falls_after_misses_without_a_word_of_blame(station):
    box = station
    history = History(station.journal)
    for _ in range(learning.UP_AFTER):
        history.add("Mia", learning.score_heavier(200.0, 100.0, "left", 1))
    start(box, "Mia", "Heavier?")
    for n in range(learning.DOWN_AFTER):
        heavier_round(box, 200.0, 100.0, "s1.C")
        if n == learning.DOWN_AFTER - 1:
            assert box.last_view.big == "LEVEL 1"
            assert box.last_view.lines == ("Let's practise!",)
        box.tap("host.next")                                 # show me
        box.tap("host.ok")
        clear_pans(box, left=200.0, right=100.0)
    assert History(box.journal).levels("Mia")["heavier"] == 1
    assert "win" not in box.beeper.played                    # a gentle tick, no fanfare


def test_a_good_answer_sounds_happy_and_a_miss_gentle(station):
    box = station
    start(box, "Mia", "Heavier?")
    heavier_round(box, 200.0, 100.0, "s1.A")
    assert box.beeper.played[-1] == "score"
    box.tap("host.ok")
    clear_pans(box, left=200.0, right=100.0)
    heavier_round(box, 200.0, 100.0, "s1.C")
    assert box.beeper.played[-1] == "tick" and "error" not in box.beeper.played


def test_each_childs_history_and_level_survive_a_restart(box_factory, tmp_path):
    box = box_factory(state_dir=tmp_path / "state")
    Roster(box.journal).add("Mia")
    for _ in range(learning.UP_AFTER):
        History(box.journal).add("Mia", learning.score_grams(100.0, 100, 1))
    box.close()
    box = box_factory(state_dir=tmp_path / "state")
    start(box, "Mia", "My results")
    assert box.last_view.title == "Mia"
    assert box.last_view.lines[:2] == ("Today: 4 of 4 right", "Best streak: 4")
    box.tap("host.ok")
    assert "Grams?    \u2605\u2605" in box.last_view.lines


def test_a_guests_answers_are_kept_under_no_name(station):
    box = station
    start(box, "Guest", "Heavier?")
    assert heavier_round(box, 300.0, 100.0, "s1.A") == "YES!"
    assert History(box.journal).records() == []
    box.tap("host.back")
    assert "My results" not in box.last_view.lines


def test_nothing_a_child_presses_clears_a_history(station):
    box = station
    History(box.journal).add("Jonas", learning.score_grams(100.0, 100, 1))
    start(box, "Mia", "My results")
    for key in ("host.ok", "host.next", "host.back", "s1.A", "s1.B", "s1.C", "host.ok"):
        box.tap(key)
    box.hold("host.back", 1.5)                               # the long BACK of undo
    assert len(History(box.journal).records("Jonas")) == 1


def test_an_empty_roster_offers_only_a_guest(box_factory):
    box = box_factory()
    open_learning(box)
    assert box.last_view.lines == ("Guest",)


def test_the_history_survives_a_sigkill(tmp_path):
    with Journal(tmp_path / "journal.sqlite3") as journal:
        Roster(journal).add("Mia")
    sim = HeadlessSim(tmp_path)
    names = [mode.name for mode in MODES]
    for _ in range(names.index("learning")):
        sim.send("tap host.next")
    sim.send("tap host.ok")                                  # Who is learning? Mia
    sim.send("tap host.ok")                                  # Heavier?
    sim.send("tap host.ok")
    sim.send("put left 250")
    sim.send("put right 75")
    sim.send(f"idle {SETTLE}")
    sim.send("tap s1.A")
    reply = sim.send(f"idle {SETTLE}")
    assert "YES!" in reply["view"]
    sim.kill()                                               # power cut on the result screen
    with Journal(tmp_path / "journal.sqlite3") as journal:
        [record] = History(journal).records("Mia")
    assert (record.attempt.quiz, record.attempt.correct, record.attempt.truth_g) == \
        ("heavier", True, 175.0)
    sim = HeadlessSim(tmp_path)                              # and the box shows it again
    for _ in range(names.index("learning")):
        sim.send("tap host.next")
    sim.send("tap host.ok")
    sim.send("tap host.ok")                                  # Mia
    for _ in range(len(learning.QUIZZES)):
        sim.send("tap host.next")
    reply = sim.send("tap host.ok")                          # My results
    assert "Answers: 1" in reply["view"] and "Today: 1 of 1 right" in reply["view"]
    sim.close()


def test_the_demo_walks_through_each_quiz(capsys):
    lines: list[str] = []
    assert run_demo("learning-station", out=lines.append) == 0
    said = [line for line in lines if line.startswith("###")]
    assert len(said) >= 5
