"""What the table is told about the journal: short lines for the OLED (the details go to the
log)."""

from __future__ import annotations

import logging
from typing import Any, Iterable

from ..i18n import _, ngettext

log = logging.getLogger(__name__)


def recovered_lines(salvaged: Any) -> list[str]:
    """What a restore got back from the damaged file and what it could not: games, moves and
    corrections made after the game, each said (losses first), so a lost correction is never
    silent."""
    if salvaged is None:
        return []
    lines = []  # what was lost first, then corrections: the screen shows the first lines
    if salvaged.unreadable:
        lines.append(_("Newer changes lost"))
    else:
        if "corrections" in salvaged.lost:
            lines.append(_("Some corrections lost"))
        if "games" in salvaged.lost or "actions" in salvaged.lost:
            lines.append(_("Some moves lost"))
    if salvaged.corrections:
        lines.append(ngettext("{n} correction recovered", "{n} corrections recovered",
                              salvaged.corrections).format(n=salvaged.corrections))
    if salvaged.games:
        lines.append(ngettext("{n} game recovered", "{n} games recovered",
                              salvaged.games).format(n=salvaged.games))
    if salvaged.actions:
        lines.append(ngettext("{n} move recovered", "{n} moves recovered",
                              salvaged.actions).format(n=salvaged.actions))
    return lines


def notice_lines(notices: Iterable[Any]) -> list[str]:
    """A damaged game set aside (kept), a damaged file moved aside or restored, changes lost, a
    calibration unusable, the journal not writable: each as a line or two a family understands."""
    notices = list(notices)
    restored = any(n.kind == "restored" for n in notices)
    lines: list[str] = []
    for notice in notices:
        log.warning("journal: %s", notice.text)
        if notice.kind == "set-aside":
            lines.append(_("Game {n} set aside").format(n=notice.game_id))
        elif notice.kind == "moved-aside":  # restored: what came back matters more (3 lines)
            lines += [_("Saved games damaged:")] if restored else [
                _("Saved games damaged:"), _("kept aside, new start")]
        elif notice.kind == "restored":
            lines.append(_("Restored from backup") if notice.reason != "salvage"
                         else _("Saved games recovered"))
            lines += recovered_lines(getattr(notice, "recovered", None))
        elif notice.kind == "lost":
            if notice.count:
                lines.append(ngettext("{n} saved change lost", "{n} saved changes lost",
                                      notice.count).format(n=notice.count))
            else:
                lines.append(_("Recent moves lost"))
        elif notice.kind == "calibration":
            lines.append(_("{pan}: uncalibrated").format(pan=notice.pan))
        elif notice.kind == "degraded":
            lines.append(_("Saving is off!"))
        elif notice.kind == "not-saving":
            lines.append(_("Not saving!"))
        elif notice.kind == "rewritten":
            lines.append(_("Journal written anew"))
    return lines
