"""The Settings mode: how the table wants the box to behave, kept in the journal.

NEXT moves between entries, OK changes the entry under the cursor (saved at once), BACK goes home.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..inputs import Press, Weight
from ..screens import View
from ..i18n import _
from ..settings_store import CHOICES, LANGUAGE_NAMES
from .base import ModeInfo


def _label(key: str) -> str:
    return {"pace": _("Pace"), "language": _("Language"), "sound": _("Sound"),
            "brightness": _("Light"), "sleep": _("Sleep")}[key]


def _show(key: str, value: str) -> str:
    if key == "language":
        return LANGUAGE_NAMES[value]
    if key == "pace":
        return {"ok": _("wait for OK"), "relaxed": _("relaxed"), "fast": _("fast")}[value]
    if key == "sleep":
        return _("never") if value == "never" else _("{n} min").format(n=value)
    return {"normal": _("normal"), "quiet": _("quiet"), "off": _("off"), "high": _("high"),
            "medium": _("medium"), "low": _("low")}[value]


class SettingsMode:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.cursor = 0

    def holds(self) -> frozenset[str]:
        return frozenset()

    def on_press(self, press: Press) -> bool:
        if press.station is not None:
            return True
        keys = list(CHOICES)
        if press.key == "back":
            return False
        if press.key == "next":
            self.cursor = (self.cursor + 1) % len(keys)
        elif press.key == "ok":
            key = keys[self.cursor]
            choices = CHOICES[key]
            now = getattr(self.app.settings, key)
            self.app.change_settings(replace(self.app.settings, **{
                key: choices[(choices.index(now) + 1) % len(choices)]}))
        return True

    def on_weight(self, weight: Weight) -> bool:
        return False

    def view(self) -> View:
        settings = self.app.settings
        lines = tuple(f"{_label(k)}: {_show(k, getattr(settings, k))}" for k in CHOICES)
        return View(_("Settings"), lines, cursor=self.cursor, footer=_("NEXT move  OK change"))

    def private(self) -> bool:
        return False

    def close(self) -> None:
        pass


MODE = ModeInfo("settings", "Settings", open=SettingsMode)
