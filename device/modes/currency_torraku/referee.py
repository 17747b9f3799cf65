"""Currency Torraku at the table: bids at the stations, the stack standing on a pan (C1-C4).

Bidding: a page says once, before the first bid, what the keys do (a station key also turns it).
The bidder's station shows their choice big; A lowers it, C raises it, B bids it and a long B
passes (C2; the engine refuses the opener's pass, and the screen says so). A first bid above
one's pieces shows how many to take from the bag. Seats without a station bid at the host panel
(NEXT changes, OK bids; "pass" is the last choice). Host NEXT shows every bid and the bag.
Every refused press says why; the end shows the standings, then the winner with the win sound.

Stacking: the stack stands on one pan (set-up option ``pan``, default the first configured). A
``StackWatcher`` (drivers/weighing/stack.py) turns settled changes that hold into steps: a rise of
one piece is ``place`` for the player whose turn it is (with the kind when the learned weights tell
the kinds apart), a fall is ``collapse`` while there is a stack (afterwards, and after the round,
the table clearing the pan changes nothing). Hands, wobble and a piece lifted and put back settle
back or never settle. A piece dropped on the table is ``drop``: A at the player's station or the
host panel. The host panel declares anything at any time (OK, NEXT, OK) and a long BACK undoes:
the table has the last word, and the screen then says what to put back (pieces from the row,
into the bag, off or onto the stack) and waits for OK while the pan is ignored. The piece
weights are learned once per set (three of each kind, kept in the journal's notes) before the
first game, or again when set-up asks for it.
"""

from __future__ import annotations

from typing import Any

from ....drivers.weighing.stack import StackStep
from ....games.core import Event
from ....games.currency_torraku import CurrencyTorraku
from ...i18n import N_, _
from ...inputs import Weight
from ...screen.render import View
from ...session import Session
from ..base import Page, Referee, Table
from ....games.core import Option
from .pan import LEARN_EACH, StackPan
from .public import Public
from .screens import (bid_view, bids_view, declare_label, declare_view, event_pages, final_view,
                      keys_view, learn_view, learned_view, overview_pages, rows_view,
                      stack_view, undo_view)


class CurrencyTorrakuReferee(Referee[CurrencyTorraku]):
    TABLE_OPTIONS = (
        # None: the first pan the config names
        Option("pan", None, N_("Stack on pan"), (None, "left", "right"),
               (N_("usual"), N_("left"), N_("right")),
               (N_("the box's first pan"), N_("the stack goes here"), N_("the stack goes here"))),
        Option("learn", False, N_("Piece weights"), (False, True),
               (N_("if needed"), N_("weigh anew")),
               (N_("each kind once, kept"), N_("each kind once more"))),
    )
    STATION_HOLDS = frozenset({"B"})

    def __init__(self, table: Table, session: Session) -> None:
        super().__init__(table, session)
        self.choice: Any = None          # the bidder's count, or "pass" at the host panel
        self.cursor = 0                  # the host's declare menu
        self.declaring = False
        self.overview: int | None = None  # the bids/rows screen's page, else None
        self._from_pan = False           # the action being applied is the pan's
        self._auto: int | None = None    # the actions count right after the pan's own action
        self._seen = list(session.actions)  # the actions as last applied (to name an undone one)
        self._pan_undo = False           # the pan is taking its own step back
        self.putback: View | None = None  # after an undo: what the table puts back (OK: done)
        self.pan = StackPan(table, session.header.table.get("pan"), self._step)
        if self.pan.name and not session.actions and (
                self.pan.units is None or session.header.table.get("learn")):
            self.pan.start_learning()
        self._show_keys()

    def _show_keys(self) -> None:
        """Before the first bid of a game, once: what the station keys do (a station key both
        turns this page and acts)."""
        state = self.state
        if not self.stage and not self.session.actions and state.phase == "bid" and any(
                self.has_station(p) for p in state.players):
            self.pages.show([Page(keys_view(), minor=True)])

    @property
    def seen(self) -> Public:
        """The game as the table sees it: what the screens read."""
        return self.public_as(Public)

    @property
    def stage(self) -> str:
        """"learn" (weighing the set), "learned" (its weights shown) or "" (playing)."""
        if self.pan.samples is None:
            return ""
        return "learn" if self.pan.learning_kind() else "learned"

    # -- the pan ---------------------------------------------------------------------------------
    def on_weight(self, weight: Weight) -> bool:
        return self.pan.on_weight(weight)

    def _step(self, step: StackStep) -> None:
        """A settled change on the pan that held: place, collapse, take back, or ask the host."""
        state = self.state
        if self.stage or self.putback or state.phase != "stack":
            return  # the pan is cleared after the round, or while the learned weights show, or
            #         the table is putting pieces back after an undo
        player = state.turn()
        assert player is not None
        legal = self.legal(player)
        if step.kind == "back":
            self._taken_back()
        elif step.kind == "odd":  # two pieces at once, or a hand resting very still
            self.refuse(_("More than one piece?"), _("Put on one at a time."))
        elif step.kind == "rise" or {"type": "collapse", "player": player} in legal:
            action = {"type": "place" if step.kind == "rise" else "collapse", "player": player}
            if step.piece and {**action, "piece": step.piece} in legal:
                action["piece"] = step.piece
            self._from_pan = True
            try:
                events = self.act(action)
            finally:
                self._from_pan = False
            self._auto = len(self.session.actions) if events is not None else None
        else:
            self._auto = None  # the table clears the pan: that fall stands

    def _taken_back(self) -> None:
        """The pan's level came back to what it was before its last step: a lifted piece put
        back (no collapse), or a piece that slid off as it was set down (place it again). The
        pan's own action is undone, if nothing happened since."""
        actions = self.session.actions
        if self._auto is None or self._auto != len(actions):
            return
        self._auto = None
        kind = actions[-1].get("type")
        self._pan_undo = True
        try:
            undone = self.table.undo()
        finally:
            self._pan_undo = False
        if undone is not None:
            self.table.flash(*((_("Put back in time:"), _("no collapse")) if kind == "collapse"
                               else (_("The piece came off:"), _("place it again"))))

    # -- presses ---------------------------------------------------------------------------------
    def _counts(self, player: str) -> list[int]:
        """The bids ``player`` may make now (C2), lowest first: the engine's."""
        return self.legal_values(player, "bid", "count")

    def _may_pass(self, player: str) -> bool:
        return bool(self.legal_of(player, "pass"))

    def _choice(self, player: str) -> int | None:
        counts = self._counts(player)
        if not counts:
            return None
        if self.choice not in counts:
            self.choice = counts[0]
        return self.choice

    def on_station(self, station: int, key: str) -> None:
        self._station(station, key, hold=False)

    def on_station_hold(self, station: int, key: str) -> None:
        """A long B: pass (the base routes it here, as STATION_HOLDS says)."""
        self._station(station, key, hold=True)

    def _station(self, station: int, key: str, hold: bool) -> None:
        player = self.station_player(station)
        state = self.state
        if player is None:
            return
        turn = self.turn_refusal(player)
        if self.stage and not state.is_over:
            self.refuse(_("Weighing the pieces:"), _("put them on the pan"))
        elif self.putback and not state.is_over:
            self.refuse(_("First put back,"), _("then OK at the box"))
        elif turn is not None:
            self.refuse(*turn)
        elif self.pages and not self.pages.all_minor():
            self.refuse(_("Wait: OK at the box"))
        else:
            self.pages.stop()
            if state.phase == "bid":
                self._station_bid(player, key, hold)
            else:
                self._station_stack(player, key)

    def _station_bid(self, player: str, key: str, hold: bool) -> None:
        pub = self.seen
        counts = self._counts(player)
        if key == "B" and hold:
            if self._may_pass(player):
                self.act({"type": "pass", "player": player})
            else:
                self.refuse(_("You start the round:"), _("bid at least 1"))
            return
        if not counts:
            self.refuse(_("No bid is possible:"), _("hold B to pass"))
            return
        choice = self._choice(player)
        assert choice is not None
        if key == "A":
            if choice == counts[0]:
                own = pub.seat[player].bid
                why = (_("the top bid is {n}").format(n=pub.highest)
                       if counts[0] == pub.highest and counts[0] > 1
                       else _("raise your own {n}").format(n=own) if own
                       else _("bid at least 1"))
                self.refuse(_("Lowest: {n},").format(n=counts[0]), why,
                             *((_("or hold B to pass"),) if self._may_pass(player) else ()))
            else:
                self.choice = choice - 1
        elif key == "C":
            if choice == counts[-1]:
                own = pub.seat[player].pieces
                reasons = ((_("you own {n}").format(n=own),) if counts[-1] <= own
                           else (_("the bag only helps"), _("to reach the top bid")))
                self.refuse(_("Highest: {n},").format(n=counts[-1]), *reasons)
            else:
                self.choice = choice + 1
        else:
            self.act({"type": "bid", "player": player, "count": choice})

    def _station_stack(self, player: str, key: str) -> None:
        if key == "A":
            self.pan.absorb()
            self.act({"type": "drop", "player": player})
        else:
            self.refuse(_("The pan sees your"), _("piece. A: it fell"), _("on the table"))

    def on_host(self, key: str) -> bool:
        state = self.state
        if self.pages:
            return self.pages.on_host(key)
        if self.putback:
            if key == "ok":
                self.putback = None
                self.pan.absorb()  # what stands on the pan now is the stack
                return True
            return key == "next"
        if state.is_over:
            return False
        if self.stage == "learn":
            if key == "ok":
                self.pan.end_learning()
                self.table.flash(_("Skipped: the box"), _("counts pieces only"))
                self._show_keys()
                return True
            return False
        if self.stage == "learned":
            if key == "ok" and self.pan.loaded():
                self.refuse(_("Take the pieces"), _("off the pan first"))
                return True
            if key == "ok":
                self.pan.end_learning()
                self._show_keys()
                return True
            return False
        if self.overview is not None:
            pages = overview_pages(self.seen)
            self.overview = self.overview + 1 if key == "next" and self.overview + 1 < pages \
                else None
            return True
        player = state.turn()
        assert player is not None
        if self.declaring:
            return self._host_declare(key, player)
        if state.phase == "bid" and not self.has_station(player):
            return self._host_bid(key, player)
        if key == "next":
            self.overview = 0
            return True
        if key == "ok" and state.phase == "stack":
            self.declaring, self.cursor = True, 0
            return True
        if key == "ok":  # a station player's bid is made at their station
            self.refuse(_("{p} bids with the").format(p=player), _("keys at their seat"))
            return True
        return False

    def _host_bid(self, key: str, player: str) -> bool:
        options: list[Any] = self._counts(player)
        if self._may_pass(player):
            options.append("pass")
        if self.choice not in options:
            self.choice = options[0]
        if key == "next":
            self.choice = options[(options.index(self.choice) + 1) % len(options)]
            return True
        if key == "ok":
            if self.choice == "pass":
                self.act({"type": "pass", "player": player})
            else:
                self.act({"type": "bid", "player": player, "count": self.choice})
            return True
        return False

    def _declarable(self, player: str) -> list[dict[str, Any]]:
        return self.legal(player)

    def _host_declare(self, key: str, player: str) -> bool:
        actions = self._declarable(player)
        if key == "next":
            self.cursor = (self.cursor + 1) % len(actions)
        elif key == "back":
            self.declaring = False
        elif key == "ok":
            self.declaring = False
            self.pan.absorb()
            self.act(actions[self.cursor % len(actions)])
        return True

    # -- applying --------------------------------------------------------------------------------
    def react(self, events: list[Event]) -> None:
        self.choice, self.cursor, self.declaring, self.overview = None, 0, False, None
        self.putback = None
        self._seen = list(self.session.actions)
        if not self._from_pan:
            self._auto = None
            self.pan.watcher.forget_last()  # a level coming back now is a new piece
        kinds = {e.kind for e in events}
        won = "winner" in kinds
        if "collapse" in kinds:
            self.table.beep("score")
        elif kinds & {"stacking", "round"}:
            self.table.beep("go")
        elif not won:
            self.table.beep("click")
        pages = event_pages(events, self.seen)
        if pages or won:
            self.pages.show(pages, finale="win" if won else None)  # with the winner's screen
        elif "drop" in kinds:
            self.table.flash(_("No penalty:"), _("place it again"))

    def after_undo(self) -> None:
        """Undo (the host's long BACK, or the pan taking its own step back): the pan's level
        now is the reference."""
        super().after_undo()
        self.choice, self.cursor, self.declaring, self.overview = None, 0, False, None
        self._auto = None
        self.pan.absorb()
        actions = self.session.actions
        undone = self._seen[len(actions)] if len(self._seen) > len(actions) \
            and self._seen[:len(actions)] == actions else None
        self.putback = None if self._pan_undo or undone is None \
            else undo_view(undone, self.seen)

    def says_what_to_put_back(self) -> bool:
        return bool(self.pages) or self.putback is not None

    def resumed(self) -> None:
        self._seen = list(self.session.actions)
        self.pan.rebase(resumed=True)

    def close(self) -> None:
        super().close()
        self.pan.close()

    # -- the screen ------------------------------------------------------------------------------
    def view(self) -> View:
        state = self.state
        if self.pages:
            return self.pages.view()
        if self.putback:
            return self.putback
        if state.is_over:
            return final_view(self.seen)
        if self.stage == "learn":
            kind = self.pan.learning_kind()
            assert kind is not None and self.pan.samples is not None
            return learn_view(kind, len(self.pan.samples[kind]), LEARN_EACH)
        if self.stage == "learned":
            units = self.pan.units
            assert units is not None
            return learned_view(dict(units.mean), units.distinct)
        player = state.turn()
        assert player is not None
        if self.overview is not None:
            return bids_view(self.seen, self.overview) if state.phase == "bid" \
                else rows_view(self.seen, self.overview)
        if self.declaring:
            labels = [declare_label(a) for a in self._declarable(player)]
            return declare_view(labels, self.cursor % len(labels), player)
        station = self.has_station(player)
        if state.phase == "bid":
            choice = None if self.choice == "pass" else self._choice(player)
            return bid_view(self.seen, player, choice, station, choice is None)
        hint = _("clear the pan first") if not state.stack and self.pan.leftover() else ""
        return stack_view(self.seen, station, hint)
