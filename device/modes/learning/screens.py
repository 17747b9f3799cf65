"""The learning station's screens: big numbers, one word that matters, short lines.

Every screen is a ``View``; the word or number that matters is ``big`` (at most 10 characters),
body lines hold at most 21, and a screen with a big word has room for one line above a footer
(two without). All words go through ``_`` so catalogues can translate them.
"""

from __future__ import annotations

from typing import Sequence

from ....games import learning
from ...history import Summary
from ...i18n import _
from ...screens import View

STAR = "\u2605"


def quiz_label(quiz: str) -> str:
    return {"heavier": _("Heavier?"), "grams": _("Grams?"), "balance": _("Balance"),
            "order": _("In order")}[quiz]


def quiz_title(quiz: str) -> str:
    return {"heavier": _("Which is heavier?"), "grams": _("How many grams?"),
            "balance": _("Make it balance"), "order": _("Put them in order")}[quiz]


def grams(value: float) -> str:
    return _("{g} g").format(g=f"{value:.0f}")


# -- choosing ------------------------------------------------------------------------------------
def who(names: Sequence[str], cursor: int) -> View:
    return View(_("Who is learning?"), tuple(names) + (_("Guest"),), cursor=cursor,
                footer=_("NEXT move  OK choose"))


def menu(child: str | None, levels: dict[str, int], cursor: int) -> View:
    lines = [f"{quiz_label(q):<10}{STAR * levels[q]}" for q in learning.QUIZZES]
    if child is not None:
        lines.append(_("My results"))
    title = _("Hi {name}!").format(name=child) if child else _("Hi, guest!")
    return View(title, tuple(lines), cursor=cursor, footer=_("NEXT move  OK choose"))


def results(summary: Summary) -> View:
    trend = {"up": _("Getting better!"), "down": _("Keep practising!"),
             "steady": _("Nice and steady"), "new": _("Just started")}[summary.trend]
    return View(summary.child, (
        _("Today: {right} of {n} right").format(right=summary.today_right, n=summary.today),
        _("Best streak: {n}").format(n=summary.best_streak),
        trend,
        _("Answers: {n}").format(n=summary.total)), footer=_("OK back"))


def level_change(level: int, up: bool) -> View:
    return View(_("Level"), (_("Well done!") if up else _("Let's practise!"),),
                big=_("LEVEL {n}").format(n=level))


# -- shared by the quizzes -----------------------------------------------------------------------
def take_off(quiz: str) -> View:
    return View(quiz_title(quiz), (_("Take everything"), _("off the pans.")), big=_("EMPTY"))


def weighing(quiz: str) -> View:
    return View(quiz_title(quiz), (_("Hold still..."),), big="...")


def good(quiz: str, line: str) -> View:
    return View(quiz_title(quiz), (line,), big=_("YES!"), footer=_("OK next"))


def not_quite(quiz: str, word: str, line: str) -> View:
    return View(quiz_title(quiz), (line,), big=word, footer=_("OK again  NEXT show"))


def shown(quiz: str, big: str, line: str) -> View:
    return View(quiz_title(quiz), (line,), big=big, footer=_("OK next"))


# -- which is heavier? ---------------------------------------------------------------------------
def side_word(side: str) -> str:
    return {"left": _("LEFT"), "same": _("SAME"), "right": _("RIGHT")}[side]


def heavier_load() -> View:
    return View(quiz_title("heavier"), (_("One thing on"), _("each pan!")), big=_("2 THINGS"))


def heavier_guess(cursor: int) -> View:
    return View(quiz_title("heavier"), (_("A  left"), _("B  the same"), _("C  right")),
                cursor=cursor, footer=_("NEXT move  OK choose"))


def heavier_truth(side: str, diff_g: float) -> str:
    if side == "same":
        return _("Only {g} apart").format(g=grams(abs(diff_g)))
    pan = _("Left") if side == "left" else _("Right")
    return _("{pan}: {g} more").format(pan=pan, g=grams(abs(diff_g)))


# -- how many grams? -----------------------------------------------------------------------------
def grams_load() -> View:
    return View(quiz_title("grams"), (_("Put one thing"), _("on the pan.")), big=_("1 THING"))


def grams_pick(value: int, step: int) -> View:
    return View(quiz_title("grams"), (_("A-  C+  B: {g}").format(g=grams(step)),),
                big=grams(value), footer=_("NEXT +  OK that's it"))


# -- make it balance -----------------------------------------------------------------------------
def balance_load() -> View:
    return View(quiz_title("balance"), (_("Put something"), _("on the left pan.")),
                big=_("LEFT"))


def balance_add(hint: str | None) -> View:
    if hint == "more":
        return View(quiz_title("balance"), (_("Add to the right"),), big=_("MORE"),
                    footer=_("NEXT show me"))
    if hint == "less":
        return View(quiz_title("balance"), (_("Take some off right"),), big=_("LESS"),
                    footer=_("NEXT show me"))
    return View(quiz_title("balance"), (_("Hold still..."),), big="...",
                footer=_("NEXT show me"))


# -- put them in order ---------------------------------------------------------------------------
def order_weigh(n: int, taken: bool, still: bool) -> View:
    if taken:
        line = _("Take it off.")
    else:
        line = _("Put it on the pan.") if still else _("Hold still...")
    return View(quiz_title("order"), (line,), big=_("No. {n}").format(n=n))


def order_sequence(picked: Sequence[int], count: int = 3) -> str:
    return " < ".join([str(n) for n in picked] + ["_"] * (count - len(picked)))


def order_guess(picked: Sequence[int], candidate: int) -> View:
    return View(_("Lightest first"), (_("A 1  B 2  C 3"),), big=order_sequence(picked),
                footer=_("OK take {n}  NEXT other").format(n=candidate))


def order_grams(weights: Sequence[float], order: Sequence[int]) -> str:
    return " < ".join(f"{weights[n - 1]:.0f}" for n in order) + " g"
