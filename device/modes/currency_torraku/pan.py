"""The pan the stack stands on, for the referee: which pan, the ``StackWatcher`` fed with the
pan's ``Weight``s, and the set's piece weights (learned once, kept in the journal's notes).

A level that must hold ``confirm_s`` before it counts is asked of the pans as a hold
(``Scales.hold``): the ``held`` Weight confirms it. A hold shorter than one conversion is over
before the next reading could say otherwise, so it is confirmed at once (as a timer would have,
with nothing new to go on). While the pan moves, each new reading comes as a Weight too: several
pieces falling are a fall before the pan settles. No timer, no polling.

The App offers its ``scales`` (the configured pans) and ``journal``; a box without pans still
plays, with every place and collapse declared at the host panel.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Callable

from ....drivers.weighing import PanSnapshot
from ....drivers.weighing.stack import CONFIRM_S, StackError, StackStep, StackWatcher, Units
from ....games.currency_torraku import KINDS
from ...i18n import _
from ...inputs import Weight
from ..base import Table

if TYPE_CHECKING:
    from ...pans.holds import Hold

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
        self.news: Weight | None = self.scales.news() if self.scales is not None else None
        shot = self.news.pans.get(self.name) if self.news and self.name else None
        rate = shot.rate if shot is not None else 10
        self.confirm_s = CONFIRM_BY_RATE.get(rate, CONFIRM_S)
        self.units = self._saved_units()
        self.watcher = StackWatcher(self.units, confirm_s=self.confirm_s)
        self.samples: dict[str, list[float]] | None = None  # while learning
        self._hold: "Hold | None" = None  # a level that must hold before it counts
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
        shot = self._shot()
        if shot is not None:
            settled = shot.last_settled_g
            if settled is not None or not resumed:
                self.watcher.reset(settled or 0.0)

    def _shot(self) -> "PanSnapshot | None":
        """The pan as the latest Weight showed it (None: no pan, or not heard of yet)."""
        if self.news is None or self.name is None:
            return None
        return self.news.pans.get(self.name)

    def absorb(self) -> None:
        """A declaration at the host settles what the pan shows now: no step for it later."""
        self._unhold()
        self.rebase()

    def loaded(self) -> bool:
        """Something lies on the pan now: settled, or read while it moves, above the noise (a
        pan that cannot be read holds nobody up)."""
        shot = self._shot()
        if shot is None:
            return False
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
        self.news = weight
        if weight.pan != self.name:
            return False
        if weight.kind == "stable" and weight.grams is not None:
            self._unhold()
            if self.watcher.stable(weight.t, weight.grams):
                due = self.watcher.due()
                if due is not None and due - weight.t < self._period - 1e-6:
                    self._confirm(None)  # no reading can come before it: it holds
                elif due is not None:
                    assert self.scales is not None and self.name is not None
                    self._hold = self.scales.hold(self.name, due - weight.t)
            return self.samples is not None
        if weight.kind == "held" and weight.hold is self._hold:
            self._unhold()
            self._confirm(weight.t)
            return True
        if weight.kind in ("moving", "reading"):
            if weight.kind == "moving":
                self._unhold()
                self.watcher.moving(weight.t)
            self._falling(weight)
        elif weight.kind == "disconnected":
            self._unhold()
            self.watcher.reset()
            self.table.flash(_("The pan lost signal:"), _("tell the box with OK"))
            return True
        return False

    def _falling(self, weight: Weight) -> None:
        """A reading while the pan moves: several pieces falling are a fall before the pan
        settles (``StackWatcher.falling``)."""
        shot = weight.pans.get(weight.pan)
        if shot is None or shot.state != "moving" or shot.grams is None or shot.t is None:
            return
        step = self.watcher.falling(shot.t, shot.grams)
        if step is None:
            return  # reported: its settled level moves the reference later
        if self.samples is not None:
            self._learn(step)
        else:
            self.on_step(step)

    def _unhold(self) -> None:
        if self.scales is not None:
            self.scales.release(self._hold)
        self._hold = None

    def _confirm(self, t: float | None) -> None:
        step = self.watcher.confirm(t)
        if step is None:
            return
        if self.samples is not None:
            self._learn(step)
        else:
            self.on_step(step)

    def close(self) -> None:
        self._unhold()
