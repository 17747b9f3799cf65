"""Seats and stations: who sits at a station, and the hot seat (more seats than stations: a
private choice at the host panel, the box handed over on a privacy screen)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ...i18n import _
from ...screen.render import WIDTH, View, big_width
from .table import Table


# -- seats ---------------------------------------------------------------------------------------
def seat_player(table: Table, players: Sequence[str], station: int) -> str | None:
    """The player whose seat is wired to ``station`` (None: nobody sits there this game)."""
    for seat, name in enumerate(players):
        if table.station_of(seat) == station:
            return name
    return None


def handover_view(player: str) -> View:
    """The box goes to a player without a station (the name large); the others look away."""
    look = _("Others: look away!")
    if big_width(player) <= WIDTH:
        return View(_("Pass the box to"), (look,), big=player,
                    footer=_("OK open  BACK cancel"))
    return View(_("Pass the box to"), (player, look), footer=_("OK open  BACK cancel"))


@dataclass
class HotSeat:
    """More seats than stations: a player without a station makes a private choice at the host
    panel. The box is handed over on a privacy screen, the choice is made on a menu only that
    player sees, then the screen goes blank before the next player takes the box."""

    player: str | None = None
    stage: str = ""        # "", "privacy", "pick" or "done"
    cursor: int = 0
    index: int = 0         # which waiting player OK calls up next

    def reset(self) -> None:
        self.player, self.stage = None, ""

    def private(self) -> bool:
        return self.stage == "pick"

    def on_host(self, key: str, waiting: Sequence[str], options: Callable[[str], Sequence[Any]],
                choose: Callable[[str, Any], None]) -> bool:
        """Drive the hand-over with the host keys; ``choose(player, option)`` plays the pick."""
        if self.stage == "":
            if not waiting:
                return False
            if key == "next":
                self.index = (self.index + 1) % len(waiting)
            elif key == "ok":
                self.player = waiting[self.index % len(waiting)]
                self.stage, self.cursor = "privacy", 0
            else:
                return False
            return True
        if self.stage == "privacy":
            if key == "ok":
                self.stage = "pick"
            elif key == "back":
                self.reset()
            return True
        if self.stage == "pick":
            assert self.player is not None
            choices = options(self.player)
            if key == "next":
                self.cursor = (self.cursor + 1) % len(choices)
            elif key == "back":
                self.stage = "privacy"
            elif key == "ok":
                player, pick = self.player, choices[self.cursor % len(choices)]
                self.stage, self.index = "done", 0
                choose(player, pick)
            return True
        if key in ("ok", "next"):  # "done": the blank screen between seats
            self.reset()
        return True

    def view(self, labels: Sequence[str]) -> View | None:
        """The hand-over's screen, or None when nobody is at the host panel."""
        if self.stage == "privacy":
            return handover_view(self.player or "")
        if self.stage == "pick":
            return View(_("{player} plays").format(player=self.player), tuple(labels),
                        cursor=self.cursor % len(labels), footer=_("NEXT move  OK play"))
        if self.stage == "done":
            return View(blank=True, footer=_("Card down. OK: go on"))
        return None
