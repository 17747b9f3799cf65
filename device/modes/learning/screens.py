"""The learning station's screens, made for a six-year-old across the table: one idea a screen,
the word or number that matters ``big`` and drawn three times the font (18 px).

``big`` holds at most 7 characters so it is drawn 3x; the layouts that leave it room on the
128x64 OLED are: a title, big and one line (a screen that waits for the pans, no key to press);
a title, big and a footer (a choice); or no title, big, one line and a footer (a verdict). All
words go through ``_`` and fit in German and English.
"""

from __future__ import annotations

from typing import Sequence

from ...journal.learning import Summary
from ...i18n import _
from ...glossary import choose_footer
from ...screen.render import View

STAR = "\u2605"


def quiz_title(quiz: str) -> str:
    return {"heavier": _("Which is heavier?"), "grams": _("How many grams?"),
            "balance": _("Make it balance"), "order": _("Put them in order")}[quiz]


def grams(value: float) -> str:
    return _("{g} g").format(g=f"{value:.0f}")


def stars(level: int) -> str:
    """The level as stars, a space between them (drawn big, side by side they touch)."""
    return " ".join(STAR * max(1, level))


# -- choosing --------------------------------------------------------------------------------
def who(names: Sequence[str], cursor: int) -> View:
    """The children, a guest, and a new child (typed on the letter wheel)."""
    return View(_("Who is learning?"), tuple(names) + (_("Guest"), _("New child")),
                cursor=cursor, footer=choose_footer())


def menu_quiz(quiz: str, level: int) -> View:
    """One quiz of the menu (NEXT turns to the next): its name and the child's stars in it."""
    return View(quiz_title(quiz), big=stars(level), footer=_("NEXT other  OK start"))


def menu_results(child: str) -> View:
    """The menu's page for the child's results: the child's own name, big when it fits."""
    if len(child) <= 10:
        return View(_("My results"), big=child, footer=_("NEXT other  OK open"))
    return View(_("My results"), (child,), footer=_("NEXT other  OK open"))


def menu_how() -> View:
    return View(_("How it works"), big="?", footer=_("NEXT other  OK open"))


def refusal(title: str, big: str, line: str) -> View:
    """Why a press did nothing: the point big, the reason below (no key to press)."""
    return View(title, (line,), big=big)


def use_the_box(title: str) -> View:
    return refusal(title, _("NEXT/OK"), _("Buttons on the box"))


def needs_pans(quiz: str, need: int) -> View:
    return refusal(quiz_title(quiz), _("SORRY"),
                   _("This needs two pans") if need == 2 else _("This needs a pan"))


# -- results: one number a page --------------------------------------------------------------
def results_pages(summary: Summary) -> list[View]:
    """Today, the best run, all answers, how it is going; OK turns the page."""
    more, back = _("OK next"), _("OK back")
    if summary.today:
        today = View(_("Right today"), big=_("{n} of {count}").format(
            n=summary.today_right, count=summary.today), footer=more)
    else:
        today = View(_("Answers today"), big="0", footer=more)
    trend = {"up": _("BETTER!"), "down": _("GO ON!"), "steady": _("STEADY"),
             "new": _("NEW!")}[summary.trend]
    return [today,
            View(_("Most in a row"), big=str(summary.best_streak), footer=more),
            View(_("Answers in all"), big=str(summary.total), footer=more),
            View(_("How it's going"), big=trend, footer=back)]


def level_change(level: int, up: bool) -> View:
    return View(_("Level {n}").format(n=level), (_("Well done!") if up else _("Let's practise!"),),
                big=stars(level))


# -- shared by the quizzes -------------------------------------------------------------------
def take_off(quiz: str) -> View:
    return View(quiz_title(quiz), (_("Take everything off"),), big=_("EMPTY"))


def empty_first(pans: int) -> str:
    return _("Empty the pans first") if pans > 1 else _("Empty the pan first")


def zero_first(quiz: str, pans: int) -> View:
    """A pan's zero is too old for a weighing that counts: empty it, the box zeroes it."""
    return View(quiz_title(quiz), (empty_first(pans),), big=_("EMPTY"))


def wait(quiz: str, moving: bool, footer: str = "") -> View:
    """The pans have not settled (``moving``: something still wobbles) or are being judged."""
    line = _("Still wobbling...") if moving else _("Weighing...")
    return View("" if footer else quiz_title(quiz), (line,), big=_("WAIT"), footer=footer)


def pan_trouble(pan: str) -> View:
    """A pan that sends nothing (a loose cable) or was never set up: a grown-up is needed."""
    line = {"left": _("Left pan not working"), "right": _("Right pan not working")}.get(
        pan, _("{pan}: not working").format(pan=pan))
    return View("", (line, _("Ask a grown-up")), big=_("OOPS!"))


def too_heavy(pan: str) -> View:
    """A pan at its overload stop: its weight is unknown, so nothing is scored."""
    line = {"left": _("on the left pan"), "right": _("on the right pan")}.get(
        pan, _("on the {pan} pan").format(pan=pan))
    return View("", (line, _("Take something off")), big=_("TOO HEAVY"))


def good(line: str) -> View:
    return View("", (line,), big=_("YES!"), footer=_("OK next"))


def not_quite(word: str, line: str) -> View:
    return View("", (line,), big=word, footer=_("OK again  NEXT show"))


def shown(big: str, line: str) -> View:
    return View("", (line,), big=big, footer=_("OK next"))


def one_thing(quiz: str, pans: int) -> View:
    """Grams, balance: one thing on the first pan."""
    return View(quiz_title(quiz), (on_the_pan(pans),), big=_("1 THING"))


def on_the_pan(pans: int) -> str:
    return _("on the left pan") if pans > 1 else _("on the pan")


def wrong_pan(quiz: str) -> View:
    return View(quiz_title(quiz), (_("Use the left pan!"),), big=_("LEFT"))


def first_a_thing(pans: int) -> str:
    return _("A thing on the left") if pans > 1 else _("A thing on the pan")


# -- which is heavier? -----------------------------------------------------------------------
def side_word(side: str) -> str:
    return {"left": _("LEFT"), "same": _("SAME"), "right": _("RIGHT")}[side]


def heavier_load(left: bool, right: bool) -> View:
    """What is still missing: both pans, or the one still empty."""
    if not left and not right:
        big, line = _("BOTH"), _("One thing on each pan")
    elif not left:
        big, line = _("LEFT"), _("One on the left too")
    else:
        big, line = _("RIGHT"), _("One on the right too")
    return View(quiz_title("heavier"), (line,), big=big)


def heavier_guess(cursor: int) -> View:
    """The question, with the level's rule said before the answer: near weights count as the
    same ("about the same")."""
    return View(quiz_title("heavier"), (_("A  left"), _("B  about the same"), _("C  right")),
                cursor=cursor, footer=choose_footer())


def heavier_truth(side: str, diff_g: float) -> str:
    if side == "same":
        if round(abs(diff_g)) < 1:
            return _("Exactly the same")
        return _("Only {g} apart").format(g=grams(abs(diff_g)))
    pan = _("Left") if side == "left" else _("Right")
    return _("{pan}: {g} more").format(pan=pan, g=grams(abs(diff_g)))


def heavier_by_the_scale(diff_g: float) -> str:
    """The praise of a side the scale supports where the level calls the pans the same."""
    return _("Only {g}: same, too").format(g=grams(abs(diff_g)))


# -- how many grams? -------------------------------------------------------------------------
def grams_pick(value: int, step: int) -> View:
    return View("", (_("A -{g}  C +{g}").format(g=grams(step)),), big=grams(value),
                footer=_("B steps  OK that's it"))


def grams_miss(more: bool) -> tuple[str, str]:
    """The big word and the line of a guess too small (``more``) or too big."""
    if more:
        return _("MORE"), _("It is heavier!")
    return _("LESS"), _("It is lighter!")


# -- make it balance -------------------------------------------------------------------------
def balance_add(hint: str | None, moving: bool) -> View:
    give_up = _("NEXT show me")
    if hint == "more":
        return View("", (_("Put more on the right"),), big=_("MORE"), footer=give_up)
    if hint == "less":
        return View("", (_("Take some off right"),), big=_("LESS"), footer=give_up)
    return wait("balance", moving, footer=give_up)


# -- put them in order -----------------------------------------------------------------------
def order_weigh(n: int, taken: bool, moving: bool, pans: int, count: int = 3) -> View:
    """Thing ``n`` of ``count``: put it on, hold on while it wobbles, take it off."""
    if taken:
        line = _("Got it! Take it off")
    elif moving:
        line = _("Still wobbling...")
    else:
        line = _("On the left pan") if pans > 1 else _("On the pan")
    return View(quiz_title("order"), (line,), big=_("{n} of {count}").format(n=n, count=count))


def order_sequence(picked: Sequence[int], count: int = 3) -> str:
    """``2 1 ?``: the things picked so far, lightest first, a "?" for each still to pick (an
    underscore drawn 3x would sit on the line below)."""
    return " ".join([str(n) for n in picked] + ["?"] * (count - len(picked)))


def order_guess(picked: Sequence[int], candidate: int | None = None) -> View:
    """Lightest first: A B C name the things; after NEXT on the host panel, OK takes
    ``candidate``."""
    line = _("Lightest first") if candidate is None else \
        _("OK takes thing {n}").format(n=candidate)
    return View("", (line,), big=order_sequence(picked), footer=_("A 1  B 2  C 3"))


def order_grams(weights: Sequence[float], order: Sequence[int]) -> str:
    return " < ".join(f"{weights[n - 1]:.0f}" for n in order) + " g"
