""""How it works" for the learning station: a few pages a child can read, opened from the
quiz menu (the station is a tool, not a game with rules to set up). Each page is one idea: a
big word and one short line; OK turns the page, BACK leaves."""

from __future__ import annotations

from ...i18n import _
from ...screen.render import View
from .screens import STAR


def pages() -> list[View]:
    parts = [
        (_("THINGS"), _("Put toys or fruit on")),
        ("A B C", _("Press to answer")),
        (" ".join(STAR * 3), _("Right ones earn stars")),
        ("OK", _("Wrong? OK tries again")),
        ("NEXT", _("shows the answer")),
        ("B", _("big or small steps")),
    ]
    last = len(parts) - 1
    return [View("", (line,), big=big, footer=_("OK back") if n == last else _("OK next"))
            for n, (big, line) in enumerate(parts)]
