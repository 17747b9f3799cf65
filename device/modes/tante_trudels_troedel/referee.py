"""Tante Trudels Trödel at the table: the die, the shop's turns and load cells for the balance.

Set-up: who makes the Purchase of the Day (TT2), who starts (TT3), the scales rows (TT1), the goal
(TT7) and the die: the box rolls it (a short buzzer roll, then the number; the engine's own seeded
draw, so a resumed game rolls the same) or the table enters a real one (A/C step, B enters;
NEXT/OK at the host panel). The player on turn uses their station; any seat may use the host
panel. The Purchase: three rolls, each row named, then its three items on the first pan (two
pans: they stay there; one pan: its weight is remembered). A turn: the roll, the move (TT4: perhaps
back), then the menu ``legal_actions`` allows, with Done. A weighing (``weighing.JobWeigher``) shows
LIGHTER, HEAVIER or BALANCED, never grams; on a close call it first weighs the Purchase on the
basket's pan (substitution) and the Purchase goes back afterwards. The end: the baskets in arrival
order, the reveal, the winner with the win sound. Every refused press says why; an undo says what
to put back. The journal keeps (``memory``) a scales-row weighing and a substitution under way and
the first pan's reference for the Purchase, so a power cut loses none of them.

The flow is one ``TurnStep`` (``Work.step()``, ``flow.py``) from one ``busy`` (the die rolling, a
weighing, a basket's items or the Purchase still on the pan, or nothing) and what the engine
waits for; that work of the box's own is the referee's ``Work`` (``busy.py``), this class the
keys, news and screens.
"""

from __future__ import annotations

from ....games.core import Event, Option
from ....games.tante_trudels_troedel import TanteTrudelsTroedel
from ...i18n import N_, _
from ...inputs import Weight
from ...session import Session
from ...screen.render import View, wrap
from . import flow, jobs
from ..base import Referee, Table
from .busy import Work
from .flow import Rolling, TurnStep, TakingOff, Weighing
from .memory import Reference
from .public import Public
from .pages import event_pages, final_view, undo_pages
from .screens import (act_view, move_view, refusal_lines, roll_view, rolling_view,
                      take_off_lines, take_off_view, weigh_view)

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
        self.cursor = 0  # the move choice or the menu line
        self.work = Work(self)
        self._remember()
        self.work.sync()

    @property
    def seen(self) -> Public:
        """The game as the table sees it: what the screens read."""
        return self.public_as(Public)

    def _remember(self) -> None:
        """What the table has seen and the action that led to it: what an undo takes back."""
        actions = self.session.actions
        self._last = dict(actions[-1]) if actions else None
        self._known = self.seen

    def on_weight(self, weight: Weight) -> bool:
        return self.work.on_weight(weight)

    def weighs(self) -> bool:
        """A weighing runs (the warm-up notice shows while the scales warm up)."""
        return self.work.weigher is not None

    # -- events from the App ---------------------------------------------------------------------
    def resumed(self) -> None:
        """After a power cut: the last action's news the table may have missed (a verdict, the
        Purchase's row) again, and back to a scales-row weighing that was under way."""
        self._remember()
        missed = [e for e in self.session.last_events if e.kind in RESHOWN]
        self.pages.show(event_pages(missed, self.seen, self.work.pan_count(), self.work.potd_pan()))
        count = len(self.session.actions)
        if not self.state.is_over and self.work.memory.weighing_at() == count:
            self.work.memory.noted = count
            row = self.work.row_job()
            if row is not None and self.work.scales() is not None and self.legal_of(
                    self.state.waiting_for()[0], "weigh"):
                self.work.weigh(row)
        self.work.sync()

    def after_undo(self) -> None:
        """Undo: the box's count goes back; a page says what to put back on the table."""
        undone, before = self._last, self._known
        super().after_undo()
        self.work.become(None)
        self.cursor = 0
        self.work.memory.note_weighing(None)
        self.work.memory.note_swap(None)
        self._remember()
        self.pages.show(undo_pages(undone, before, self.seen, self.work.pan_count(),
                                   flow.pan_names(self.table.scales)[0], self.work.potd_pan()))
        self.work.sync()

    def close(self) -> None:
        super().close()
        self.work.become(None)

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
        weigher = self.work.weigher
        if key == "back" and not (weigher is not None and weigher.job.kind == "weigh"):
            return False  # the game menu (BACK cancels only a scales-row weighing)
        self._key(state.waiting_for()[0], key, station=False)
        return True

    def _key(self, player: str, key: str, station: bool) -> None:
        self.work.drop_stale_take_off()
        step = self.work.step()
        if step is TurnStep.TAKE_OFF:
            assert isinstance(self.work.busy, TakingOff)
            self.refuse(*take_off_lines(self.work.busy.take_off, self.work.pan_count(), self.work.potd_pan()))
        elif step is TurnStep.ROLLING:
            self.refuse(_("The die is rolling"))
        elif step is TurnStep.WEIGHING:
            self._weigh_key(key, station)
        elif step is TurnStep.NO_SCALES:
            self.refuse(_("This box has no"), _("scales to weigh on"))
        elif step is TurnStep.ROLL:
            self._roll_key(player, key, station)
        elif step is TurnStep.MOVE:
            self._move_key(player, key, station)
        else:
            self._menu_key(player, key)

    def _roll_key(self, player: str, key: str, station: bool) -> None:
        if not self.work.die.box_rolls:  # a real die: A/C (NEXT) step its number, B (OK) enters it
            if key == "A":
                self.work.die.step(-1)
            elif key in NEXT_KEYS:
                self.work.die.step(1)
            elif key in OK_KEYS:
                self.act({"type": "roll", "player": player, "value": self.work.die.value})
            return
        if key not in OK_KEYS:
            self.refuse(_("B rolls the die") if station else _("OK rolls the die"))
            return
        state = self.state
        self.work.become(Rolling(player))
        self.work.die.roll(lambda: state.draw("roll"), lambda value: self._rolled(player, value))

    def _rolled(self, player: str, value: int) -> None:
        """The box's roll is shown: play it."""
        self.work.become(None)
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
        row = self.work.row_job()
        if self.work.scales() is None or row is None:
            self.refuse(_("This box has no"), _("scales to weigh on"))
            return
        self.work.memory.note_weighing(len(self.session.actions))
        self.work.weigh(row)

    def _weigh_key(self, key: str, station: bool) -> None:
        """A key during a weighing: "all on", cancel (a scales row), or why nothing happens."""
        weigher = self.work.weigher
        assert weigher is not None
        if weigher.job.kind == "weigh" and key in ("C", "back"):
            self.work.memory.note_weighing(None)
            self.work.memory.note_swap(None)
            self.work.become(TakingOff(jobs.cancelled(weigher.job, weigher.stage, self.work.ref,
                                                  self.state.potd_g, self.work.potd_pan())))
            self.work.sync()
            return
        reason = weigher.all_on() if key in OK_KEYS else "load" if weigher.stage == "load" \
            else "swap_load" if weigher.stage == "swap_on" else weigher.refusal()
        if reason is None:
            return
        self.refuse(*refusal_lines(reason, weigher.job, self.work.pan_count(), station))

    # -- applying --------------------------------------------------------------------------------
    def react(self, events: list[Event]) -> None:
        """What follows an accepted action (here or from the link): the buzzer, the pages; at
        the end the win sound waits for the winner's screen."""
        self.cursor = 0
        self.work.die.reset()
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
            self.work.keep_reference(Reference(float(self.state.potd_g)))  # it lies there now
        away = self.work.ref is not None and self.work.ref.away
        self.pages.show(event_pages(events, self.seen, self.work.pan_count(), self.work.potd_pan(), away),
                        finale=finale)
        weighed = [e for e in events if e.kind == "weigh"]
        if weighed and self.work.scales() is not None:
            pan = flow.pan_names(self.table.scales)[0]
            self.work.become(TakingOff(jobs.take_off_after(weighed[-1].data["player"], pan, away,
                                                       self.work.ref, self.state.potd_g,
                                                       self.work.potd_pan())))
        self.work.sync()

    # -- the screen ------------------------------------------------------------------------------
    def end_view(self) -> View:
        return final_view(self.seen)

    def play_view(self) -> View:
        step, busy, pub = self.work.step(), self.work.busy, self.seen
        player = pub.waiting_for[0]
        station = self.has_station(player)
        if step is TurnStep.ROLLING:
            assert isinstance(busy, Rolling) and self.work.die.rolling is not None
            return rolling_view(busy.player, self.work.die.rolling)
        if step is TurnStep.TAKE_OFF:
            assert isinstance(busy, TakingOff)
            return take_off_view(busy.take_off, self.work.pan_count(), self.work.potd_pan())
        if step is TurnStep.WEIGHING:
            assert isinstance(busy, Weighing)
            return weigh_view(busy.weigher, station, self.work.pan_count(),
                              cancel=busy.weigher.job.kind == "weigh")
        if step is TurnStep.NO_SCALES:
            return View(_("No scales"), tuple(wrap(_("This box has no scales to weigh "
                                                     "with."))))
        if step is TurnStep.ROLL:
            return roll_view(pub, player, station, self.work.table_die, self.work.die.value)
        if step is TurnStep.MOVE:
            return move_view(pub, player, station, self.cursor, self._moves(player))
        return act_view(pub, player, station, self.cursor, self.legal(player))


__all__ = ["TanteTrudelsTroedelReferee"]
