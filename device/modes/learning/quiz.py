"""What every quiz on the pans shares: the steps around an answer, and the pans as read.

A quiz reads the pans as the ``Weight``s it is told show them (settled readings, the judged
verdict of two pans; at a key, the pans as they are then: ``Scales.news``) and scores through
the pure ``games.learning``; the mode around it keeps the attempt and the level.
Keys arrive as ``ok``/``next``/``back`` from the host panel and ``A``/``B``/``C`` from any
station. After a miss, OK tries again on the same things (a try again never counts against the
child) and NEXT shows the answer; after an answer is shown, the pans are emptied before the next
question, so the same things are never scored twice by accident.

Every weighing that is scored starts from a fresh zero: each pan the quiz weighs on was empty and
still (its zero taken afresh, ``PanSnapshot.zero_age_s``) at most ``ZERO_FRESH_S`` ago, else the
child is asked to empty it first. An emptied pan whose level the zero tracker did not take for
zero (a crumb, a zero left from long ago) is zeroed there, as a person presses ZERO on an empty
kitchen scale.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Protocol

from ....games import learning
from ....games.learning import Attempt
from ...i18n import _
from ...inputs import Weight
from ...pans.words import PanReading
from ...screen.render import View
from . import screens as S

if TYPE_CHECKING:
    from ....drivers.weighing import PanSnapshot
    from ...pans.scales import TableScales

Pans = Mapping[str, "PanSnapshot"]  # every pan's snapshot, as a Weight carries them

# The zero moves at most 2 mg/s (ZeroSettings.drift_g_per_s: a cell warming up, at worst), so a
# zero 5 minutes old is off by at most 0.6 g: below the finest step a quiz tells apart (1 g, at
# the top level). Older than that, the pans are emptied and zeroed before a weighing counts.
ZERO_FRESH_S = 300.0


class Station(Protocol):
    """What a quiz needs from the mode."""

    scales: "TableScales | None"  # a quiz starts only where there are pans

    def level(self, quiz: str) -> int: ...
    def record(self, attempt: Attempt) -> None: ...
    def refuse(self, view: View) -> None: ...
    def beep(self, pattern: str) -> None: ...


def grams_on(pans: Pans, pan: str) -> float:
    """What is on ``pan`` (0 when it has no signal yet)."""
    grams = PanReading.of(pan, pans.get(pan)).grams
    return 0.0 if grams is None else grams


def loaded(pans: Pans, pan: str) -> bool:
    return grams_on(pans, pan) >= learning.MIN_THING_G


def moving(pans: Pans, names: list[str]) -> bool:
    """Whether something on ``names`` still wobbles (a reading not yet settled)."""
    return any(not PanReading.of(p, pans.get(p)).stable and loaded(pans, p) for p in names)


def stale(pans: Pans, names: list[str], max_age_s: float | None = None) -> list[str]:
    """The pans of ``names`` whose zero is not fresh: not taken (empty and still, or tared) in
    the last ``max_age_s`` (default ``ZERO_FRESH_S``) seconds. A pan that sends nothing is
    left to ``Quiz.trouble``."""
    limit = ZERO_FRESH_S if max_age_s is None else max_age_s
    out = []
    for pan in names:
        shot = pans.get(pan)
        if shot is not None and shot.connected and (
                shot.zero_age_s is None or shot.zero_age_s > limit):
            out.append(pan)
    return out


class Quiz:
    """One quiz's steps. ``stage`` is "clear" (empty the pans first), the quiz's own stages,
    "miss" (not quite: OK again, NEXT show), "good" or "shown" (OK: next question). A result
    stays on the screen whatever the pans do; before it, a pan the quiz weighs on that sends
    nothing is said in child words, and every key that does nothing says why (``refuse``)."""

    name = ""
    PANS = 1  # the pans the quiz weighs on: the first, or the first two

    def __init__(self, station: Station) -> None:
        self.station = station
        assert station.scales is not None, "a quiz starts only on a box with pans"
        self.scales: TableScales = station.scales
        self.pans = list(self.scales.pans)
        self.news: Weight = self.scales.news()  # the pans as last told
        self.stage = "clear"  # until the pans are empty, each with a fresh zero (``check``)
        self.stale = False    # "clear" because a zero was too old when a weighing was due
        self.retry = False    # OK after a miss: the next answer may be a try again
        self.truth: tuple[float, ...] = ()  # the grams of the last question scored
        self.line = ""        # the result's line
        self.word = ""        # the miss's word, or the answer when shown
        self.answer_line = ""
        self.miss_line = _("Try again!")

    @property
    def level(self) -> int:
        return self.station.level(self.name)

    # -- the mode's entry points -------------------------------------------------------------------
    def reading(self, pan: str) -> PanReading:
        return PanReading.of(pan, self.news.pans.get(pan))

    def on_key(self, key: str) -> bool:
        """A key; False for BACK the quiz leaves to the mode (back to the quiz menu). The
        child asks now: the pans as they are now (a zero's age grows without any news)."""
        self.news = self.scales.news()
        if self.stage == "miss":
            if key == "ok":
                self.retry = True
                self.again()
            elif key == "next":
                self.stage = "shown"
            elif key == "back":
                return False
            else:
                self.refuse(_("OK"), _("OK tries again"))
            return True
        if self.stage in ("good", "shown"):
            if key in ("ok", "next"):
                self.retry = False
                self.stage = "clear"
                self.check()
            elif key == "back":
                return False
            else:
                self.refuse(_("OK"), _("OK: the next one"))
            return True
        if key == "back" and self.stage == "clear":
            return False
        trouble = self.trouble()
        if trouble is not None and key != "back":  # a pan that sends nothing answers nothing
            self.station.refuse(S.pan_trouble(trouble))
            return True
        heavy = self.heavy()
        if heavy is not None and key != "back":    # a pan at its stop has no weight to score
            self.station.refuse(S.too_heavy(heavy))
            return True
        if self.stage == "clear":
            self.refuse(_("EMPTY"), S.empty_first(self.PANS) if self.stale
                        else _("Take everything off"))
            return True
        return self.key(key)

    def on_weight(self, weight: Weight) -> bool:
        self.news = weight
        self.check()
        return True

    def again_on(self, *truth: float) -> bool:
        """Whether this answer is a try again: after a miss, on the same things (hefting them
        lifts them off the pans, so the weights decide, not the pans' steps)."""
        same = self.retry and len(truth) == len(self.truth) and all(
            abs(a - b) <= max(3.0, 0.03 * abs(b)) for a, b in zip(truth, self.truth))
        self.truth = truth
        return same

    def refuse(self, big: str, line: str) -> None:
        """Say why a press did nothing: the point big, the reason below."""
        self.station.refuse(S.refusal(S.quiz_title(self.name), big, line))

    def refuse_wait(self) -> None:
        """A press while the pans are still being weighed."""
        still = moving(self.news.pans, self.pans[: self.PANS])
        self.refuse(_("WAIT"), _("Still wobbling...") if still else _("Weighing..."))

    def trouble(self) -> str | None:
        """The first pan the quiz weighs on that sends nothing or was never set up."""
        for pan in self.pans[: self.PANS]:
            reading = self.reading(pan)
            if not reading.connected or not reading.calibrated:
                return pan
        return None

    def heavy(self) -> str | None:
        """The first pan too heavy to weigh (at its overload stop), if any."""
        return next((p for p in self.pans if self.reading(p).overload), None)

    def check(self) -> None:
        """Look at the pans again (after a weighing or a verdict)."""
        if self.stage == "clear" and not any(loaded(self.news.pans, p) for p in self.pans) \
                and self.zero_ready():
            self.stage, self.stale = "start", False
            self.next_question()
        self.watch()

    def zero_ready(self) -> bool:
        """Whether the empty pans the quiz weighs on have fresh zeros; an empty, still pan
        whose level was not taken for zero is zeroed now (tare)."""
        pans = stale(self.news.pans, self.pans[: self.PANS])
        if pans and all(self._still_and_empty(p) for p in pans):
            self.scales.tare()
            self.news = self.scales.news()  # the zero just taken
            pans = stale(self.news.pans, pans)
        return not pans

    def _still_and_empty(self, pan: str) -> bool:
        shot = self.news.pans.get(pan)
        return shot is not None and shot.stable and shot.grams is not None and \
            abs(shot.grams) < learning.MIN_THING_G

    def fresh_zero(self) -> bool:
        """Before a weighing is scored: True when each pan the quiz weighs on has a fresh zero;
        else nothing is scored and the child is asked to empty the pans first."""
        if not stale(self.news.pans, self.pans[: self.PANS]):
            return True
        self.stage, self.stale = "clear", True
        return False

    def scored(self, attempt: Attempt, line: str, miss_word: str, answer: str,
               miss_line: str = "") -> None:
        """Keep the attempt; show the result (a miss hides the answer until NEXT)."""
        self.station.record(attempt)
        self.line, self.word, self.answer_line = line, miss_word, answer
        self.miss_line = miss_line or _("Try again!")
        if attempt.correct:
            self.stage = "good"
            self.station.beep("score")
        else:
            self.stage = "miss"
            self.station.beep("tick")

    def view(self) -> View:
        if self.stage in ("good", "miss", "shown"):  # the result stays, whatever the pans do
            return self.result_view()
        trouble = self.trouble()
        if trouble is not None:
            return S.pan_trouble(trouble)
        heavy = self.heavy()
        if heavy is not None:
            return S.too_heavy(heavy)
        if self.stage == "clear":
            return S.zero_first(self.name, self.PANS) if self.stale else S.take_off(self.name)
        return self.own_view()

    def result_view(self) -> View:
        if self.stage == "good":
            return S.good(self.line)
        if self.stage == "miss":
            return S.not_quite(self.word, self.miss_line)
        return S.shown(self.line, self.answer_line)

    # -- each quiz's own -------------------------------------------------------------------------
    def key(self, key: str) -> bool:
        raise NotImplementedError

    def watch(self) -> None:
        """React to the pans in the quiz's own stages."""

    def again(self) -> None:
        raise NotImplementedError

    def next_question(self) -> None:
        """A new question begins (the pans were cleared): nothing of the last answer stays
        chosen, so a child pressing OK at once does not give it again."""

    def own_view(self) -> View:
        raise NotImplementedError
