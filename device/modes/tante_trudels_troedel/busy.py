"""Tante Trudels Trödel's box at work besides the engine: what it is busy with (``flow.Busy``:
the die rolling, a weighing, a basket's items or the Purchase still on the pan), the weighings
the game needs and starts by itself, a reading turned into the action that carries it, and what
the journal keeps of them (``memory``). The referee (``referee.py``) owns one ``Work`` and keeps
the keys, the pages and the screens.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol, Sequence

from ....games.core import Chance
from ....games.tante_trudels_troedel import TanteTrudelsTroedel
from ...inputs import Weight
from ...pans.scales import TableScales
from ...session import Session
from ..base import Table
from ..base.controllers import Die
from . import flow, jobs
from .flow import Busy, Rolling, TurnStep, TakingOff, Weighing
from .memory import Memory, Reference
from .public import Public
from .weighing import BASKET_HOLD_S, POTD_HOLD_S, Job, TakeOff, JobWeigher



class Referee(Protocol):
    """What the ``Work`` needs of the referee that owns it."""

    table: Table
    session: Session

    @property
    def state(self) -> TanteTrudelsTroedel: ...
    @property
    def seen(self) -> Public: ...
    def legal_of(self, player: str, kind: str) -> list[dict[str, Any]]: ...
    def act(self, action: dict[str, Any],
            notes: Sequence[tuple[str, dict[str, Any]]] = ()) -> list[Any] | None: ...

ROLL_TICK_S = 0.1    # the buzzer's roll: the shared die's ticks this far apart, then the number


class Work:
    """The step, the busy state and the weighings of one game (see the module doc)."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        table, session = referee.table, referee.session
        self.table: Table = table
        self.die = Die(table, Chance("value"), box_rolls=not self.table_die,
                       tick_s=ROLL_TICK_S, sound="tick")
        self.busy: Busy = None
        self.memory = Memory(table.journal, session.game_id)  # what the journal keeps besides
        self.ref: Reference | None = self.memory.reference()  # the Purchase on its pan, read
        scales = flow.usable(table.scales)  # the pans, as last told
        self.news: Weight | None = scales.news() if scales is not None else None

    @property
    def state(self) -> TanteTrudelsTroedel:
        return self.referee.state

    @property
    def table_die(self) -> bool:
        return self.referee.session.header.table.get("die") == "table"

    # -- the step ----------------------------------------------------------------------------------
    def step(self) -> TurnStep:
        """Where the flow is: what the box is busy with first, then what the engine waits for."""
        busy = self.busy
        still_on = isinstance(busy, TakingOff) and self.still_on(busy.take_off)
        return flow.step_of(busy, still_on, self.needed() is not None, self.referee.seen)

    def become(self, busy: Busy) -> None:
        """The one place ``busy`` changes: whatever the box was doing stops first."""
        old = self.busy
        if isinstance(old, Weighing) and not (
                isinstance(busy, Weighing) and busy.weigher is old.weigher):
            old.weigher.stop()
        if isinstance(old, Rolling) and not isinstance(busy, Rolling):
            self.die.stop()
        self.busy = busy

    @property
    def weigher(self) -> JobWeigher | None:
        """The weighing under way, if any."""
        return self.busy.weigher if isinstance(self.busy, Weighing) else None

    # -- the pans ----------------------------------------------------------------------------------
    def scales(self) -> TableScales | None:
        """The App's ``Scales`` (None on a box without load cells)."""
        return flow.usable(self.table.scales)

    def potd_pan(self) -> str:
        return flow.potd_pan(self.table.scales)

    def pan_count(self) -> int:
        return flow.pan_count(self.table.scales)

    def still_on(self, take_off: TakeOff) -> bool:
        return self.news is not None and take_off.waiting(self.news.pans)

    def drop_stale_take_off(self) -> None:
        """A basket's items (or the Purchase) are off the pan, or it cannot be read: the
        take-off is over."""
        if isinstance(self.busy, TakingOff) and not self.still_on(self.busy.take_off):
            if self.busy.take_off.purchase and self.ref is not None:  # it left the basket's pan
                self.keep_reference(replace(self.ref, away=False))
            self.become(None)
            self.sync()

    # -- the weighings -----------------------------------------------------------------------------
    def _purchase_waits(self) -> bool:
        """The Purchase of the Day waits to be weighed: the engine lists only that now."""
        return bool(self.referee.legal_of(self.state.potd_maker, "weigh_potd"))

    def needed(self) -> Job | None:
        """The weighing the game itself needs now: the Purchase, or a basket at the end."""
        return jobs.needed_job(self.state, self.table.scales, self.ref, self._purchase_waits(),
                               len(self.referee.session.actions))

    def row_job(self) -> Job | None:
        return jobs.row_job(self.state, self.table.scales, self.ref,
                            len(self.referee.session.actions))

    def sync(self) -> None:
        """Start (or stop) the weighing the game needs now. A scales-row weighing the player
        chose runs until it is measured or cancelled, or the game moves on."""
        busy = self.busy
        job = self.needed()
        if isinstance(busy, Rolling) or (isinstance(busy, TakingOff) and job is None):
            return  # a weighing the game needs (from the link) asks to clear the pan itself
        if isinstance(busy, Weighing):
            running = busy.weigher.job
            if running == job or (job is None and running == self.row_job()):
                return
            self.become(None)
        if job is not None:
            self.weigh(job)

    def weigh(self, job: Job) -> None:
        scales = self.scales()
        if scales is not None:
            hold_s = POTD_HOLD_S if job.kind == "potd" else BASKET_HOLD_S
            swap = self.memory.swap_of(job.key, job.kind, job.player)  # resumed mid-way

            def close_call(basket_g: float) -> None:  # kept for a power cut in the middle
                self.memory.note_swap(job.key, job.kind, job.player, basket_g)
            self.become(Weighing(JobWeigher(job, scales, self._measured, hold_s,
                                            close=close_call, basket_g=swap, seen=self.news)))

    def keep_reference(self, ref: Reference) -> None:
        self.ref = ref
        self.memory.keep_reference(ref)

    def _measured(self, grams: float) -> None:
        """The weigher's reading: the action that carries it."""
        weigher = self.weigher
        assert weigher is not None
        job = weigher.job
        kind = {"potd": "weigh_potd", "weigh": "weigh", "basket": "weigh_basket"}[job.kind]
        self.become(None)
        notes = []  # what the journal keeps of this weighing: in the commit of its verdict
        if weigher.purchase_now_g is not None:  # substituted: the Purchase is on this pan now
            self.ref = Reference(weigher.purchase_now_g, cross=True, away=True)
            notes += [self.memory.reference_note(self.ref), self.memory.swap_note(None)]
        elif weigher.ref_read_g is not None:
            self.ref = Reference(weigher.ref_read_g)
            notes.append(self.memory.reference_note(self.ref))
        if job.kind == "weigh" and self.memory.noted is not None:
            notes.append(self.memory.weighing_note(None))  # done (or refused: the menu)
        taken = self.referee.act({"type": kind, "player": job.player, "grams": grams}, notes)
        if job.kind == "weigh":
            self.memory.noted = None
        if taken is None:
            self.memory.write(notes)  # refused: what was read is kept all the same
            self.sync()

    def on_weight(self, weight: Weight) -> bool:
        self.news = weight
        busy = self.busy
        if isinstance(busy, TakingOff) and weight.pan in busy.take_off.pans:
            self.drop_stale_take_off()
            return True
        if isinstance(busy, Weighing) and weight.pan in busy.weigher.pans:
            busy.weigher.on_weight(weight)
            return True
        return False


__all__ = ["ROLL_TICK_S", "Work"]
