"""How one referee plays any game: it asks the engine what the player it waits for needs
(``games.core.need``) and asks the table for it with the shared controllers: a choice on the
``ActionMenu``, a die on the ``Die``, a weight on the ``Weigher``. A game whose flow is its own
(a countdown, a circle to walk) overrides the parts that differ; a new game needs none of it.

At a station: A and C move, B picks, rolls, enters or weighs. At the host panel (a player
without a station): NEXT moves or steps the die, OK picks; BACK opens the game menu.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....games.core import Need, need
from ...i18n import _, decimal, ngettext
from ...inputs import Weight
from ...screen.render import View, first_fit
from .controllers import ActionMenu, Die, Weigher, pan_for
from .pages import Page

if TYPE_CHECKING:
    from .referee import Referee


class Play:
    """The controllers of one game's referee and the steps that drive them."""

    def __init__(self, referee: "Referee") -> None:
        self.referee = referee
        info = referee.info
        self.menu = ActionMenu([], referee.label)
        chance = next(iter(info.chance.values()), None)
        self.die = Die(referee.table, chance) if chance is not None else None
        if self.die is not None:
            self.die.box_rolls = referee.session.header.table.get("die", "box") != "table"
        measurement = next(iter(info.measurements.values()), None)
        pans = referee.pans()
        self.weigher = Weigher(pan_for(pans, measurement.role if measurement else "",
                                       referee.session.header.table.get("pan")),
                               measurement) if measurement is not None else None
        scales = referee.table.scales
        if self.weigher is not None and scales is not None:
            self.weigher.on_weight(scales.news())  # the pan as it is: it may stay quiet

    # -- what is asked of whom ---------------------------------------------------------------------
    def need(self, player: str) -> Need:
        n = need(self.referee.info, self.referee.state, player)
        if n.kind == "choice":
            self.menu.offer(list(n.actions))
        return n

    def asked(self) -> str | None:
        """The player the screen asks (the first the game waits for), or None when over."""
        waiting = self.referee.state.waiting_for()
        return waiting[0] if waiting else None

    # -- keys ----------------------------------------------------------------------------------------
    def key(self, player: str, key: str, station: bool) -> None:
        """A key of ``player``'s (at their station: A/B/C; at the host panel: NEXT/OK)."""
        referee = self.referee
        if self.die is not None and self.die.rolling is not None:
            referee.refuse(_("The die is rolling"))
            return
        n = self.need(player)
        if n.kind == "nothing":
            referee.refuse(*self.not_now(player))
            return
        back, forward, pick = ("A", "C", "B") if station else ("", "next", "ok")
        if n.kind == "choice":
            if key in (back, forward):
                self.menu.move(-1 if key == back else 1)
            elif key == pick:
                referee.act(self.menu.picked())
        elif n.kind == "chance":
            self._chance(n, key, back, forward, pick)
        elif n.kind == "measurement":
            self._measure(n, key, pick)

    def _chance(self, n: Need, key: str, back: str, forward: str, pick: str) -> None:
        die, action = self.die, n.action
        assert die is not None and action is not None and n.chance is not None
        field = n.chance.field
        if not die.box_rolls and key in (back, forward):
            die.step(-1 if key == back else 1)
        elif not die.box_rolls and key == pick:
            self.referee.act({**action, field: die.value})
        elif key == pick:
            state = self.referee.state
            die.roll(lambda: state.draw(action["type"]),
                     lambda value: self.referee.act({**action, field: value}))
        else:
            self.referee.refuse(_("B rolls the die") if back else _("OK rolls the die"))

    def _measure(self, n: Need, key: str, pick: str) -> None:
        weigher, action = self.weigher, n.action
        assert weigher is not None and action is not None and n.measurement is not None
        if key != pick:
            self.referee.refuse(_("Items on? Press B.") if pick == "B"
                                else _("Items on? Press OK."))
            return
        why = weigher.wait()
        grams = weigher.grams()
        if why is not None or grams is None:
            self.referee.refuse(why or _("Still wobbling..."))
            return
        self.referee.act({**action, n.measurement.field: grams})

    def not_now(self, player: str) -> tuple[str, ...]:
        """Why ``player``'s key does nothing now."""
        return self.referee.turn_refusal(player) or (_("Nothing happens"),)

    def on_weight(self, weight: Weight) -> bool:
        return self.weigher is not None and self.weigher.on_weight(weight)

    def weighs(self) -> bool:
        """The game asks for a measurement now."""
        player = self.asked()
        return self.weigher is not None and player is not None and \
            need(self.referee.info, self.referee.state, player).kind == "measurement"

    # -- the screen ----------------------------------------------------------------------------------
    def view(self) -> View:
        referee = self.referee
        player = self.asked()
        if player is None:
            return View(_("Game over"))
        station = referee.has_station(player)
        title = first_fit(_("{name}'s turn").format(name=player), player)
        n = self.need(player)
        if self.die is not None and self.die.rolling is not None:
            return View(first_fit(_("{name} rolls").format(name=player), _("Rolling...")),
                        big="." * (self.die.rolling % 3 + 1))
        if n.kind == "choice":
            return View(title, self.menu.lines(), cursor=self.menu.cursor,
                        footer=_("A/C choose  B: go") if station else _("NEXT move  OK go"))
        if n.kind == "chance":
            assert self.die is not None
            if self.die.box_rolls:
                return View(title, (referee.label(n.action or {}),), big="?",
                            footer=_("B: roll the die") if station else _("OK: roll the die"))
            return View(title, (_("What did you roll?"),), big=str(self.die.value),
                        footer=_("A less  C more  B ok") if station else _("NEXT +1  OK enter"))
        if n.kind == "measurement":
            return self._measure_view(title, station)
        return View(title)

    def _measure_view(self, title: str, station: bool) -> View:
        weigher = self.weigher
        assert weigher is not None
        grams = weigher.grams()
        decimals = weigher.measurement.decimals if weigher.measurement is not None else 1
        shown = "..." if grams is None else f"{decimal(grams, decimals)} g"  # never "-0 g"
        where = (_("On the pan") if weigher.pan is None else
                 _("Onto the {pan} pan").format(pan=_(weigher.pan)))
        return View(title, (where,), big=shown,
                    footer=_("Items on? Press B.") if station else
                    _("Items on? Press OK."))

    def end_view(self) -> View:
        state = self.referee.state
        winners = state.winners()
        if len(winners) == 1:
            return View(_("The winner is"), big=winners[0], footer=_("OK: menu"))
        if winners:
            return View(_("Shared win!"), tuple(self.referee.names(winners)), footer=_("OK: menu"))
        return View(_("Nobody wins"), footer=_("OK: menu"))

    def close(self) -> None:
        if self.die is not None:
            self.die.stop()


def event_page(text: str, big: str | None = None) -> Page:
    """A page that says what an action did: one line, the thing that matters big."""
    return Page(View(text, big=big))


__all__ = ["Play", "event_page", "ngettext"]
