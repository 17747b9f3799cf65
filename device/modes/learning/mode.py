"""The learning station: choose the child (the roster, or a guest), then a quiz, the results or
how it works. The quiz menu shows one entry a screen, the child's stars in that quiz big.

Each answer is kept at once in the history (``device.history``) under the child's name; a
guest's answers live only in memory while the guest plays, never under a name. The level of each
quiz is the fold of the child's answers, shown as stars on the quiz menu and announced when it
changes. Nothing a child can press here forgets anything: clearing a child's history belongs to
the Settings mode. A press that does nothing says why (``refuse``), over the screen.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ....games import learning
from ....games.learning import Attempt, Progress
from ...config import core as config
from ...journal.learning import History
from ...i18n import _
from ...inputs import Press, Weight
from ...journal.store import JournalError
from ...journal.roster import Roster
from ...screen.render import View
from ..names import HOLDS, NewName
from . import rules
from . import screens as S
from .quizzes import QUIZZES, TWO_PANS, Quiz

if TYPE_CHECKING:
    from ...ui.screen import Shell

log = logging.getLogger(__name__)

LEVEL_NOTICE_S = 4.0  # over the result screen, which stays (a key ends it sooner)


class LearningMode:
    """The mode the home menu opens: ``who`` -> ``menu`` -> a quiz or ``results``."""

    def __init__(self, app: "Shell") -> None:
        self.app = app
        self.scales = app.scales
        self.history = History(app.journal)
        self.children = self.names()
        self.step = "who"
        self.cursor = 0
        self.page = 0                            # of the results or how it works
        self.child: str | None = None            # None: a guest
        self.guest: list[Attempt] = []           # a guest's answers, in memory only
        self.progress: dict[str, Progress] = {}
        self.quiz: Quiz | None = None
        self.new: NewName | None = None         # a new child's name on the letter wheel

    def names(self) -> list[str]:
        """The roster's names; a box whose roster is empty offers the players its config names
        (not the shipped seat colours)."""
        names = Roster(self.app.journal).names()
        if names:
            return names
        shipped = config.SEAT_COLOURS | set(config.defaults()["players"]["names"])
        return [n for n in getattr(self.app, "player_names", ()) if n not in shipped]

    # -- the Mode protocol -------------------------------------------------------------------------
    def holds(self) -> frozenset[str]:
        return HOLDS if self.new is not None else frozenset()

    def on_press(self, press: Press) -> bool:
        key = press.key
        if self.step == "quiz" and self.quiz is not None:
            if not self.quiz.on_key(key):
                self.leave_quiz()
            return True
        if self.new is not None:       # the wheel takes a near station's keys too
            self.on_new(key, press.hold)
            return True
        if press.station is not None:  # stations answer quizzes; menus are the host's
            self.refuse(S.use_the_box(self.view().title))
            return True
        if self.step == "who":
            return self.on_who(key)
        if self.step == "menu":
            self.on_menu(key)
        elif self.step in ("results", "how"):
            self.on_pages(key)
        return True

    def on_weight(self, weight: Weight) -> bool:
        if self.step == "quiz" and self.quiz is not None:
            return self.quiz.on_weight(weight)
        return False

    def private(self) -> bool:
        return False

    def weighs(self) -> bool:
        """In a quiz the pans are weighed (the warm-up notice shows, ``device.warm_up``)."""
        return self.step == "quiz" and self.quiz is not None

    def close(self) -> None:
        self.quiz = None

    # -- who, the quiz menu, results, how it works -----------------------------------------------
    def on_who(self, key: str) -> bool:
        count = len(self.children) + 2  # a guest, a new child
        if key == "back":
            return False
        if key == "next":
            self.cursor = (self.cursor + 1) % count
        elif key == "ok" and self.cursor == len(self.children) + 1:
            self.new = NewName(Roster(self.app.journal).add)
        elif key == "ok":
            guest = self.cursor >= len(self.children)
            self.choose(None if guest else self.children[self.cursor])
        return True

    def on_new(self, key: str, hold: bool) -> None:
        """The letter wheel: the new child is kept on the roster and starts at once."""
        assert self.new is not None
        name = self.new.on_key(key, hold)
        if self.new.message:
            self.app.beep("error")
            self.app.flash(self.new.message)
            self.new.message = None
        if name is not None:
            self.new = None
        if name:
            self.children = self.names()
            self.choose(name)

    def choose(self, child: str | None) -> None:
        self.child, self.guest = child, []
        attempts = [] if child is None else [r.attempt for r in self.history.records(child)]
        self.progress = learning.progress(attempts)
        self.step, self.cursor = "menu", 0

    def entries(self) -> list[str]:
        """The quiz menu, one entry a screen: the quizzes, the child's results (not a
        guest's: a guest's answers are kept under no name), how it works."""
        return [*learning.QUIZZES, *(["results"] if self.child is not None else []), "how"]

    def on_menu(self, key: str) -> None:
        entries = self.entries()
        if key == "back":
            self.step = "who"
            self.cursor = self.children.index(self.child) if self.child in self.children \
                else len(self.children)
        elif key == "next":
            self.cursor = (self.cursor + 1) % len(entries)
        elif key == "ok":
            entry = entries[self.cursor]
            if entry in learning.QUIZZES:
                self.start(entry)
            else:
                self.step, self.page = entry, 0

    def pages(self) -> list[View]:
        if self.step == "results":
            assert self.child is not None
            return S.results_pages(self.history.summary(self.child))
        return rules.pages()

    def on_pages(self, key: str) -> None:
        """OK (or NEXT) turns the page, the last one back to the menu; BACK goes back at once."""
        if key in ("ok", "next") and self.page + 1 < len(self.pages()):
            self.page += 1
        elif key in ("ok", "next", "back"):
            self.step = "menu"

    def start(self, name: str) -> None:
        pans = list(self.scales.pans) if self.scales is not None else []
        need = 2 if name in TWO_PANS else 1
        if len(pans) < need:
            self.refuse(S.needs_pans(name, need))
            return
        self.quiz = QUIZZES[name](self)
        self.quiz.check()
        self.step = "quiz"

    def leave_quiz(self) -> None:
        self.quiz = None
        self.step = "menu"

    # -- what the quizzes use --------------------------------------------------------------------
    def level(self, quiz: str) -> int:
        return self.progress.get(quiz, Progress()).level

    def levels(self) -> dict[str, int]:
        return {quiz: self.level(quiz) for quiz in learning.QUIZZES}

    def record(self, attempt: Attempt) -> None:
        """Keep an answer (a guest's in memory only) and follow the level."""
        if self.child is None:
            self.guest.append(attempt)
        else:
            try:
                self.history.add(self.child, attempt)
            except JournalError as exc:
                log.error("learning answer not kept: %s", exc)
                self.app.flash(_("Cannot save!"), _("This answer is not kept."))
        before = self.level(attempt.quiz)
        self.progress[attempt.quiz] = self.progress.get(attempt.quiz, Progress()).after(attempt)
        after = self.level(attempt.quiz)
        if after != before:
            self.app.notice(S.level_change(after, after > before), LEVEL_NOTICE_S)
            if after > before:
                self.app.beep("win")

    def refuse(self, view: View) -> None:
        """Say why a press did nothing, over the screen until the next key or a moment."""
        self.app.notice(view)

    def beep(self, pattern: str) -> None:
        self.app.beep(pattern)

    # -- screen ----------------------------------------------------------------------------------
    def view(self) -> View:
        if self.new is not None:
            return self.new.view()
        if self.step == "who":
            return S.who(self.children, self.cursor)
        if self.step == "menu":
            entry = self.entries()[self.cursor]
            if entry == "results":
                assert self.child is not None
                return S.menu_results(self.child)
            if entry == "how":
                return S.menu_how()
            return S.menu_quiz(entry, self.level(entry))
        if self.step in ("results", "how"):
            pages = self.pages()
            return pages[min(self.page, len(pages) - 1)]
        assert self.quiz is not None
        return self.quiz.view()
