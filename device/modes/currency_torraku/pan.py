"""The pan the stack stands on, for the referee: which pan, the ``StackWatcher`` with its
confirmation timer, and the set's piece weights (learned once, kept in the journal's notes).

The App offers its ``scales`` (the configured pans) and ``journal``; a box without pans still
plays, with every place and collapse declared at the host panel.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from ....drivers.weighing.stack import CONFIRM_S, StackError, StackStep, StackWatcher, Units
from ....games.currency_torraku import KINDS
from ...i18n import _
from ...inputs import Weight
from ..base import Table

log = logging.getLogger(__name__)

NOTE = "currency-torraku-pieces"   # the journal note holding the set's weighings
LEARN_EACH = 3                      # pieces of each kind weighed to learn the set
# How long a single piece's rise or fall must hold before it counts. A lift held away longer is
# shown and then taken back ("back"); shorter means a single-piece collapse is on the screen
# sooner. Measured with benchmarks/torraku.py (benchmarks/README.md): 0.05 s at both rates puts
# the collapse p95 at 0.75 s (10 SPS) and 0.39 s (80 SPS).
CONFIRM_BY_RATE = {10: 0.05, 80: 0.05}


class StackPan:
    """Weights in, confirmed ``StackStep``s out (to ``on_step``); learning the set on the way."""

    def __init__(self, table: Table, wanted: str | None,
                 on_step: Callable[[StackStep], None]) -> None:
        self.table = table
        self.on_step = on_step
        self.scales = table.scales
        pans = list(self.scales.pans) if self.scales is not None else []
        self.name: str | None = wanted if wanted in pans else (pans[0] if pans else None)
        rate = self.scales.snapshot(self.name).rate if self.scales and self.name else 10
        self.confirm_s = CONFIRM_BY_RATE.get(rate, CONFIRM_S)
        self.units = self._saved_units()
        self.watcher = StackWatcher(self.units, confirm_s=self.confirm_s)
        self.samples: dict[str, list[float]] | None = None  # while learning
        self._timer: Any = None
        self._watch: Any = None  # polls the reading while the pan moves (a fall of several)
        self._period = 1.0 / rate
        self.rebase()

    # -- the set's weights -----------------------------------------------------------------------
    def _saved_units(self) -> Units | None:
        notes = self.table.journal.notes(NOTE, 1)
        if not notes:
            return None
        try:
            return Units.from_samples(notes[0]["samples"])
        except (StackError, KeyError, TypeError, AttributeError) as exc:
            log.warning("saved piece weights unusable: %s", exc)
            return None

    def start_learning(self) -> None:
        self.samples = {k: [] for k in KINDS}
        self.watcher = StackWatcher(None, confirm_s=self.confirm_s)
        self.rebase()

    def learning_kind(self) -> str | None:
        """The kind to weigh next, None when every kind is weighed (or not learning)."""
        if self.samples is None:
            return None
        return next((k for k in KINDS if len(self.samples[k]) < LEARN_EACH), None)

    def _learn(self, step: StackStep) -> None:
        kind = self.learning_kind()
        if step.kind != "rise" or kind is None or self.samples is None:
            return  # pieces taken off while learning change nothing
        first = self.samples[kind][:1]
        if first and abs(step.grams - first[0]) > 0.3 * first[0]:
            self.table.beep("error")  # two pieces at once, or another kind
            self.table.flash(_("Not the same kind?"), _("Take it off and put"),
                             _("on one at a time."))
            return
        self.samples[kind].append(round(step.grams, 3))
        self.table.beep("click")
        if self.learning_kind() is None:
            self.units = Units.from_samples(self.samples)
            self.table.journal.add_note(NOTE, {"samples": self.samples, "pan": self.name})
            self.table.beep("go")

    def end_learning(self) -> None:
        self.samples = None
        self.watcher = StackWatcher(self.units, confirm_s=self.confirm_s)
        self.rebase()

    # -- the watcher -----------------------------------------------------------------------------
    def rebase(self, resumed: bool = False) -> None:
        """The reference: the pan's last settled weight (an empty, tared pan if it never
        settled); after a restart, the first level it settles at (the stack may stand on it)."""
        self.watcher.reset()
        if self.scales is not None and self.name is not None:
            settled = self.scales.snapshot(self.name).last_settled_g
            if settled is not None or not resumed:
                self.watcher.reset(settled or 0.0)

    def absorb(self) -> None:
        """A declaration at the host settles what the pan shows now: no step for it later."""
        self.table.cancel(self._timer)
        self.rebase()

    def loaded(self) -> bool:
        """Something lies on the pan now: settled, or read while it moves, above the noise (a
        pan that cannot be read holds nobody up)."""
        if self.scales is None or self.name is None:
            return False
        shot = self.scales.snapshot(self.name)
        if shot.state == "overload":
            return True
        return shot.state in ("stable", "moving") and shot.grams is not None \
            and shot.grams > self.watcher.noise_g

    def leftover(self) -> bool:
        """Pieces stand on the pan at its settled level (after a collapse, before the table
        clears it); a piece just set down and not yet settled does not count."""
        base = self.watcher.base
        return self.name is not None and base is not None and base > self.watcher.noise_g

    def on_weight(self, weight: Weight) -> bool:
        if weight.pan != self.name:
            return False
        if weight.kind == "stable" and weight.grams is not None:
            self.table.cancel(self._timer)
            self._unfollow()
            if self.watcher.stable(weight.t, weight.grams):
                due = self.watcher.due()
                delay = 0.0 if due is None else max(0.0, due - weight.t)
                self._timer = self.table.call_later(delay, self._confirm)
            return self.samples is not None
        if weight.kind == "moving":
            self.table.cancel(self._timer)
            self.watcher.moving(weight.t)
            self._follow()
        elif weight.kind == "disconnected":
            self.table.cancel(self._timer)
            self._unfollow()
            self.watcher.reset()
            self.table.flash(_("The pan lost signal:"), _("tell the box with OK"))
            return True
        return False

    def _follow(self) -> None:
        """While the pan moves, read it every conversion: several pieces falling are a fall
        before the pan settles (``StackWatcher.falling``)."""
        self._unfollow()
        self._watch = self.table.call_later(self._period, self._look)

    def _unfollow(self) -> None:
        self.table.cancel(self._watch)
        self._watch = None

    def _look(self) -> None:
        self._watch = None
        if self.scales is None or self.name is None:
            return
        shot = self.scales.snapshot(self.name)
        if shot.state != "moving":
            return  # settled, or no signal: the Weight that says so is on its way
        if shot.grams is not None and shot.t is not None:
            step = self.watcher.falling(shot.t, shot.grams)
            if step is not None:  # reported: its settled level moves the reference later
                if self.samples is not None:
                    self._learn(step)
                else:
                    self.on_step(step)
                return
        self._watch = self.table.call_later(self._period, self._look)

    def _confirm(self) -> None:
        self._timer = None
        step = self.watcher.confirm()
        if step is None:
            return
        if self.samples is not None:
            self._learn(step)
        else:
            self.on_step(step)

    def close(self) -> None:
        self.table.cancel(self._timer)
        self._unfollow()
