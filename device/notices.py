"""What the table is told once at start about the journal: short lines for the OLED (the details
go to the log)."""

from __future__ import annotations

import logging
from typing import Any, Iterable

from .i18n import _

log = logging.getLogger(__name__)


def notice_lines(notices: Iterable[Any]) -> list[str]:
    """A damaged game set aside (kept), a damaged file moved aside, a calibration unusable, the
    journal not writable: each as a line or two a family understands."""
    lines: list[str] = []
    for notice in notices:
        log.warning("journal: %s", notice.text)
        if notice.kind == "set-aside":
            lines.append(_("Game {n} set aside").format(n=notice.game_id))
        elif notice.kind == "moved-aside":
            lines += [_("Saved games damaged:"), _("kept aside, new start")]
        elif notice.kind == "calibration":
            lines.append(_("{pan}: uncalibrated").format(pan=notice.pan))
        elif notice.kind == "degraded":
            lines.append(_("Saving is off!"))
    return lines
