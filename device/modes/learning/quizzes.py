"""The four quizzes on the pans: what each key and each weighing means, step by step
(the steps around an answer are ``quiz.Quiz``'s)."""

from __future__ import annotations

import logging

from ....games import learning
from ....games.learning import LearningError
from ...i18n import _
from ...screen.render import View
from . import screens as S
from .quiz import Quiz, Station, grams_on, loaded, moving

log = logging.getLogger(__name__)


class Heavier(Quiz):
    """One thing on each pan; A left, B the same, C right (or NEXT/OK); the verdict decides."""

    name = "heavier"
    PANS = 2
    KEYS = {"A": "left", "B": "same", "C": "right"}

    def __init__(self, station: Station) -> None:
        super().__init__(station)
        self.cursor = 0
        self.guess: str | None = None

    def both(self) -> bool:
        return all(loaded(self.news.pans, p) for p in self.pans[:2])

    def key(self, key: str) -> bool:
        if key == "back":
            return False
        if not self.both():
            if any(not self.reading(p).stable for p in self.pans[:2]):
                self.refuse_wait()  # just put down: not yet settled, not missing
            else:
                self.refuse(_("FIRST"), _("One thing on each pan"))
            return True
        if self.stage == "weigh":
            self.refuse_wait()
            return True
        if key == "next":
            self.cursor = (self.cursor + 1) % 3
            return True
        if key == "ok":
            self.guess = learning.SIDES[self.cursor]
        elif key in self.KEYS:
            self.guess = self.KEYS[key]
            self.cursor = learning.SIDES.index(self.guess)
        self.stage = "weigh"
        self.watch()
        return True

    def watch(self) -> None:
        if self.stage != "weigh":
            return
        judgement = self.news.judgement
        if judgement is None or not self.both() or self.guess is None or \
                not self.fresh_zero():
            return
        left, right = judgement.first_g, judgement.second_g
        attempt = learning.score_heavier(left, right, self.guess, self.level,
                                         self.again_on(left, right))
        truth = learning.side(left, right, attempt.level)
        diff = S.heavier_truth(truth, left - right)
        word = _("NOT YET")
        praise = diff
        if learning.by_the_scale(left, right, self.guess, attempt.level):
            praise = S.heavier_by_the_scale(left - right)
        self.scored(attempt, praise, word, diff)
        if self.stage == "shown" or not attempt.correct:
            self.line = S.side_word(truth)

    def again(self) -> None:
        self.stage, self.guess = "start", None

    def next_question(self) -> None:
        self.cursor = 0

    def own_view(self) -> View:
        if not self.both():
            return S.heavier_load(loaded(self.news.pans, self.pans[0]),
                                  loaded(self.news.pans, self.pans[1]))
        if self.stage == "weigh":
            return S.wait(self.name, moving(self.news.pans, self.pans[:2]))
        return S.heavier_guess(self.cursor)


class Grams(Quiz):
    """One thing on the pan; step a number (A less, C more, B coarse or fine; NEXT more) and
    confirm with OK; close enough within the level's tolerance."""

    name = "grams"

    def __init__(self, station: Station) -> None:
        super().__init__(station)
        rules = learning.rules(self.level)
        self.value = rules.coarse_g * 2
        self.coarse = True
        self.guessed: int | None = None

    @property
    def step(self) -> int:
        rules = learning.rules(self.level)
        return rules.coarse_g if self.coarse else rules.fine_g

    def key(self, key: str) -> bool:
        if key == "back":
            return False
        if self.stage == "weigh":
            self.refuse_wait()
            return True
        if not loaded(self.news.pans, self.pans[0]):
            self.refuse(_("FIRST"), S.first_a_thing(len(self.pans)))
            return True
        top = learning.rules(self.level).max_g
        if key == "C" or key == "next":
            self.value = self.value + self.step if self.value + self.step <= top else 0
        elif key == "A":
            self.value = max(0, self.value - self.step)
        elif key == "B":
            self.coarse = not self.coarse
        elif key == "ok":
            self.guessed = self.value
            self.stage = "weigh"
            self.watch()
        return True

    def watch(self) -> None:
        if self.stage != "weigh" or self.guessed is None:
            return
        reading = self.reading(self.pans[0])
        if not reading.stable or reading.grams is None:
            return
        if reading.grams < learning.MIN_THING_G:
            self.stage = "start"
            return
        if not self.fresh_zero():
            return
        attempt = learning.score_grams(reading.grams, self.guessed, self.level,
                                       self.again_on(reading.grams))
        word, hint = S.grams_miss(attempt.error < 0)
        self.scored(attempt, _("It is {g}").format(g=S.grams(reading.grams)), word,
                    _("You said {g}").format(g=S.grams(self.guessed)), hint)
        if not attempt.correct:
            self.line = S.grams(reading.grams)

    def again(self) -> None:
        self.stage = "start"

    def own_view(self) -> View:
        if self.stage == "weigh":
            return S.wait(self.name, moving(self.news.pans, self.pans[:1]))
        if not loaded(self.news.pans, self.pans[0]):
            if any(loaded(self.news.pans, p) for p in self.pans[1:]):
                return S.wrong_pan(self.name)
            return S.one_thing(self.name, len(self.pans))
        return S.grams_pick(self.value, self.step)


class Balance(Quiz):
    """Something on the left; add to the right until the verdict says balanced within the
    level's tolerance; "more"/"less" hints on the way; NEXT gives up and shows the weight."""

    name = "balance"
    PANS = 2

    def __init__(self, station: Station) -> None:
        super().__init__(station)
        self.hint: str | None = None

    def key(self, key: str) -> bool:
        if key == "back":
            return False
        if not loaded(self.news.pans, self.pans[0]):
            self.refuse(_("FIRST"), S.first_a_thing(len(self.pans)))
        elif key == "next":
            if self.fresh_zero():
                self.finish(grams_on(self.news.pans, self.pans[0]),
                            grams_on(self.news.pans, self.pans[1]))
        else:  # the pans answer here, not the keys
            self.refuse(_("RIGHT"), _("Change the right pan"))
        return True

    def watch(self) -> None:
        if self.stage != "start" or not loaded(self.news.pans, self.pans[0]):
            self.hint = None
            return
        judgement = self.news.judgement
        if judgement is None or not self.fresh_zero():
            return
        left, right = judgement.first_g, judgement.second_g
        hint = learning.balance_hint(left, right, self.level)
        if hint == "balanced":
            self.finish(left, right)
        else:
            self.hint = hint

    def finish(self, left: float, right: float) -> None:
        attempt = learning.score_balance(left, right, self.level)
        line = _("{l} and {r}").format(l=S.grams(left), r=S.grams(right))
        self.scored(attempt, line, "", _("The left pan"))
        if not attempt.correct:  # a give-up is a miss whose answer is shown at once
            self.stage, self.line = "shown", S.grams(left)
        self.hint = None

    def again(self) -> None:
        self.stage = "start"

    def result_view(self) -> View:
        if self.stage == "good":
            return View("", (self.line,), big=_("BALANCED"), footer=_("OK next"))
        return super().result_view()

    def own_view(self) -> View:
        if not loaded(self.news.pans, self.pans[0]):
            return S.one_thing(self.name, len(self.pans))
        return S.balance_add(self.hint, moving(self.news.pans, self.pans[:2]))


class Order(Quiz):
    """Three things weighed one by one on one pan (no grams shown), then the order, lightest
    first: A/B/C name things 1/2/3 (or NEXT and OK); BACK takes back the last pick."""

    name = "order"
    COUNT = 3

    def __init__(self, station: Station) -> None:
        super().__init__(station)
        self.weights: list[float] = []
        self.taken = False   # the latest thing is weighed: waiting for it to come off
        self.picked: list[int] = []
        self.cursor = 0
        self.moved = False   # NEXT on the host panel chose a thing for OK to take
        self.stale_at: int | None = None  # a zero too old for thing ``stale_at + 1``

    def candidates(self) -> list[int]:
        return [n for n in range(1, self.COUNT + 1) if n not in self.picked]

    def key(self, key: str) -> bool:
        if self.stage != "guess":
            if key == "back":
                return False
            self.refuse(_("FIRST"), _("Weigh them one by one"))
            return True
        if key == "back":
            if not self.picked:
                return False
            self.picked.pop()
            return True
        left = self.candidates()
        if key == "next":
            self.cursor = (self.cursor + 1) % len(left)
            self.moved = True
            return True
        if key == "ok":
            pick = left[self.cursor % len(left)]
        elif key in ("A", "B", "C"):
            pick = "ABC".index(key) + 1
            if pick in self.picked:
                self.station.refuse(S.refusal(_("Lightest first"), str(pick),
                                              _("is already in")))
                return True
        else:
            return True
        self.picked.append(pick)
        self.cursor, self.moved = 0, False
        if len(self.picked) == self.COUNT:
            self.score()
        return True

    def score(self) -> None:
        try:
            attempt = learning.score_order(self.weights, self.picked, self.level,
                                           self.again_on(*self.weights))
        except LearningError as exc:
            log.error("order not scored: %s", exc)
            self.refuse(_("OOPS!"), _("Pick again"))
            self.picked = []
            return
        truth = learning.true_order(self.weights)
        self.scored(attempt, S.order_grams(self.weights, truth), _("NOT YET"),
                    S.order_grams(self.weights, truth))
        if not attempt.correct:
            self.line = S.order_sequence(truth)

    def watch(self) -> None:
        if self.stage == "start" and self.stale_at is not None:
            self.stage, self.taken = "weigh", False   # the things weighed before stay
            self.weights, self.stale_at = self.weights[: self.stale_at], None
        if self.stage == "start":
            self.stage, self.weights, self.taken = "weigh", [], False
        if self.stage != "weigh":
            return
        reading = self.reading(self.pans[0])
        if not reading.stable or reading.grams is None:
            return
        if not self.taken and reading.grams >= learning.MIN_THING_G:
            if not self.fresh_zero():
                self.stale_at = len(self.weights)  # this thing again, once the pan is zeroed
                return
            self.weights.append(reading.grams)
            self.taken = True
            self.station.beep("click")
        elif self.taken and reading.grams < learning.MIN_THING_G:
            self.taken = False
            if len(self.weights) == self.COUNT:
                self.stage, self.picked, self.cursor = "guess", [], 0

    def again(self) -> None:
        self.stage, self.picked, self.cursor, self.moved = "guess", [], 0, False

    def own_view(self) -> View:
        if self.stage == "guess":
            left = self.candidates()
            return S.order_guess(self.picked, left[self.cursor % len(left)] if self.moved
                                 else None)
        return S.order_weigh(len(self.weights) + (0 if self.taken else 1), self.taken,
                             moving(self.news.pans, self.pans[:1]), len(self.pans), self.COUNT)


QUIZZES: dict[str, type[Quiz]] = {"heavier": Heavier, "grams": Grams, "balance": Balance,
                                  "order": Order}
TWO_PANS = frozenset({"heavier", "balance"})
