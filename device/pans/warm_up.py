"""The warm-up notice: after power-on, until the pans' zeros are steady, a screen where weighing
matters says so ("Scales warming up"). It only says: the table may still play,
nothing waits for it and nothing is refused.

Load cells and the HX711 drift for about 10 minutes after power-on (``drivers.weighing.zero``:
``WarmUp`` watches each pan's tracked zero and ``PanSnapshot.warming`` reports it); the notice
goes once a pan's zero has held within 0.05 g over 2 minutes of empty pan, so it shows for 12 to
15 minutes (15 at most, ``WarmUpSettings``). This is the one place that puts the notice on a
screen: ``App.redraw`` passes every view through
``Notice.mark`` (``with_notice``, and a look again every ``CHECK_S`` while the notice shows,
so it goes when the zeros are steady even if nothing else changes on the screen). A screen
weighs when it says so (``weighs()``: the learning station in a quiz, the Scale tool) or, for
a game, while its referee runs a weighing (its ``weighs()``). The screen's own parts are never changed: the notice is
``View.notice`` on a row of its own under the title (``View.notice_at`` "row"), only where the
body keeps every line and the big word its size. It never takes a title's place nor sits beside
one, and a screen without a title (a verdict, an instruction) has none: there it would read as
the screen's own first words. Where no row is free the screens before and after show it; the
Scale tool says the same words as its title (``notice_text``: one wording for the state).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable

from ..i18n import _
from ..screen.render import View, layout, misfits

if TYPE_CHECKING:
    from .scales import TableScales


CHECK_S = 2.0


def notice_text() -> str:
    """The one wording of the state: the scales (not the players) warm up."""
    return _("Scales warming up")


def weighs(screen: Any) -> bool:
    """Whether ``screen`` (a screen of the App's stack) is one where weighing matters now."""
    for part in (getattr(screen, "mode", None), getattr(screen, "referee", None)):
        ask = getattr(part, "weighs", None)
        if callable(ask) and ask():
            return True
    return False


def warming(scales: "TableScales | None") -> bool:
    """Whether any configured pan is still warming up (False without pans)."""
    if scales is None:
        return False
    try:
        return any(shot.warming for shot in scales.snapshots().values())
    except (AttributeError, KeyError):
        return False


def places(view: View) -> list[View]:
    """``view`` with the notice in the place it may go: a row of its own under a title, in
    brackets, an aside of the box's and not the screen's first line."""
    if not view.title:
        return []
    return [replace(view, notice=f"({notice_text()})", notice_at="row")]


def keeps(marked: View, view: View) -> bool:
    """Whether ``marked`` shows all of ``view`` as ``view`` shows it: nothing clipped, the big
    word in its size, every line it showed still on the screen."""
    was, now = layout(view), layout(marked)
    return not misfits(marked) and now.size == was.size and \
        min(now.room, len(view.lines)) == min(was.room, len(view.lines))


def with_notice(view: View, screen: Any, scales: "TableScales | None") -> View:
    """``view`` with the warm-up notice when ``screen`` weighs and a pan warms up, in the best
    place that keeps the screen's own parts as they are; else as is."""
    if view.blank or view.notice or not weighs(screen) or not warming(scales):
        return view
    return next((marked for marked in places(view) if keeps(marked, view)), view)


class Notice:
    """The App's warm-up notice: marks views, and while one is marked asks the loop to redraw
    again after ``CHECK_S`` (its timer fires and the loop redraws)."""

    def __init__(self, call_later: Callable[[float, Callable[[], None]], Any]) -> None:
        self.call_later = call_later
        self._timer: Any = None

    def mark(self, view: View, screen: Any, scales: "TableScales | None") -> View:
        marked = with_notice(view, screen, scales)
        if marked.notice and self._timer is None:
            self._timer = self.call_later(CHECK_S, self._again)
        return marked

    def _again(self) -> None:
        self._timer = None  # the loop redraws after a timer: ``mark`` looks again


__all__ = ["CHECK_S", "Notice", "keeps", "notice_text", "places", "warming",
           "weighs", "with_notice"]
