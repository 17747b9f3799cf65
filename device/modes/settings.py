"""The Settings mode: how the table wants the box to behave, kept in the journal.

NEXT moves between entries, OK changes the entry under the cursor (saved at once), BACK goes home.
The last entry clears one child's learning history, after a question that names the child: it is
a parent's or teacher's job, so it lives here and not in the learning station.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..history import History
from ..i18n import N_, _
from ..inputs import Press, Weight
from ..journal import JournalError
from ..screens import View
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
        self.children: list[str] | None = None  # clearing: the children with a history
        self.confirm: str | None = None          # clearing: the child asked about

    def holds(self) -> frozenset[str]:
        return frozenset()

    def on_press(self, press: Press) -> bool:
        if press.station is not None:
            return True
        if self.confirm is not None:
            return self._confirm_key(press.key)
        if self.children is not None:
            return self._child_key(press.key)
        keys = list(CHOICES)
        if press.key == "back":
            return False
        if press.key == "next":
            self.cursor = (self.cursor + 1) % (len(keys) + 1)
        elif press.key == "ok" and self.cursor == len(keys):
            self.children, self.cursor = History(self.app.journal).children(), 0
        elif press.key == "ok":
            key = keys[self.cursor]
            choices = CHOICES[key]
            now = getattr(self.app.settings, key)
            self.app.change_settings(replace(self.app.settings, **{
                key: choices[(choices.index(now) + 1) % len(choices)]}))
        return True

    def _child_key(self, key: str) -> bool:
        assert self.children is not None
        if key == "back" or not self.children:
            self.children, self.cursor = None, len(CHOICES)
        elif key == "next":
            self.cursor = (self.cursor + 1) % len(self.children)
        elif key == "ok":
            self.confirm = self.children[self.cursor]
        return True

    def _confirm_key(self, key: str) -> bool:
        child, self.confirm = self.confirm, None
        if key == "ok" and child is not None:
            try:
                count = History(self.app.journal).clear(child)
            except JournalError:
                self.app.flash(_("Cannot save!"), _("Nothing cleared."))
                return True
            self.app.flash(_("{child}: {n} answers").format(child=child, n=count), _("cleared"))
            self.children, self.cursor = None, len(CHOICES)
        return True

    def on_weight(self, weight: Weight) -> bool:
        return False

    def view(self) -> View:
        if self.confirm is not None:
            return View(_("Clear history?"), (_("All answers of"), f"{self.confirm}?"),
                        big=None, footer=_("OK clear  BACK keep"))
        if self.children is not None:
            if not self.children:
                return View(_("Clear history"), (_("No child has"), _("answers yet.")),
                            footer=_("BACK back"))
            return View(_("Whose history?"), tuple(self.children), cursor=self.cursor,
                        footer=_("NEXT move  OK choose"))
        settings = self.app.settings
        lines = tuple(f"{_label(k)}: {_show(k, getattr(settings, k))}" for k in CHOICES)
        return View(_("Settings"), lines + (_("Clear history"),), cursor=self.cursor,
                    footer=_("NEXT move  OK change"))

    def private(self) -> bool:
        return False

    def close(self) -> None:
        pass


MODE = ModeInfo("settings", N_("Settings"), open=SettingsMode)
