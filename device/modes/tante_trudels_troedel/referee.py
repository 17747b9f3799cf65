"""Tante Trudels Trödel at the table: the die, the shop's turns and load cells for the balance.

Set-up: who makes the Purchase of the Day (TT2), who starts (TT3), the scales rows (TT1), the goal
(TT7) and the die: the box rolls it (a short buzzer roll, then the number big; the value comes
from the header's seed and the action count, so a resumed game rolls the same) or the table rolls
a real die and enters it (A/C step the number, B enters; NEXT/OK at the host panel).

The player on turn (or waited for) uses their station, A/C to move and B to pick; any seat may use
the host panel (NEXT/OK), which is how seats without a station play. The Purchase of the Day: three
rolls, each row named ("Row 6: take the item at the edge"), then its three items on the first pan
(with two pans they stay there; with one pan its weight is remembered). A turn: the roll, the move
(forward, or the choice of going back when TT4 allows it), then the short menu of what
``legal_actions`` allows, with Done. A weighing (``weighing.Weigher``) shows LIGHTER, HEAVIER or
BALANCED, never grams. At the end the baskets are weighed in arrival order, then the reveal shows
every gram figure, the baskets ranked, then the winner with the win sound. Every refused press
says why on the screen. An undo says what to put back on the table (the box only counts). A
scales-row weighing in progress is noted in the journal, so after a power cut the box goes back
to it rather than to the turn's menu (the Purchase's and the end's weighings follow from the
game's state anyway).
"""

from __future__ import annotations

import logging
from typing import Any

from ....games.core import Event
from ....games.tante_trudels_troedel import TanteTrudelsTroedel
from ...i18n import N_, _
from ...inputs import Weight
from ...journal_file import JournalError
from ...screens import View, wrap
from ...session import Session
from ..base import Referee, Table
from ....games.core import Option
from .pages import event_pages, final_view, undo_pages
from .screens import (act_view, move_view, off_pan, refusal_lines, roll_view, rolling_view,
                      take_off_view, weigh_view)
from .weighing import BASKET_HOLD_S, POTD_HOLD_S, Job, TakeOff, Weigher

log = logging.getLogger(__name__)

ROLL_TICKS = 4       # the buzzer's roll: this many ticks ...
ROLL_TICK_S = 0.1    # ... this far apart, then the number
OK_KEYS = ("B", "ok")
NEXT_KEYS = ("C", "next")
WEIGH_NOTE = "tante-trudels-troedel-weighing"  # journal note: {"game": id, "at": count or None}
RESHOWN = ("weigh", "potd_row")  # news no later screen repeats: shown again after a power cut


class TanteTrudelsTroedelReferee(Referee[TanteTrudelsTroedel]):
    TABLE_OPTIONS = (
        Option("die", "box", N_("Die"), ("box", "table"), (N_("box rolls"), N_("real die")),
               (N_("the box rolls for you"), N_("you roll, enter it"))),
    )

    def __init__(self, table: Table, session: Session) -> None:
        super().__init__(table, session)
        self.cursor = 0                          # the move choice or the menu line
        self.die = 1                             # the value entered for a real die
        self.rolling: tuple[str, int, int] | None = None  # (player, value, tick) of the box's roll
        self._roll_timer: Any = None
        self.weigh_at: int | None = None         # a scales-row weighing chosen at this count
        self._noted: int | None = None           # the weigh_at the journal holds
        self.weigher: Weigher | None = None
        self.take_off: TakeOff | None = None     # a scales-row basket still on its pan
        self._last = self._last_action()  # what an undo takes back
        self._sync()

    # -- helpers ---------------------------------------------------------------------------------
    @property
    def table_die(self) -> bool:
        return self.session.header.table.get("die") == "table"

    def scales(self) -> Any:
        """The App's ``Scales`` (None on a box without load cells)."""
        scales = self.table.scales
        return scales if scales is not None and scales.pans else None

    def pan_names(self) -> tuple[str, str | None]:
        """(the pan the items go on, the pan holding the Purchase or None with one pan)."""
        scales = self.scales()
        judged = scales.judged_pans() if scales is not None else None
        if judged is not None:
            return judged[1], judged[0]
        return (next(iter(scales.pans)) if scales else "left"), None

    def potd_pan(self) -> str:
        basket, ref = self.pan_names()
        return ref or basket

    def pan_count(self) -> int:
        scales = self.scales()
        return len(scales.pans) if scales else 0

    def _last_action(self) -> dict[str, Any] | None:
        actions = self.session.actions
        return dict(actions[-1]) if actions else None

    def _weigh_at(self, count: int | None) -> None:
        """Choose (or drop) a scales-row weighing and note it in the journal, so a power cut in
        the middle of it resumes to it. A journal that cannot be written only costs that."""
        self.weigh_at = count
        if count == self._noted:
            return
        try:
            self.table.journal.add_note(WEIGH_NOTE, {"game": self.session.game_id, "at": count})
            self._noted = count
        except JournalError as exc:
            log.error("the weighing could not be noted: %s", exc)

    def _purchase_waits(self) -> bool:
        """The Purchase of the Day waits to be weighed: the engine lists only that now."""
        return any(a["type"] == "weigh_potd" for a in self.legal(self.state.potd_maker))

    def _job(self) -> Job | None:
        """The weighing the game needs now, if any."""
        state, count = self.state, len(self.session.actions)
        basket, ref = self.pan_names()
        if self._purchase_waits():
            return Job("potd", state.potd_maker, self.potd_pan(), key=count)
        if state.phase == "weighing":
            player = state.waiting_for()[0]
            return Job("basket", player, basket, ref, state.potd_g, state.items[player], count)
        if state.phase == "play" and self.weigh_at == count and state.turn:
            return Job("weigh", state.turn, basket, ref, state.potd_g, state.items[state.turn],
                       count)
        return None

    def _sync(self) -> None:
        """Start (or stop) the weighing the game needs now."""
        job = self._job()
        if self.weigher is not None and self.weigher.job != job:
            self.weigher.stop()
            self.weigher = None
        scales = self.scales()
        if job is not None and self.weigher is None and scales is not None:
            hold_s = POTD_HOLD_S if job.kind == "potd" else BASKET_HOLD_S
            self.weigher = Weigher(job, scales, self.table, self._measured, hold_s)

    def _measured(self, grams: float) -> None:
        """The weigher's reading: the action that carries it."""
        assert self.weigher is not None
        job = self.weigher.job
        kind = {"potd": "weigh_potd", "weigh": "weigh", "basket": "weigh_basket"}[job.kind]
        self.weigher = None
        taken = self.act({"type": kind, "player": job.player, "grams": grams})
        if job.kind == "weigh":
            self._weigh_at(None)  # done (or refused: back to the menu)
        if taken is None:
            self._sync()

    # -- events from the App ---------------------------------------------------------------------
    def resumed(self) -> None:
        """After a power cut: the last action's news the table may have missed (a verdict, the
        Purchase's row) again, and back to a scales-row weighing that was under way."""
        self._last = self._last_action()
        missed = [e for e in self.session.last_events if e.kind in RESHOWN]
        self.pages.show(event_pages(missed, self.state, self.pan_count(),
                                    self.potd_pan()))
        notes = self.table.journal.notes(WEIGH_NOTE, 1)
        note = notes[0] if notes else {}
        count = len(self.session.actions)
        if not self.state.is_over and note.get("game") == self.session.game_id \
                and note.get("at") == count:
            self._noted = count
            if self.scales() is not None and any(
                    a["type"] == "weigh" for a in self.legal(self.state.waiting_for()[0])):
                self.weigh_at = count
        self._sync()

    def after_undo(self) -> None:
        """Undo: the box's count goes back; a page says what to put back on the table."""
        undone = self._last
        super().after_undo()
        self._stop_roll()
        self.cursor = 0
        self._weigh_at(None)
        self.take_off = None
        self._last = self._last_action()
        self.pages.show(undo_pages(undone, self.state, self.pan_count(), self.pan_names()[0],
                                   self.potd_pan()))
        self._sync()

    def close(self) -> None:
        super().close()
        self._stop_roll()
        if self.weigher is not None:
            self.weigher.stop()
            self.weigher = None

    def on_weight(self, weight: Weight) -> bool:
        scales = self.scales()
        if self.take_off is not None and weight.pan == self.take_off.pan:
            if scales is None or not self.take_off.waiting(scales):
                self.take_off = None
            return True
        if self.weigher is not None and weight.pan in self.weigher.pans:
            self.weigher.check()
            return True
        return False

    # -- presses ---------------------------------------------------------------------------------
    def on_station(self, station: int, key: str) -> None:
        player = self.seat_player(station)
        state = self.state
        if player is None:
            self.refuse(_("Nobody plays at"), self.table.station_name(station))
            return
        if state.is_over:
            self.refuse(_("The game is over"), _("OK on the box: next") if self.pages else
                         _("OK on the box: menu"))
            return
        waiting = state.waiting_for()
        if player not in waiting:
            self.refuse(_("It's {name}'s turn").format(name=waiting[0]))
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
        cancel = self.weigher is not None and self.weigher.job.kind == "weigh"
        if key == "back" and not cancel:
            return False  # the game menu
        self._key(state.waiting_for()[0], key, station=False)
        return True

    def _key(self, player: str, key: str, station: bool) -> None:
        state = self.state
        scales = self.scales()
        if self.take_off is not None and (scales is None or not self.take_off.waiting(scales)):
            self.take_off = None
        if self.take_off is not None:
            self.refuse(_("Take your items"), off_pan(self.take_off.pan, self.pan_count()))
        elif self.rolling is not None:
            self.refuse(_("The die is rolling"))
        elif self.weigher is not None:
            self._weigh_key(key, station)
        elif self._job() is not None or self._purchase_waits():
            self.refuse(_("This box has no"), _("scales to weigh on"))
        elif state.phase == "potd" or state.stage == "roll":
            self._roll_key(player, key, station)
        elif state.stage == "move":
            self._move_key(player, key, station)
        else:
            self._menu_key(player, key)

    def _roll_key(self, player: str, key: str, station: bool) -> None:
        if self.table_die:
            if key == "A":
                self.die = (self.die - 2) % 6 + 1
            elif key in NEXT_KEYS:
                self.die = self.die % 6 + 1
            elif key in OK_KEYS:
                self.act({"type": "roll", "player": player, "value": self.die})
            return
        if key not in OK_KEYS:
            self.refuse(_("B rolls the die") if station else _("OK rolls the die"))
            return
        value = self.state.draw("roll")  # the engine's own die (seeded)
        self.rolling = (player, value, 0)
        self._roll_tick()

    def _roll_tick(self) -> None:
        assert self.rolling is not None
        player, value, tick = self.rolling
        if tick < ROLL_TICKS:
            self.table.beep("tick")
            self.rolling = (player, value, tick + 1)
            self._roll_timer = self.table.call_later(ROLL_TICK_S, self._roll_tick)
            return
        self._stop_roll()
        self.act({"type": "roll", "player": player, "value": value})

    def _stop_roll(self) -> None:
        self.table.cancel(self._roll_timer)
        self._roll_timer, self.rolling = None, None

    def _moves(self, player: str) -> list[str]:
        return [a["direction"] for a in self.legal(player) if a["type"] == "move"]

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
        if self.scales() is None:
            self.refuse(_("This box has no"), _("scales to weigh on"))
            return
        self._weigh_at(len(self.session.actions))
        self._sync()

    def _weigh_key(self, key: str, station: bool) -> None:
        """A key during a weighing: "all on", cancel (a scales row), or why nothing happens."""
        weigher = self.weigher
        assert weigher is not None
        pans = self.pan_count()
        if weigher.job.kind == "weigh" and key in ("C", "back"):
            self._weigh_at(None)
            self._sync()
            return
        reason = weigher.all_on() if key in OK_KEYS else \
            "load" if weigher.stage == "load" else weigher.refusal()
        if reason is None:
            return
        self.refuse(*refusal_lines(reason, weigher.job, pans, station))

    # -- applying --------------------------------------------------------------------------------
    def react(self, events: list[Event]) -> None:
        """What follows an accepted action (here or from the link): the buzzer, the pages; at
        the end the win sound waits for the winner's screen."""
        self.cursor, self.die = 0, 1
        self._last = self._last_action()
        kinds = {e.kind for e in events}
        finale = None
        if "winner" in kinds:
            self.table.beep("score")
            finale = "win" if self.state.winners() else None
        elif kinds & {"weigh", "potd_weighed", "basket_weighed", "weighing"}:
            self.table.beep("score")
        else:
            self.table.beep("click")
        self.pages.show(event_pages(events, self.state, self.pan_count(),
                                    self.potd_pan()), finale=finale)
        weighed = [e for e in events if e.kind == "weigh"]
        if weighed and self.scales() is not None:
            self.take_off = TakeOff(weighed[-1].data["player"], self.pan_names()[0])
        self._sync()

    # -- the screen ------------------------------------------------------------------------------
    def end_view(self) -> View:
        return final_view(self.state)

    def play_view(self) -> View:
        state = self.state
        if self.rolling is not None:
            return rolling_view(self.rolling[0], self.rolling[2])
        player = state.waiting_for()[0]
        station = self.has_station(player)
        scales = self.scales()
        if self.take_off is not None and scales is not None and self.take_off.waiting(scales):
            return take_off_view(self.take_off.player, self.take_off.pan, self.pan_count())
        if self.weigher is not None:
            return weigh_view(self.weigher, station, self.pan_count(),
                              cancel=self.weigher.job.kind == "weigh")
        if self._job() is not None or self._purchase_waits():
            return View(_("No scales"), tuple(wrap(_("This box has no scales to weigh "
                                                     "with."))))
        if state.phase == "potd" or state.stage == "roll":
            return roll_view(state, player, station, self.table_die, self.die)
        if state.stage == "move":
            return move_view(state, player, station, self.cursor, self._moves(player))
        return act_view(state, player, station, self.cursor, self.legal(player))


__all__ = ["TanteTrudelsTroedelReferee"]
