"""The learning station on the whole simulated box: mock pins, simulated pans, the journal."""

from __future__ import annotations

import pytest

from spielleiter.device.cli.demo import run_demo
from spielleiter.device.journal.learning import History
from spielleiter.device.journal.store import Journal
from spielleiter.device.modes import MODES
from spielleiter.device.journal.roster import Roster
from spielleiter.device.screen.fonts import BIG_SIZES
from spielleiter.device.screen.render import WIDTH, big_width, crowded, layout, misfits
from spielleiter.games import learning
from support import HeadlessSim

SETTLE = 2.0  # things put down: settled and judged together, the new screen read


STAR2 = "\u2605 \u2605"  # two stars, drawn big


def fits(view) -> None:
    """The table's rules for screens: nothing clipped, one idea a page, and the word that
    matters drawn in the largest type (32 px) whenever it is short enough to be."""
    assert not misfits(view), view.as_text()
    assert not crowded(view), view.as_text()
    if view.big and big_width(view.big, BIG_SIZES[0]) <= WIDTH:
        assert layout(view).size == BIG_SIZES[0], view.as_text()


@pytest.fixture
def station(box_factory):
    """A box with two pans, Mia and Jonas on the roster; every screen shown is checked."""
    box = box_factory()
    roster = Roster(box.journal)
    roster.add("Mia")
    roster.add("Jonas")
    shown = box.app._show

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
    """Choose the name that starts with ``line`` (a list) or the quiz menu's entry whose title
    does (one entry a screen)."""
    for _ in range(8):
        view = box.last_view
        here = view.lines[view.cursor] if view.cursor is not None else view.title
        if here.startswith(line):
            box.tap("host.ok")
            return
        box.tap("host.next")
    raise AssertionError(f"{line!r} not on {box.last_view.as_text()}")


def turn_to(box, title: str) -> None:
    """Turn the quiz menu (one entry a screen) to the entry titled ``title``."""
    for _ in range(8):
        if box.last_view.title == title:
            return
        box.tap("host.next")
    raise AssertionError(f"{title!r} not in the quiz menu")


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
    start(box, "Mia", "Which is heavier")
    assert box.last_view.big == "BOTH"
    assert heavier_round(box, 300.0, 120.0, "s1.A") == "YES!"
    assert box.last_view.lines == ("Left: 180 g more",)
    box.tap("host.ok")
    assert box.last_view.big == "EMPTY"                  # the same things are not asked twice
    clear_pans(box, left=300.0, right=120.0)
    assert box.last_view.big == "BOTH"
    [attempt] = attempts(box, "Mia")
    assert (attempt.quiz, attempt.guess, attempt.truth_g, attempt.correct) == \
        ("heavier", "left", 180.0, True)


def test_a_miss_hides_the_answer_and_trying_again_on_the_same_things_costs_nothing(station):
    box = station
    start(box, "Mia", "Which is heavier")
    assert heavier_round(box, 90.0, 400.0, "s2.A") == "NOT YET"
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
    start(box, "Mia", "Which is heavier")
    heavier_round(box, 90.0, 400.0, "s1.B")
    box.tap("host.next")
    assert box.last_view.big == "RIGHT" and box.last_view.lines == ("Right: 310 g more",)


def test_which_is_heavier_answers_from_the_host_panel_too(station):
    box = station
    start(box, "Jonas", "Which is heavier")
    box.put("left", 100.0)
    box.put("right", 104.0)
    box.idle(SETTLE)
    box.tap("host.next")                                 # cursor to "the same"
    box.tap("host.ok")
    box.idle(SETTLE)
    assert box.last_view.big == "YES!" and box.last_view.lines == ("Only 4 g apart",)


def test_the_next_question_starts_with_no_answer_of_the_last_one_chosen(station):
    box = station
    start(box, "Jonas", "Which is heavier")
    assert heavier_round(box, 100.0, 150.0, "s1.C") == "YES!"   # C: right
    box.tap("host.ok")                                          # the next one
    clear_pans(box, left=100.0, right=150.0)
    box.put("left", 100.0)
    box.put("right", 104.0)
    box.idle(SETTLE)
    assert box.last_view.cursor == 0                            # not on "right" still


def test_how_many_grams_steps_coarse_and_fine_and_hints_more_or_less(station):
    box = station
    start(box, "Mia", "How many grams")
    assert box.last_view.big == "1 THING" and box.last_view.lines == ("on the left pan",)
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
    assert box.last_view.lines == ("It is lighter!",)
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
    start(box, "Mia", "How many grams")
    box.put("left", 440.0)
    box.idle(SETTLE)
    box.tap("host.ok")                                     # 100 g: far too little
    assert box.last_view.big == "MORE"
    box.tap("host.next")
    assert box.last_view.big == "440 g" and box.last_view.lines == ("You said 100 g",)


def test_make_it_balance_says_more_and_less_until_the_pans_balance(station):
    box = station
    start(box, "Mia", "Make it balance")
    assert box.last_view.big == "1 THING"
    box.put("left", 250.0)
    box.idle(SETTLE)
    assert box.last_view.big == "MORE"
    box.put("right", 300.0)
    box.idle(SETTLE)
    assert box.last_view.big == "LESS"
    box.put("right", -40.0)
    box.idle(SETTLE)
    assert box.last_view.big == "BALANCED" and box.last_view.lines == ("250 g and 260 g",)
    [attempt] = attempts(box, "Mia")
    assert (attempt.truth_g, attempt.error, attempt.correct) == (250.0, 10.0, True)


def test_giving_up_on_the_balance_shows_the_left_pans_weight(station):
    box = station
    start(box, "Mia", "Make it balance")
    box.put("left", 180.0)
    box.idle(SETTLE)
    box.tap("host.next")
    assert box.last_view.big == "180 g"
    assert attempts(box, "Mia")[0].correct is False


def weigh_three(box, weights) -> None:
    for grams in weights:
        box.put("left", grams)
        box.idle(SETTLE)
        assert box.last_view.lines == ("Got it! Take it off",)
        box.put("left", -grams)
        box.idle(SETTLE)


def test_put_them_in_order_weighs_three_things_without_showing_grams(station):
    box = station
    start(box, "Mia", "Put them in order")
    assert box.last_view.big == "1 of 3"
    weigh_three(box, (140.0, 60.0, 505.0))
    assert box.last_view.lines == ("Lightest first",) and box.last_view.big == "? ? ?"
    box.tap("s1.A")
    box.tap("host.back")                                    # takes back the last pick
    assert box.last_view.big == "? ? ?"
    box.tap("s1.B")
    box.tap("s1.B")                                         # picked already: says so
    assert (box.last_view.big, box.last_view.lines) == ("2", ("is already in",))
    box.tap("host.ok")                                      # the first left: thing 1
    box.tap("s1.C")
    assert box.last_view.big == "YES!" and box.last_view.lines == ("60 < 140 < 505 g",)


def test_put_them_in_order_a_wrong_order_can_be_tried_again_then_shown(station):
    box = station
    start(box, "Mia", "Put them in order")
    weigh_three(box, (140.0, 60.0, 505.0))
    for key in ("s1.C", "s1.B", "s1.A"):
        box.tap(key)
    assert box.last_view.big == "NOT YET"
    box.tap("host.ok")
    for key in ("s1.A", "s1.B", "s1.C"):
        box.tap(key)
    assert box.last_view.big == "NOT YET"
    box.tap("host.next")
    assert box.last_view.big == "2 1 3"
    first, again = attempts(box, "Mia")
    assert (first.error, first.retry, again.error, again.retry) == (2, False, 1, True)


def test_a_press_that_does_nothing_says_why(station):
    box = station
    start(box, "Mia", "Which is heavier")
    box.tap("s1.A")
    assert (box.last_view.big, box.last_view.lines) == ("FIRST", ("One thing on each pan",))


# -- levels, memory, guests ----------------------------------------------------------------------
def test_the_level_rises_on_the_device_after_a_run_of_good_answers(station):
    box = station
    start(box, "Mia", "Which is heavier")
    for n in range(learning.UP_AFTER):
        assert heavier_round(box, 200.0, 100.0, "s1.A") in ("YES!", STAR2)
        if n == learning.UP_AFTER - 1:
            assert box.last_view.title == "Level 2"          # announced at once, in stars
            assert box.last_view.big == STAR2
        box.tap("host.ok")
        clear_pans(box, left=200.0, right=100.0)
    box.tap("host.back")
    assert (box.last_view.title, box.last_view.big) == ("Which is heavier?", STAR2)
    box.tap("host.ok")
    # 12 g apart: "the same" for a beginner, not at level 2
    assert heavier_round(box, 112.0, 100.0, "s1.B") == "NOT YET"
    assert attempts(box, "Mia")[-1].level == 2


def test_the_level_falls_after_misses_without_a_word_of_blame(station):
    box = station
    history = History(station.journal)
    for _ in range(learning.UP_AFTER):
        history.add("Mia", learning.score_heavier(200.0, 100.0, "left", 1))
    start(box, "Mia", "Which is heavier")
    for n in range(learning.DOWN_AFTER):
        heavier_round(box, 200.0, 100.0, "s1.C")
        if n == learning.DOWN_AFTER - 1:
            assert (box.last_view.title, box.last_view.big) == ("Level 1", "\u2605")
            assert box.last_view.lines == ("Let's practise!",)
        box.tap("host.next")                                 # show me
        box.tap("host.ok")
        clear_pans(box, left=200.0, right=100.0)
    assert History(box.journal).levels("Mia")["heavier"] == 1
    assert "win" not in box.beeper.played                    # a gentle tick, no fanfare


def test_a_good_answer_sounds_happy_and_a_miss_gentle(station):
    box = station
    start(box, "Mia", "Which is heavier")
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
    assert (box.last_view.title, box.last_view.big) == ("Right today", "4 of 4")
    box.tap("host.ok")
    assert (box.last_view.title, box.last_view.big) == ("Most in a row", "4")
    box.tap("host.back")
    turn_to(box, "How many grams?")
    assert box.last_view.big == STAR2


def test_a_guests_answers_are_kept_under_no_name(station):
    box = station
    start(box, "Guest", "Which is heavier")
    assert heavier_round(box, 300.0, 100.0, "s1.A") == "YES!"
    assert History(box.journal).records() == []
    box.tap("host.back")
    titles = set()
    for _ in range(8):
        titles.add(box.last_view.title)
        box.tap("host.next")
    assert "My results" not in titles and "How it works" in titles


def test_nothing_a_child_presses_clears_a_history(station):
    box = station
    History(box.journal).add("Jonas", learning.score_grams(100.0, 100, 1))
    start(box, "Mia", "My results")
    for key in ("host.ok", "host.next", "host.back", "s1.A", "s1.B", "s1.C", "host.ok"):
        box.tap(key)
    box.hold("host.back", 1.5)                               # the long BACK of undo
    assert len(History(box.journal).records("Jonas")) == 1


def test_an_empty_roster_offers_a_guest_and_a_new_child(box_factory):
    box = box_factory()
    open_learning(box)
    assert box.last_view.lines == ("Guest", "New child")


def test_a_new_child_typed_on_the_box_is_kept_on_the_roster_and_starts_at_once(box_factory):
    from support import type_name

    box = box_factory()
    open_learning(box)
    pick(box, "New child")
    type_name(box, "Mia")
    assert Roster(box.journal).names() == ["Mia"]
    assert box.app.screens.tool.child == "Mia" and box.app.screens.tool.step == "menu"


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
    assert "Right today" in reply["view"] and "1 of 1" in reply["view"]
    sim.send("tap host.ok")
    reply = sim.send("tap host.ok")
    assert "Answers in all" in reply["view"] and "** 1 **" in reply["view"]
    sim.close()


def test_the_demo_walks_through_each_quiz(capsys):
    lines: list[str] = []
    assert run_demo("learning-station", out=lines.append) == 0
    said = [line for line in lines if line.startswith("###")]
    assert len(said) >= 5


# -- screens a child can read: reasons, wobbling, a pulled cable, how it works ------------------
def test_the_quiz_menu_shows_one_quiz_a_screen_with_the_childs_stars_big(station):
    box = station
    open_learning(box)
    pick(box, "Mia")
    seen = []
    for _ in range(6):
        seen.append((box.last_view.title, box.last_view.big))
        box.tap("host.next")
    assert seen == [("Which is heavier?", "\u2605"), ("How many grams?", "\u2605"),
                    ("Make it balance", "\u2605"), ("Put them in order", "\u2605"),
                    ("My results", "Mia"), ("How it works", "?")]
    assert box.last_view.title == "Which is heavier?"           # and round again


def test_how_it_works_turns_its_pages_with_ok_and_back_leaves_at_once(station):
    box = station
    start(box, "Jonas", "How it works")
    pages = [box.last_view.big]
    while box.last_view.footer != "OK back":
        box.tap("host.ok")
        pages.append(box.last_view.big)
    assert pages[:2] == ["THINGS", "A B C"] and len(pages) == 6
    box.tap("host.ok")
    assert box.last_view.title == "How it works"                # back on the menu
    box.tap("host.ok")
    box.tap("host.back")
    assert box.last_view.title == "How it works"


def test_a_station_button_on_a_menu_says_the_box_buttons_choose(station):
    box = station
    open_learning(box)
    box.tap("s2.A")
    assert (box.last_view.big, box.last_view.lines) == ("NEXT/OK", ("Buttons on the box",))
    box.tap("host.ok")                                           # the message goes, OK chooses
    assert box.last_view.title == "Which is heavier?"


def test_keys_while_the_pans_wobble_say_wait_in_child_words(station):
    box = station
    start(box, "Mia", "Which is heavier")
    box.put("left", 300.0)
    box.put("right", 120.0)
    box.idle(0.7)
    box.put("right", 5.0)                                        # a hand bumps a pan
    box.idle(0.2)                      # (a 10 SPS chip shows it from its 2nd conversion on)
    box.tap("s1.A", settle=0.1)                                  # a quick guess
    assert (box.last_view.big, box.last_view.lines) == ("WAIT", ("Still wobbling...",))
    box.tap("s1.C", settle=0.1)                                  # a second answer: wait
    assert box.last_view.title == "Which is heavier?"            # the reason, over the screen
    assert (box.last_view.big, box.last_view.lines) == ("WAIT", ("Still wobbling...",))
    box.idle(SETTLE)
    assert box.last_view.big == "YES!"
    assert [a.guess for a in attempts(box, "Mia")] == ["left"]


def test_a_pulled_pan_cable_says_so_in_child_words_and_the_quiz_goes_on(station):
    box = station
    start(box, "Mia", "Make it balance")
    chip = box.scales.sim.cells["right"].chip
    chip.disconnect()
    box.idle(1.5)
    assert box.last_view.big == "OOPS!"
    assert box.last_view.lines == ("Right pan not working", "Ask a grown-up")
    box.tap("host.next")                                         # "show me" cannot: says why
    assert box.last_view.lines == ("Right pan not working", "Ask a grown-up")
    chip.reconnect()
    box.idle(2.0)
    assert box.last_view.big == "1 THING"
    assert attempts(box, "Mia") == []


def test_make_it_balance_says_the_right_pan_answers_not_the_keys(station):
    box = station
    start(box, "Mia", "Make it balance")
    box.tap("s1.B")
    assert (box.last_view.big, box.last_view.lines) == ("FIRST", ("A thing on the left",))
    box.put("left", 200.0)
    box.idle(SETTLE)
    box.tap("s1.B")
    assert (box.last_view.big, box.last_view.lines) == ("RIGHT", ("Change the right pan",))
    assert attempts(box, "Mia") == []


def test_how_many_grams_with_the_thing_on_the_right_pan_asks_for_the_left(station):
    box = station
    start(box, "Mia", "How many grams")
    box.put("right", 150.0)
    box.idle(SETTLE)
    assert (box.last_view.big, box.last_view.lines) == ("LEFT", ("Use the left pan!",))
    box.tap("s1.C")                                              # no number to step yet
    assert (box.last_view.big, box.last_view.lines) == ("FIRST", ("A thing on the left",))


def test_put_them_in_order_from_the_host_panel_says_what_ok_takes(station):
    box = station
    start(box, "Mia", "Put them in order")
    weigh_three(box, (140.0, 60.0, 505.0))
    box.tap("host.next")
    assert box.last_view.lines == ("OK takes thing 2",)
    box.tap("host.ok")
    assert box.last_view.big == "2 ? ?" and box.last_view.lines == ("Lightest first",)


def test_a_key_on_a_result_names_the_key_that_goes_on(station):
    box = station
    start(box, "Mia", "Which is heavier")
    heavier_round(box, 300.0, 100.0, "s1.A")
    box.tap("s1.A")
    assert (box.last_view.big, box.last_view.lines) == ("OK", ("OK: the next one",))


def test_my_results_show_one_number_a_page(station):
    box = station
    for _ in range(3):
        History(box.journal).add("Mia", learning.score_grams(100.0, 100, 1))
    History(box.journal).add("Mia", learning.score_grams(100.0, 900, 1))
    start(box, "Mia", "My results")
    pages = [(box.last_view.title, box.last_view.big)]
    for _ in range(3):
        box.tap("host.ok")
        pages.append((box.last_view.title, box.last_view.big))
    assert pages == [("Right today", "3 of 4"), ("Most in a row", "3"),
                     ("Answers in all", "4"), ("How it's going", "NEW!")]
    assert box.last_view.footer == "OK back"
    box.tap("host.ok")
    assert box.last_view.title == "My results"


def test_a_box_without_pans_says_why_a_quiz_does_not_start(box_factory):
    box = box_factory(pans=False)
    open_learning(box)
    pick(box, "Guest")
    box.tap("host.ok")                                           # Which is heavier?
    assert (box.last_view.big, box.last_view.lines) == ("SORRY", ("This needs two pans",))


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_learning_screen_draws_its_word_in_the_largest_type(language, tmp_path_factory):
    from spielleiter.device import i18n
    from tests.device.test_i18n import demo_views

    try:
        views = demo_views("learning-station", language, tmp_path_factory)
    finally:
        i18n.use("en")
    small = [v.as_text() for v in views if v.big and big_width(v.big, BIG_SIZES[0]) <= WIDTH
             and layout(v).size != BIG_SIZES[0]]
    assert not small, "\n\n".join(small)
    assert sum(1 for v in views if v.big) > 40


def hand(box, pan: str, grams: float) -> None:
    """The simulator's hand: set a piece of ``grams`` down on ``pan`` (negative: lift it), one
    step at a time as a child would, and let it settle."""
    box.put(pan, grams)
    box.idle(SETTLE)


def test_pieces_set_down_and_lifted_one_by_one_compare_and_balance(station):
    """What a child practising in ``spielleiter sim`` does: equal pieces on both pans are "the
    same"; pieces added to the right one by one, the last lifted again, balance the left."""
    box = station
    start(box, "Mia", "Which is heavier")
    hand(box, "left", 50.0)
    hand(box, "right", 50.0)                                     # an equal piece
    box.tap("s1.B")                                              # the same
    box.idle(SETTLE)
    assert box.last_view.big == "YES!"
    box.tap("host.back")
    box.tap("host.next")
    box.tap("host.next")
    box.tap("host.ok")                                           # Make it balance
    assert box.last_view.big == "EMPTY"                          # the pieces from before
    hand(box, "left", -50.0)
    hand(box, "right", -50.0)
    hand(box, "left", 200.0)
    assert box.last_view.big == "MORE"
    for piece, hint in ((100.0, "MORE"), (50.0, "MORE"), (100.0, "LESS"), (-100.0, "MORE"),
                        (50.0, "BALANCED")):
        hand(box, "right", piece)
        assert box.last_view.big == hint, box.last_view.as_text()
    [attempt] = attempts(box, "Mia")[1:]
    assert (attempt.quiz, attempt.correct) == ("balance", True)


# -- one pan empty: no quiz scores a thing against nothing (issue 17) ----------------------------
@pytest.mark.parametrize("grams", [12.0, 16.0, 20.0])
def test_make_it_balance_never_says_balanced_with_the_right_pan_empty(station, grams):
    box = station
    start(box, "Mia", "Make it balance")
    box.put("left", grams)
    seen = []
    for _ in range(8):
        box.idle(0.5)
        seen.append(box.last_view.big)
    assert "BALANCED" not in seen and seen[-1] == "MORE", seen
    assert attempts(box, "Mia") == []
    box.put("right", grams)                                      # the same again: it balances
    box.idle(SETTLE)
    assert box.last_view.big == "BALANCED"


def test_which_is_heavier_with_one_pan_empty_asks_for_both_and_scores_nothing(station):
    box = station
    start(box, "Mia", "Which is heavier")
    for pan, missing in (("left", "RIGHT"), ("right", "LEFT")):
        box.put(pan, 15.0)
        box.idle(SETTLE)
        assert box.last_view.big == missing, box.last_view.as_text()
        for key in ("s1.A", "s1.B", "s1.C"):
            box.tap(key)
            assert box.last_view.big == "FIRST", box.last_view.as_text()
        box.idle(SETTLE)
        box.put(pan, -15.0)
        box.idle(SETTLE)
    assert attempts(box, "Mia") == []


def test_how_many_grams_with_the_left_pan_empty_scores_nothing(station):
    box = station
    start(box, "Mia", "How many grams")
    box.put("right", 15.0)
    box.idle(SETTLE)
    box.tap("host.ok")
    assert box.last_view.big == "FIRST"
    box.idle(SETTLE)
    assert box.last_view.big == "LEFT" and attempts(box, "Mia") == []


def test_put_them_in_order_counts_nothing_weighed_on_the_other_pan(station):
    box = station
    start(box, "Mia", "Put them in order")
    box.put("right", 15.0)
    box.idle(SETTLE)
    assert box.last_view.big == "1 of 3"
    box.put("right", -15.0)
    box.idle(SETTLE)
    assert box.last_view.big == "1 of 3" and attempts(box, "Mia") == []


# -- a pan at its overload stop: never a number, in every quiz (issue 20) ------------------------
@pytest.mark.parametrize("quiz, pan", [("Which is heavier", "right"), ("How many grams", "left"),
                                       ("Make it balance", "right"), ("Put them in order", "left")])
def test_a_book_too_heavy_for_the_pan_is_shown_as_such_and_never_scored(station, quiz, pan):
    box = station
    start(box, "Mia", quiz)
    if quiz in ("Which is heavier", "Make it balance"):
        box.put("left", 200.0)
    box.put(pan, 1200.0)                                         # a 1.2 kg book: at the stop
    box.idle(SETTLE)
    assert box.last_view.big == "TOO HEAVY", box.last_view.as_text()
    assert box.last_view.lines == (f"on the {pan} pan", "Take something off")
    for key in ("s1.A", "s1.B", "host.ok"):
        box.tap(key)
        assert box.last_view.big == "TOO HEAVY"
    box.idle(SETTLE)
    assert attempts(box, "Mia") == []
    assert "1200" not in box.last_view.as_text() and box.scales.reading(pan).grams is None
    box.put(pan, -1200.0)
    box.idle(SETTLE)
    assert box.last_view.big != "TOO HEAVY"


# -- a fresh zero before a weighing that counts (issue 20) -------------------------------------
def test_a_pan_whose_zero_is_stale_is_emptied_before_the_station_weighs(station, monkeypatch):
    from spielleiter.device.modes.learning import quiz
    monkeypatch.setattr(quiz, "ZERO_FRESH_S", 20.0)  # an hour of play in a test's seconds
    box = station
    start(box, "Mia", "Which is heavier")
    box.put("left", 300.0)
    box.put("right", 120.0)
    box.idle(25.0)                                       # longer than a zero stays fresh
    assert box.scales.snapshot("left").zero_age_s > 20.0
    box.tap("s1.A")
    box.idle(SETTLE)
    assert box.last_view.big == "EMPTY", box.last_view.as_text()
    assert box.last_view.lines == ("Empty the pans first",)
    assert attempts(box, "Mia") == []                    # nothing weighed on the old zero
    box.tap("s1.A")
    assert attempts(box, "Mia") == []
    clear_pans(box, left=300.0, right=120.0)
    assert box.last_view.big == "BOTH"                   # emptied: zeroed afresh, weighs again
    assert all(box.scales.snapshot(p).zero_age_s < 1.0 for p in ("left", "right"))
    assert heavier_round(box, 300.0, 120.0, "s1.A") == "YES!"
    [attempt] = attempts(box, "Mia")
    assert (attempt.guess, attempt.truth_g, attempt.correct) == ("left", 180.0, True)


def test_a_crumb_left_on_an_old_zero_is_zeroed_before_the_quiz_weighs(station, monkeypatch):
    from spielleiter.device.modes.learning import quiz
    monkeypatch.setattr(quiz, "ZERO_FRESH_S", 20.0)
    box = station
    box.idle(SETTLE)
    box.put("left", 1.0)                                 # a crumb: no thing, and no zero either
    box.idle(25.0)
    shot = box.scales.snapshot("left")
    assert not shot.zeroed and shot.zero_age_s > 20.0 and abs(shot.grams - 1.0) < 0.05
    start(box, "Mia", "How many grams")
    box.idle(SETTLE)
    assert box.last_view.big == "1 THING"                # the box zeroed the empty pan
    assert box.scales.snapshot("left").zero_age_s < 5.0
    box.put("left", 100.0)
    box.idle(SETTLE)
    assert box.scales.reading("left").grams == pytest.approx(100.0, abs=0.05)  # not 101 g


def test_in_order_a_stale_zero_asks_for_the_pan_empty_and_keeps_the_things_weighed(station,
                                                                                    monkeypatch):
    from spielleiter.device.modes.learning import quiz
    monkeypatch.setattr(quiz, "ZERO_FRESH_S", 20.0)
    box = station
    start(box, "Mia", "Put them in order")
    box.put("left", 50.0)
    box.idle(SETTLE)
    assert box.last_view.lines == ("Got it! Take it off",)
    box.put("left", -49.0)                 # a 1 g crumb stays: no thing, and no zero either
    box.idle(25.0)
    assert box.last_view.big == "2 of 3"
    box.put("left", 80.0)
    box.idle(SETTLE)
    assert box.last_view.big == "EMPTY" and box.last_view.lines == ("Empty the pan first",)
    box.put("left", -80.0)                 # the crumb still on: the box zeroes it
    box.idle(SETTLE)
    assert box.last_view.big == "2 of 3"   # the first thing's weight is kept
    box.put("left", 80.0)
    box.idle(SETTLE)
    assert box.last_view.lines == ("Got it! Take it off",)
    weights = box.app.top.mode.quiz.weights
    assert weights == [pytest.approx(50.0, abs=0.05), pytest.approx(80.0, abs=0.05)]  # not 81


# -- the plateau at the cell's overload stop: no number reaches the station (issue 20) ---------
def test_a_plateau_at_the_cells_stop_reaches_the_station_as_too_heavy_never_a_number(station):
    from spielleiter.drivers.sim.cell_physics import Cell
    box = station
    pan = box.scales.sim.cells["left"].pan
    pan.cell = Cell(stop_g=650.0)  # the stop screw: beyond 650 g the beam hardly bends more
    told = []
    box.scales.listeners.append(lambda w: w.pan == "left" and w.grams is not None
                                and told.append((w.kind, w.grams)))
    start(box, "Mia", "How many grams")
    box.put("left", 1200.0)        # a book: the cell reads a plateau of about 661 g
    box.idle(10.0)
    assert pan.cell.output_g(1200.0, 0.0) == pytest.approx(661.0)
    assert box.last_view.big == "TOO HEAVY"
    # no number, ever, but readings in motion (the change so far, a reading on the way up)
    assert [g for kind, g in told if kind not in ("moving", "reading") and g > 1.0] == []
    assert box.scales.snapshot("left").state == "overload"
    assert box.scales.reading("left").grams is None and attempts(box, "Mia") == []
    box.put("left", -1200.0)
    box.idle(SETTLE)
    assert box.last_view.big == "1 THING"


# -- the level's rule, said before the answer; the scale's truth never called wrong ----------------
def test_the_question_says_near_weights_count_as_the_same(station):
    box = station
    start(box, "Mia", "Which is heavier")
    box.put("left", 45.0)
    box.put("right", 40.0)
    box.idle(SETTLE)
    assert box.last_view.lines[1] == "B  about the same"   # before any answer


def test_a_right_by_the_scale_answer_is_praised_never_called_wrong(station):
    box = station
    start(box, "Mia", "Which is heavier")
    # 45 g against 40 g: "the same" at level 1, and the left really is heavier
    assert heavier_round(box, 45.0, 40.0, "s1.A") == "YES!"
    assert box.last_view.lines == ("Only 5 g: same, too",)
    assert attempts(box, "Mia")[-1].correct


def test_the_lighter_side_where_the_level_says_the_same_is_not_yet(station):
    box = station
    start(box, "Mia", "Which is heavier")
    assert heavier_round(box, 45.0, 40.0, "s1.C") == "NOT YET"


def test_equal_pans_read_exactly_the_same_not_zero_grams_apart(station):
    box = station
    start(box, "Mia", "Which is heavier")
    assert heavier_round(box, 40.0, 40.0, "s1.B") == "YES!"
    assert box.last_view.lines == ("Exactly the same",)
