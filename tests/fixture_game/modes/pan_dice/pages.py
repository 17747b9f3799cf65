"""What Pan Dice's events look like: one page an event, the number that matters big."""

from __future__ import annotations

from typing import Any

from ...i18n import _
from ..base import Page, Referee
from ..base.play import event_page


def event_pages(events: list[Any]) -> list[Page]:
    pages = []
    for event in events:
        data = event.data
        if event.kind == "aim":
            pages.append(event_page(_("Aim: {g} g").format(g=data["target_g"])))
        elif event.kind in ("hit", "miss"):
            pages.append(event_page(_("Hit!") if event.kind == "hit" else _("Missed"),
                                    big=f"{data['grams']:g} g"))
    return pages


class PanDiceReferee(Referee):
    """Nothing of the flow is Pan Dice's own: only its pages."""

    def event_pages(self, events: list[Any]) -> list[Page]:
        return event_pages(events)
