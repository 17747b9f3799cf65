"""The learning station's quizzes: scoring, tolerances by level, and levels that follow the child
(simulated children: one always right, one guessing at random, one who improves)."""

from __future__ import annotations

import random

import pytest

from spielleiter.games import learning as L


# -- scoring -------------------------------------------------------------------------------------
def test_which_is_heavier_counts_things_closer_than_the_levels_same_band_as_the_same():
    assert L.side(115.0, 100.0, level=1) == "same"        # 15 g apart: same for a beginner
    assert L.side(115.0, 100.0, level=3) == "left"        # but not at level 3
    assert L.side(100.0, 101.5, level=5) == "right"


def test_a_thing_twice_as_heavy_is_never_the_same_however_few_grams_apart():
    """Hands feel shares, not grams: 10 g against 20 g is heavier at every level."""
    for level in range(L.MIN_LEVEL, L.MAX_LEVEL + 1):
        assert L.side(10.0, 20.0, level=level) == "right"
        assert L.score_heavier(10.0, 20.0, "right", level=level).correct
        assert L.order_errors([20.0, 10.0, 300.0], (1, 2, 3), level=level) == 1
    assert L.side(182.0, 176.0, level=1) == "same"        # an apple and a pear: alike in hand


def test_which_is_heavier_scores_one_step_off_and_the_opposite_side():
    right = L.score_heavier(200.0, 100.0, "left", level=2)
    assert right.correct and right.error == 0 and right.truth_g == 100.0
    near = L.score_heavier(200.0, 100.0, "same", level=2)
    far = L.score_heavier(200.0, 100.0, "right", level=2)
    assert (near.correct, near.error, far.error) == (False, 1, 2)


def test_a_guess_that_is_no_side_is_refused_with_a_message():
    with pytest.raises(L.LearningError, match="left, same or right"):
        L.score_heavier(1.0, 2.0, "up", level=1)


def test_how_many_grams_is_close_enough_within_the_levels_share_of_the_truth():
    assert L.score_grams(200.0, 290, level=1).correct           # 45 % off: fine for a beginner
    assert not L.score_grams(200.0, 290, level=3).correct       # not at level 3 (20 %)
    attempt = L.score_grams(200.4, 230, level=3)
    assert attempt.correct and attempt.error == 29.6 and attempt.guess == "230"


def test_how_many_grams_is_never_stricter_than_the_fine_step():
    assert L.score_grams(4.0, 10, level=1).correct               # 6 g off, fine step 10 g
    assert not L.score_grams(4.0, 20, level=1).correct


def test_make_it_balance_hints_more_and_less_until_within_the_levels_tolerance():
    assert L.balance_hint(150.0, 100.0, level=2) == "more"
    assert L.balance_hint(150.0, 170.0, level=2) == "less"
    assert L.balance_hint(150.0, 158.0, level=2) == "balanced"
    assert L.balance_hint(150.0, 158.0, level=4) == "less"
    done = L.score_balance(150.0, 158.0, level=2)
    assert done.correct and done.error == 8.0 and done.truth_g == 150.0


def test_make_it_balance_never_balances_a_thing_against_an_empty_pan_or_a_crumb():
    for level in range(L.MIN_LEVEL, L.MAX_LEVEL + 1):
        for left in (12.0, 15.0, 20.0, 25.0):
            assert L.balance_hint(left, 0.0, level) == "more", (level, left)
            assert L.balance_hint(left, 1.9, level) == "more", (level, left)
            assert not L.score_balance(left, 0.0, level).correct
        assert L.balance_hint(20.0, 5.0, level) == "more"  # a quarter is no balance either
    assert L.balance_hint(100.0, 86.0, level=1) == "balanced"  # within 20 g and 15 %
    assert L.balance_tolerance_g(20.0, 0.0, level=1) == pytest.approx(3.0)


def test_put_them_in_order_counts_pairs_the_wrong_way_round():
    weights = [300.0, 100.0, 200.0]
    assert L.true_order(weights) == (2, 3, 1)
    assert L.score_order(weights, (2, 3, 1), level=3).correct
    wrong = L.score_order(weights, (1, 3, 2), level=3)
    assert (wrong.correct, wrong.error, wrong.guess) == (False, 3, "1,3,2")


def test_put_them_in_order_lets_things_the_level_calls_the_same_go_either_way():
    weights = [100.0, 108.0, 300.0]
    assert L.score_order(weights, (2, 1, 3), level=1).correct    # 8 g apart: same for level 1
    assert not L.score_order(weights, (2, 1, 3), level=4).correct


def test_an_order_that_does_not_name_each_thing_once_is_refused():
    with pytest.raises(L.LearningError):
        L.score_order([1.0, 2.0, 3.0], (1, 1, 2), level=1)


def test_a_measurement_that_is_not_a_number_is_refused():
    with pytest.raises(L.LearningError):
        L.score_grams(float("nan"), 10, level=1)


# -- levels --------------------------------------------------------------------------------------
def attempt(correct: bool, retry: bool = False, quiz: str = "grams") -> L.Attempt:
    return L.Attempt(quiz, 1, 100.0, "100", 0.0, correct, retry)


def test_the_level_goes_up_after_a_run_of_good_answers_and_down_after_misses():
    p = L.Progress()
    for _ in range(L.UP_AFTER - 1):
        p = p.after(attempt(True))
    assert p.level == 1
    for _ in range(1):
        p = p.after(attempt(True))
    assert p.level == 2
    for _ in range(L.DOWN_AFTER):
        p = p.after(attempt(False))
    assert p.level == 1
    for _ in range(10):
        p = p.after(attempt(False))
    assert p.level == L.MIN_LEVEL


def test_trying_again_is_never_a_penalty():
    p = L.Progress(level=2, recent=(False,) * (L.DOWN_AFTER - 1))
    for _ in range(5):
        p = p.after(attempt(False, retry=True))
    assert p == L.Progress(level=2, recent=(False,) * (L.DOWN_AFTER - 1))
    assert p.after(attempt(True, retry=True)).level == 2


def test_levels_are_kept_per_quiz_and_start_at_one():
    done = [attempt(True, quiz="heavier")] * L.UP_AFTER
    assert L.levels(done) == {"heavier": 2, "grams": 1, "balance": 1, "order": 1}


def test_best_streak_and_trend():
    history = [attempt(True)] * 4 + [attempt(False)] + [attempt(False, retry=True)] \
        + [attempt(True, retry=True)] + [attempt(True)] * 2
    assert L.best_streak(history) == 4
    assert L.trend([attempt(False)] * 5 + [attempt(True)] * 5) == "up"
    assert L.trend([attempt(True)] * 3) == "new"


# -- simulated children --------------------------------------------------------------------------
def thing(rng: random.Random, level: int) -> float:
    return round(rng.uniform(5.0, L.rules(level).max_g * 0.8), 1)


def play(child, quiz: str, rounds: int, seed: int) -> list[int]:
    """``child(rng, truth, level, round) -> guess``; the levels after each round."""
    rng = random.Random(seed)
    p, seen = L.Progress(), []
    for n in range(rounds):
        level = p.level
        if quiz == "heavier":
            left, right = thing(rng, level), thing(rng, level)
            a = L.score_heavier(left, right, child(rng, (left, right), level, n), level)
        elif quiz == "grams":
            truth = thing(rng, level)
            a = L.score_grams(truth, child(rng, truth, level, n), level)
        elif quiz == "order":
            weights = [thing(rng, level) for _ in range(3)]
            a = L.score_order(weights, child(rng, weights, level, n), level)
        else:
            left = thing(rng, level)
            a = L.score_balance(left, child(rng, left, level, n), level)
        p = p.after(a)
        seen.append(p.level)
    return seen


def perfect(rng, truth, level, n):
    return answer(rng, truth, level, noise=0.0)


def guesser(rng, truth, level, n):
    if isinstance(truth, tuple):
        return rng.choice(L.SIDES)
    if isinstance(truth, list):
        return tuple(rng.sample([1, 2, 3], 3))
    return rng.randrange(0, L.rules(level).max_g + 1, L.rules(level).fine_g)


def improver(rng, truth, level, n):
    """Wild at first, then better and better: the guess's noise shrinks with practice."""
    return answer(rng, truth, level, noise=max(0.0, 0.8 - n / 60))


def answer(rng, truth, level, noise: float):
    if isinstance(truth, tuple):
        left, right = (t * (1 + rng.gauss(0, noise)) for t in truth)
        return L.side(left, right, level)
    if isinstance(truth, list):
        felt = [t * (1 + rng.gauss(0, noise)) for t in truth]
        return L.true_order(felt)
    return max(0, round(truth * (1 + rng.gauss(0, noise))))


@pytest.mark.parametrize("quiz", L.QUIZZES)
def test_a_child_who_is_always_right_climbs_to_the_top_level(quiz):
    levels = play(perfect, quiz, rounds=20, seed=1)
    assert levels[-1] == L.MAX_LEVEL
    assert levels == sorted(levels)


@pytest.mark.parametrize("quiz", ["heavier", "grams", "order"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_child_who_guesses_at_random_stays_low(quiz, seed):
    levels = play(guesser, quiz, rounds=100, seed=seed)
    assert max(levels[-30:]) <= 2
    assert sum(levels) / len(levels) < 2.0


@pytest.mark.parametrize("quiz", ["heavier", "grams", "order"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_child_who_improves_rises(quiz, seed):
    levels = play(improver, quiz, rounds=150, seed=seed)
    early, late = levels[:30], levels[-30:]
    assert sum(late) / 30 >= sum(early) / 30 + 1.5
    assert max(late) >= 4


def test_a_side_the_scale_supports_is_right_where_the_level_says_the_same():
    attempt = L.score_heavier(45.0, 40.0, "left", level=1)   # "the same" at level 1
    assert attempt.correct and attempt.error == 1
    assert not L.score_heavier(45.0, 40.0, "right", level=1).correct
    assert not L.score_heavier(40.0, 40.0, "left", level=1).correct


def test_a_side_the_scale_supports_neither_lifts_nor_lowers_the_level():
    start = L.Progress(1, (True, True, True))
    assert start.after(L.score_heavier(45.0, 40.0, "left", level=1)) == start
