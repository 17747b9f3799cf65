"""Tante Trudels Trödel at the table: the die, the shop's turns and load cells for the balance.

Set-up: who makes the Purchase of the Day (TT2), who starts (TT3), the scales rows (TT1), the goal
(TT7) and the die: the box rolls it (a short buzzer roll, then the number; the engine's own seeded
draw, so a resumed game rolls the same) or the table enters a real one (A/C step, B enters;
NEXT/OK at the host panel). The player on turn uses their station; any seat may use the host
panel. The Purchase: three rolls, each row named, then its three items on the first pan (two
pans: they stay there; one pan: its weight is remembered). A turn: the roll, the move (TT4: perhaps
back), then the menu ``legal_actions`` allows, with Done. A weighing (``weighing.Weigher``) shows
LIGHTER, HEAVIER or BALANCED, never grams; on a close call it first weighs the Purchase on the
basket's pan (substitution) and the Purchase goes back afterwards. The end: the baskets in arrival
order, the reveal, the winner with the win sound. Every refused press says why; an undo says what
to put back. The journal keeps (``memory``) a scales-row weighing and a substitution under way and
the first pan's reference for the Purchase, so a power cut loses none of them.

The flow is one ``Step`` (``step()``, ``flow.py``) from one ``busy`` (the die rolling, a weighing,
a basket's items or the Purchase still on the pan, or nothing) and what the engine waits for.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ....games.core import Chance, Event, Option
from ....games.tante_trudels_troedel import TanteTrudelsTroedel
from ...i18n import N_, _
from ...inputs import Weight
from ...screens import View, wrap
from ...session import Session
from ..base import Referee, Table
from ..base.controllers import Die
from . import flow, jobs
from .flow import Busy, Rolling, Step, TakingOff, Weighing
from .memory import Memory, Reference
from .pages import event_pages, final_view, undo_pages
from .public import Public
from .screens import (act_view, move_view, refusal_lines, roll_view, rolling_view,
                      take_off_lines, take_off_view, weigh_view)
from .weighing import BASKET_HOLD_S, POTD_HOLD_S, Job, TakeOff, Weigher

ROLL_TICK_S = 0.1    # the buzzer's roll: the shared die's ticks this far apart, then the number
OK_KEYS = ("B", "ok")
NEXT_KEYS = ("C", "next")
RESHOWN = ("weigh", "potd_row")  # news no later screen repeats: shown again after a power cut


class TanteTrudelsTroedelReferee(Referee[TanteTrudelsTroedel]):
    TABLE_OPTIONS = (
        Option("die", "box", N_("Die"), ("box", "table"), (N_("box rolls"), N_("real die")),
               (N_("the box rolls for you"), N_("you roll, enter it"))),
    )

    def __init__(self, table: Table, session: Session) -> None:
        super().__init__(table, session)
        self.cursor = 0                          # the move choice or the menu line
        self.die = Die(table, Chance("value"), box_rolls=not self.table_die,
                       tick_s=ROLL_TICK_S, sound="tick")
        self.busy: Busy = None
        self.memory = Memory(table.journal, session.game_id)  # what the journal keeps besides
        self.ref: Reference | None = self.memory.reference()  # the Purchase on its pan, read
        self._remember()
        self._sync()

    # -- the step ----------------------------------------------------------------------------------
    def step(self) -> Step:
        """Where the flow is: what the box is busy with first, then what the engine waits for."""
        busy = self.busy
        still_on = isinstance(busy, TakingOff) and self._still_on(busy.take_off)
        return flow.step_of(busy, still_on, self._needed() is not None, self.seen)

    def _become(self, busy: Busy) -> None:
        """The one place ``busy`` changes: whatever the box was doing stops first."""
        old = self.busy
        if isinstance(old, Weighing) and not (
                isinstance(busy, Weighing) and busy.weigher is old.weigher):
            old.weigher.stop()
        if isinstance(old, Rolling) and not isinstance(busy, Rolling):
            self.die.stop()
        self.busy = busy

    @property
    def weigher(self) -> Weigher | None:
        """The weighing under way, if any."""
        return self.busy.weigher if isinstance(self.busy, Weighing) else None

    # -- helpers ---------------------------------------------------------------------------------
    @property
    def seen(self) -> Public:
        """The game as the table sees it: what the screens read."""
        return self.public_as(Public)

    @property
    def table_die(self) -> bool:
        return self.session.header.table.get("die") == "table"

    def scales(self) -> Any:
        """The App's ``Scales`` (None on a box without load cells)."""
        return flow.usable(self.table.scales)

    def potd_pan(self) -> str:
        return flow.potd_pan(self.table.scales)

    def pan_count(self) -> int:
        return flow.pan_count(self.table.scales)

    def _remember(self) -> None:
        """What the table has seen and the action that led to it: what an undo takes back."""
        actions = self.session.actions
        self._last = dict(actions[-1]) if actions else None
        self._known = self.seen

    def _still_on(self, take_off: TakeOff) -> bool:
        scales = self.scales()
        return scales is not None and take_off.waiting(scales)

    def _drop_stale_take_off(self) -> None:
        """A basket's items (or the Purchase) are off the pan, or it cannot be read: the
        take-off is over."""
        if isinstance(self.busy, TakingOff) and not self._still_on(self.busy.take_off):
            if self.busy.take_off.purchase and self.ref is not None:  # it left the basket's pan
                self._keep_reference(replace(self.ref, away=False))
            self._become(None)
            self._sync()

    def _purchase_waits(self) -> bool:
        """The Purchase of the Day waits to be weighed: the engine lists only that now."""
        return bool(self.legal_of(self.state.potd_maker, "weigh_potd"))

    def _needed(self) -> Job | None:
        """The weighing the game itself needs now: the Purchase, or a basket at the end."""
        return jobs.needed_job(self.state, self.table.scales, self.ref, self._purchase_waits(),
                               len(self.session.actions))

    def _row_job(self) -> Job | None:
        return jobs.row_job(self.state, self.table.scales, self.ref, len(self.session.actions))

    def _sync(self) -> None:
        """Start (or stop) the weighing the game needs now. A scales-row weighing the player
        chose runs until it is measured or cancelled, or the game moves on."""
        busy = self.busy
        job = self._needed()
        if isinstance(busy, Rolling) or (isinstance(busy, TakingOff) and job is None):
            return  # a weighing the game needs (from the link) asks to clear the pan itself
        if isinstance(busy, Weighing):
            running = busy.weigher.job
            if running == job or (job is None and running == self._row_job()):
                return
            self._become(None)
        if job is not None:
            self._weigh(job)

    def _weigh(self, job: Job) -> None:
        scales = self.scales()
        if scales is not None:
            hold_s = POTD_HOLD_S if job.kind == "potd" else BASKET_HOLD_S
            swap = self.memory.swap_of(job.key, job.kind, job.player)  # resumed mid-way

            def close_call(basket_g: float) -> None:  # kept for a power cut in the middle
                self.memory.note_swap(job.key, job.kind, job.player, basket_g)
            self._become(Weighing(Weigher(job, scales, self.table, self._measured, hold_s,
                                          close=close_call, basket_g=swap)))

    def _keep_reference(self, ref: Reference) -> None:
        self.ref = ref
        self.memory.keep_reference(ref)

    def _measured(self, grams: float) -> None:
        """The weigher's reading: the action that carries it."""
        weigher = self.weigher
        assert weigher is not None
        job = weigher.job
        kind = {"potd": "weigh_potd", "weigh": "weigh", "basket": "weigh_basket"}[job.kind]
        self._become(None)
        if weigher.purchase_now_g is not None:  # substituted: the Purchase is on this pan now
            self._keep_reference(Reference(weigher.purchase_now_g, cross=True, away=True))
            self.memory.note_swap(None)
        elif weigher.ref_read_g is not None:
            self._keep_reference(Reference(weigher.ref_read_g))
        taken = self.act({"type": kind, "player": job.player, "grams": grams})
        if job.kind == "weigh":
            self.memory.note_weighing(None)  # done (or refused: back to the menu)
        if taken is None:
            self._sync()

    # -- events from the App ---------------------------------------------------------------------
    def resumed(self) -> None:
        """After a power cut: the last action's news the table may have missed (a verdict, the
        Purchase's row) again, and back to a scales-row weighing that was under way."""
        self._remember()
        missed = [e for e in self.session.last_events if e.kind in RESHOWN]
        self.pages.show(event_pages(missed, self.seen, self.pan_count(), self.potd_pan()))
        count = len(self.session.actions)
        if not self.state.is_over and self.memory.weighing_at() == count:
            self.memory.noted = count
            row = self._row_job()
            if row is not None and self.scales() is not None and self.legal_of(
                    self.state.waiting_for()[0], "weigh"):
                self._weigh(row)
        self._sync()

    def after_undo(self) -> None:
        """Undo: the box's count goes back; a page says what to put back on the table."""
        undone, before = self._last, self._known
        super().after_undo()
        self._become(None)
        self.cursor = 0
        self.memory.note_weighing(None)
        self.memory.note_swap(None)
        self._remember()
        self.pages.show(undo_pages(undone, before, self.seen, self.pan_count(),
                                   flow.pan_names(self.table.scales)[0], self.potd_pan()))
        self._sync()

    def close(self) -> None:
        super().close()
        self._become(None)

    def on_weight(self, weight: Weight) -> bool:
        busy = self.busy
        if isinstance(busy, TakingOff) and weight.pan in busy.take_off.pans:
            self._drop_stale_take_off()
            return True
        if isinstance(busy, Weighing) and weight.pan in busy.weigher.pans:
            busy.weigher.check()
            return True
        return False

    # -- presses ---------------------------------------------------------------------------------
    def on_station(self, station: int, key: str) -> None:
        player = self.station_player(station)
        if player is None:
            return
        turn = self.turn_refusal(player)
        if turn is not None:  # at the end: and what OK at the box does now
            self.refuse(*turn, *(((_("OK on the box: next") if self.pages else
                                   _("OK on the box: menu")),) if self.state.is_over else ()))
            return
        if self.pages:
            if not self.pages.all_minor():
                self.pages.next()  # the player waited for turns the page
                return
            self.pages.stop()
        self._key(player, key, station=True)

    def on_host(self, key: str) -> bool:
        if self.pages:
            return self.pages.on_host(key)
        state = self.state
        if state.is_over:
            return False
        weigher = self.weigher
        if key == "back" and not (weigher is not None and weigher.job.kind == "weigh"):
            return False  # the game menu (BACK cancels only a scales-row weighing)
        self._key(state.waiting_for()[0], key, station=False)
        return True

    def _key(self, player: str, key: str, station: bool) -> None:
        self._drop_stale_take_off()
        step = self.step()
        if step is Step.TAKE_OFF:
            assert isinstance(self.busy, TakingOff)
            self.refuse(*take_off_lines(self.busy.take_off, self.pan_count(), self.potd_pan()))
        elif step is Step.ROLLING:
            self.refuse(_("The die is rolling"))
        elif step is Step.WEIGHING:
            self._weigh_key(key, station)
        elif step is Step.NO_SCALES:
            self.refuse(_("This box has no"), _("scales to weigh on"))
        elif step is Step.ROLL:
            self._roll_key(player, key, station)
        elif step is Step.MOVE:
            self._move_key(player, key, station)
        else:
            self._menu_key(player, key)

    def _roll_key(self, player: str, key: str, station: bool) -> None:
        if not self.die.box_rolls:  # a real die: A/C (NEXT) step its number, B (OK) enters it
            if key == "A":
                self.die.step(-1)
            elif key in NEXT_KEYS:
                self.die.step(1)
            elif key in OK_KEYS:
                self.act({"type": "roll", "player": player, "value": self.die.value})
            return
        if key not in OK_KEYS:
            self.refuse(_("B rolls the die") if station else _("OK rolls the die"))
            return
        state = self.state
        self._become(Rolling(player))
        self.die.roll(lambda: state.draw("roll"), lambda value: self._rolled(player, value))

    def _rolled(self, player: str, value: int) -> None:
        """The box's roll is shown: play it."""
        self._become(None)
        self.act({"type": "roll", "player": player, "value": value})

    def _moves(self, player: str) -> list[str]:
        return self.legal_values(player, "move", "direction")

    def _move_key(self, player: str, key: str, station: bool) -> None:
        moves = self._moves(player)
        if key in OK_KEYS:
            self.act({"type": "move", "player": player,
                      "direction": moves[self.cursor % len(moves)]})
        elif len(moves) == 1:  # already rolled: no second roll, only the move
            self.refuse(_("Rolled already."), _("Move your basket,"),
                        _("then press B.") if station else _("then press OK."))
        else:
            self.cursor = (self.cursor + (1 if key in NEXT_KEYS else -1)) % len(moves)

    def _menu_key(self, player: str, key: str) -> None:
        actions = self.legal(player)
        if key not in OK_KEYS:
            self.cursor = (self.cursor + (1 if key in NEXT_KEYS else -1)) % len(actions)
            return
        action = actions[self.cursor % len(actions)]
        if action["type"] != "weigh":
            self.act(action)
            return
        row = self._row_job()
        if self.scales() is None or row is None:
            self.refuse(_("This box has no"), _("scales to weigh on"))
            return
        self.memory.note_weighing(len(self.session.actions))
        self._weigh(row)

    def _weigh_key(self, key: str, station: bool) -> None:
        """A key during a weighing: "all on", cancel (a scales row), or why nothing happens."""
        weigher = self.weigher
        assert weigher is not None
        if weigher.job.kind == "weigh" and key in ("C", "back"):
            self.memory.note_weighing(None)
            self.memory.note_swap(None)
            self._become(TakingOff(jobs.cancelled(weigher.job, weigher.stage, self.ref,
                                                  self.state.potd_g, self.potd_pan())))
            self._sync()
            return
        reason = weigher.all_on() if key in OK_KEYS else "load" if weigher.stage == "load" \
            else "swap_load" if weigher.stage == "swap_on" else weigher.refusal()
        if reason is None:
            return
        self.refuse(*refusal_lines(reason, weigher.job, self.pan_count(), station))

    # -- applying --------------------------------------------------------------------------------
    def react(self, events: list[Event]) -> None:
        """What follows an accepted action (here or from the link): the buzzer, the pages; at
        the end the win sound waits for the winner's screen."""
        self.cursor = 0
        self.die.reset()
        self._remember()
        kinds = {e.kind for e in events}
        finale = None
        if "winner" in kinds:
            self.table.beep("score")
            finale = "win" if self.seen.winners else None
        elif kinds & {"weigh", "potd_weighed", "basket_weighed", "weighing"}:
            self.table.beep("score")
        else:
            self.table.beep("click")
        if "potd_weighed" in kinds and self.state.potd_g is not None:
            self._keep_reference(Reference(float(self.state.potd_g)))  # it lies there now
        away = self.ref is not None and self.ref.away
        self.pages.show(event_pages(events, self.seen, self.pan_count(), self.potd_pan(), away),
                        finale=finale)
        weighed = [e for e in events if e.kind == "weigh"]
        if weighed and self.scales() is not None:
            pan = flow.pan_names(self.table.scales)[0]
            self._become(TakingOff(jobs.take_off_after(weighed[-1].data["player"], pan, away,
                                                       self.ref, self.state.potd_g,
                                                       self.potd_pan())))
        self._sync()

    # -- the screen ------------------------------------------------------------------------------
    def end_view(self) -> View:
        return final_view(self.seen)

    def play_view(self) -> View:
        step, busy, pub = self.step(), self.busy, self.seen
        player = pub.waiting_for[0]
        station = self.has_station(player)
        if step is Step.ROLLING:
            assert isinstance(busy, Rolling) and self.die.rolling is not None
            return rolling_view(busy.player, self.die.rolling)
        if step is Step.TAKE_OFF:
            assert isinstance(busy, TakingOff)
            return take_off_view(busy.take_off, self.pan_count(), self.potd_pan())
        if step is Step.WEIGHING:
            assert isinstance(busy, Weighing)
            return weigh_view(busy.weigher, station, self.pan_count(),
                              cancel=busy.weigher.job.kind == "weigh")
        if step is Step.NO_SCALES:
            return View(_("No scales"), tuple(wrap(_("This box has no scales to weigh "
                                                     "with."))))
        if step is Step.ROLL:
            return roll_view(pub, player, station, self.table_die, self.die.value)
        if step is Step.MOVE:
            return move_view(pub, player, station, self.cursor, self._moves(player))
        return act_view(pub, player, station, self.cursor, self.legal(player))


__all__ = ["TanteTrudelsTroedelReferee"]
