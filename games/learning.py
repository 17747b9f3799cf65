"""The learning station's quizzes: scoring and levels that follow the child. Pure and deterministic.

Four quizzes train a child's sense of weight with real things on the pans:

- ``heavier``: one thing on each pan; the child says left, same or right;
- ``grams``: one thing on a pan; the child guesses its weight in grams;
- ``balance``: something on the left; the child adds things to the right until it balances;
- ``order``: three things weighed one by one; the child says their order, lightest first.

How strict the box is depends on the child's level (``rules``): what still counts as "the same",
what is "close enough", how the grams are stepped. The level follows the child's results: of the
last ``WINDOW`` first tries since the level last changed, ``UP_AFTER`` good ones lift it and
``DOWN_AFTER`` missed ones lower it (a child who guesses left or right at random is wrong as often
as right, and drifts down, not up). A
try again on the same question never counts against the child (``Attempt.retry``): trying again
is free. Levels are never stored on their own: they are the fold of a child's attempts
(``levels``), so the history is the one truth and clearing it starts the child afresh.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from .core import GameError, compare_grams

QUIZZES = ("heavier", "grams", "balance", "order")
SIDES = ("left", "same", "right")
MIN_LEVEL, MAX_LEVEL = 1, 5
WINDOW = 5       # the first tries since the last change of level that count
UP_AFTER = 4     # good first tries among them that lift the level
DOWN_AFTER = 3   # missed first tries among them that lower it
MIN_THING_G = 2.0  # less than this on a pan is "nothing there"


class LearningError(GameError):
    """A guess or a measurement the quizzes cannot score (message fit for the OLED; a template
    and its parameters, like every engine's refusal)."""


@dataclass(frozen=True)
class Rules:
    """How strict one level is.

    ``same_g`` and ``same_share``: two things are "the same" (heavier, order) when they differ by
    less than ``same_g`` and by less than ``same_share`` of the heavier one (hands feel a share,
    not grams: 10 g against 20 g is twice as heavy, 176 g against 182 g is not); ``close``: a guess
    within this fraction of the truth (and never stricter than ``fine_g``) is close enough;
    ``balance_g``: the pans balance within this (and within ``same_share`` of the heavier);
    ``max_g``, ``coarse_g``, ``fine_g``: the range and the steps of the number a child picks."""

    level: int
    same_g: float
    same_share: float
    close: float
    balance_g: float
    max_g: int
    coarse_g: int
    fine_g: int

    def close_enough_g(self, truth_g: float) -> float:
        return max(float(self.fine_g), self.close * abs(truth_g))

    def same(self, a_g: float, b_g: float) -> bool:
        """Whether two things count as equally heavy at this level."""
        diff = abs(a_g - b_g)
        return diff < self.same_g and diff < self.same_share * max(abs(a_g), abs(b_g))


LEVELS: dict[int, Rules] = {
    1: Rules(1, same_g=20.0, same_share=0.15, close=0.50, balance_g=20.0, max_g=500, coarse_g=50, fine_g=10),
    2: Rules(2, same_g=10.0, same_share=0.10, close=0.30, balance_g=10.0, max_g=1000, coarse_g=50, fine_g=10),
    3: Rules(3, same_g=5.0, same_share=0.06, close=0.20, balance_g=5.0, max_g=1000, coarse_g=20, fine_g=5),
    4: Rules(4, same_g=2.0, same_share=0.03, close=0.10, balance_g=2.0, max_g=2000, coarse_g=10, fine_g=1),
    5: Rules(5, same_g=1.0, same_share=0.02, close=0.05, balance_g=1.0, max_g=2000, coarse_g=10, fine_g=1),
}


def rules(level: int) -> Rules:
    """The rules of ``level`` (clamped to the levels that exist)."""
    return LEVELS[min(MAX_LEVEL, max(MIN_LEVEL, int(level)))]


@dataclass(frozen=True)
class Attempt:
    """One scored answer. ``truth_g``: the grams that decided it (heavier: left minus right;
    grams: the thing; balance: the left pan; order: the heaviest thing); ``guess`` as text
    ("left", "150", "2,1,3"); ``error``: how far off (heavier: 0 right, 1 one step off, 2 the
    opposite side; grams and balance: grams, signed; order: pairs in the wrong order)."""

    quiz: str
    level: int
    truth_g: float
    guess: str
    error: float
    correct: bool
    retry: bool = False


def _number(value: float) -> bool:
    """A finite number of grams (a broken reading is NaN or infinite)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) \
        and abs(value) < 1e6 and math.isfinite(value)  # the range first: a huge int overflows


def _pans(left_g: float, right_g: float) -> tuple[float, float]:
    """Both pans' readings, or a LearningError naming the pan that gave no weight."""
    if not _number(left_g):
        raise LearningError("the left pan gave no weight")
    if not _number(right_g):
        raise LearningError("the right pan gave no weight")
    return float(left_g), float(right_g)


# -- the four quizzes ----------------------------------------------------------------------------
def side(left_g: float, right_g: float, level: int) -> str:
    """Which pan is heavier at ``level``: "left", "same" (``Rules.same``) or "right"."""
    left, right = _pans(left_g, right_g)
    if rules(level).same(left, right):
        return "same"
    return "left" if left > right else "right"


def by_the_scale(left_g: float, right_g: float, guess: str, level: int) -> bool:
    """A side the level calls "the same" but that really is the heavier one (by a gram or more):
    the child is right by the scale, and the level's band only makes "the same" right too."""
    left, right = _pans(left_g, right_g)
    if guess == "same" or side(left, right, level) != "same" or round(abs(left - right)) < 1:
        return False
    return guess == ("left" if left > right else "right")


def score_heavier(left_g: float, right_g: float, guess: str, level: int,
                  retry: bool = False) -> Attempt:
    """Which is heavier? ``guess`` is "left", "same" or "right"."""
    if guess not in SIDES:
        raise LearningError("say left, same or right")
    truth = side(left_g, right_g, level)
    error = abs(SIDES.index(guess) - SIDES.index(truth))
    # The scale supports it: praised, never called wrong (the error stays one step off the
    # level's verdict, so it does not lift the level: ``Progress.after``).
    correct = error == 0 or by_the_scale(left_g, right_g, guess, level)
    return Attempt("heavier", rules(level).level, round(left_g - right_g, 1), guess, error,
                   correct, retry)


def score_grams(truth_g: float, guess_g: int, level: int, retry: bool = False) -> Attempt:
    """How many grams? Close enough within the level's tolerance."""
    if not _number(truth_g):
        raise LearningError("the pan gave no weight")
    if not _number(guess_g):
        raise LearningError("the guess is not a number")
    truth, guess = float(truth_g), float(guess_g)
    if guess < 0:
        raise LearningError("a weight is 0 or more")
    error = guess - truth
    ok = abs(error) <= rules(level).close_enough_g(truth)
    return Attempt("grams", rules(level).level, round(truth, 1), f"{guess:g}", round(error, 1),
                   ok, retry)


def balance_tolerance_g(left_g: float, right_g: float, level: int) -> float:
    """How far the pans may differ and still balance: ``balance_g``, but never more than the
    level's share of the heavier pan (hands feel a share: 20 g against nothing, or against 5 g,
    is no balance at any level)."""
    r = rules(level)
    return min(r.balance_g, r.same_share * max(abs(left_g), abs(right_g)))


def balance_hint(left_g: float, right_g: float, level: int) -> str:
    """While a child balances: "more" (right is too light), "less" or "balanced". An empty
    right pan (less than ``MIN_THING_G``) never balances."""
    left, right = _pans(left_g, right_g)
    if right < MIN_THING_G:
        return "more"
    sign = compare_grams(right, left, balance_tolerance_g(left, right, level))
    return ("more", "balanced", "less")[sign + 1]


def score_balance(left_g: float, right_g: float, level: int, retry: bool = False) -> Attempt:
    """Make it balance: the pans as they were when the child stopped (balanced or gave up)."""
    hint = balance_hint(left_g, right_g, level)
    return Attempt("balance", rules(level).level, round(left_g, 1), f"{right_g:.1f}",
                   round(right_g - left_g, 1), hint == "balanced", retry)


def true_order(weights: Sequence[float]) -> tuple[int, ...]:
    """The things' numbers (1-based) from lightest to heaviest."""
    return tuple(i + 1 for i in sorted(range(len(weights)), key=lambda i: (weights[i], i)))


def order_errors(weights: Sequence[float], guess: Sequence[int], level: int) -> int:
    """Pairs the guess puts the wrong way round; things the level calls the same may go either
    way."""
    level_rules = rules(level)
    errors = 0
    for a in range(len(guess)):
        for b in range(a + 1, len(guess)):
            lighter, heavier = weights[guess[a] - 1], weights[guess[b] - 1]
            if lighter > heavier and not level_rules.same(lighter, heavier):
                errors += 1
    return errors


def score_order(weights: Sequence[float], guess: Sequence[int], level: int,
                retry: bool = False) -> Attempt:
    """Put them in order: ``guess`` names the things (1-based) from lightest to heaviest."""
    for index, weight in enumerate(weights):
        if not _number(weight):
            raise LearningError("thing {n} gave no weight", n=index + 1)
    grams = [float(w) for w in weights]
    if sorted(guess) != list(range(1, len(grams) + 1)):
        raise LearningError("name each thing once")
    errors = order_errors(grams, guess, level)
    return Attempt("order", rules(level).level, round(max(grams), 1),
                   ",".join(str(n) for n in guess), errors, errors == 0, retry)


# -- levels that follow the child ----------------------------------------------------------------
@dataclass(frozen=True)
class Progress:
    """Where a child stands in one quiz: the level and the first tries since it last changed
    (the latest ``WINDOW``, True for good)."""

    level: int = MIN_LEVEL
    recent: tuple[bool, ...] = ()

    def after(self, attempt: Attempt) -> "Progress":
        """The progress after ``attempt``; a retry changes nothing (trying again is free), nor
        does a side the scale supports where the level says "the same" (praised, not yet the
        level's skill)."""
        if attempt.retry or (attempt.quiz == "heavier" and attempt.correct and attempt.error):
            return self
        recent = (self.recent + (bool(attempt.correct),))[-WINDOW:]
        if recent.count(True) >= UP_AFTER and self.level < MAX_LEVEL:
            return Progress(self.level + 1)
        if recent.count(False) >= DOWN_AFTER and self.level > MIN_LEVEL:
            return Progress(self.level - 1)
        return replace(self, recent=recent)


def progress(attempts: Iterable[Attempt]) -> dict[str, Progress]:
    """Each quiz's progress after ``attempts`` (oldest first); quizzes never tried are absent."""
    out: dict[str, Progress] = {}
    for attempt in attempts:
        out[attempt.quiz] = out.get(attempt.quiz, Progress()).after(attempt)
    return out


def levels(attempts: Iterable[Attempt]) -> dict[str, int]:
    """Each quiz's level after ``attempts`` (oldest first); level 1 for a quiz never tried."""
    done = progress(attempts)
    return {quiz: done[quiz].level if quiz in done else MIN_LEVEL for quiz in QUIZZES}


def best_streak(attempts: Iterable[Attempt]) -> int:
    """The longest run of good answers (retries that got it count as good, misses on a retry do
    not break the run)."""
    best = run = 0
    for attempt in attempts:
        if attempt.correct:
            run += 1
            best = max(best, run)
        elif not attempt.retry:
            run = 0
    return best


def trend(attempts: Sequence[Attempt], window: int = 5) -> str:
    """"up", "down" or "steady": the share of good first tries in the last ``window`` against
    the ``window`` before ("new" while there are fewer than two windows' worth)."""
    first = [a for a in attempts if not a.retry]
    if len(first) < 2 * window:
        return "new"
    recent = sum(a.correct for a in first[-window:])
    before = sum(a.correct for a in first[-2 * window:-window])
    if recent - before >= 2:
        return "up"
    if before - recent >= 2:
        return "down"
    return "steady"


__all__ = ["DOWN_AFTER", "LEVELS", "MAX_LEVEL", "MIN_LEVEL", "MIN_THING_G", "QUIZZES", "SIDES",
           "UP_AFTER", "WINDOW", "Attempt", "LearningError", "Progress", "Rules", "balance_hint",
           "balance_tolerance_g", "best_streak", "levels", "order_errors", "progress", "rules",
           "score_balance", "score_grams", "score_heavier", "score_order", "side", "true_order",
           "trend"]
