"""The Settings mode: how the table wants the box to behave, kept in the journal.

NEXT moves between entries, OK changes the entry under the cursor (saved at once), BACK goes home.
"Players" keeps the roster of names (a new one on the letter wheel, one removed after a question).
The last entry clears one child's learning history, after a question that names the child: it is
a parent's or teacher's job, so it lives here and not in the learning station.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..journal.learning import History
from ..i18n import N_, _
from ..inputs import Press
from ..journal.store import JournalError
from ..journal.roster import Roster
from ..screen.render import View
from ..journal.settings import CHOICES, LANGUAGE_NAMES
from .base import HostTool, ModeInfo
from .names import RosterScreen

if TYPE_CHECKING:
    from ..ui.screen import Shell

EXTRA = 2  # entries after the settings: Players, Clear history


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


class SettingsMode(HostTool):
    def __init__(self, app: "Shell") -> None:
        self.app = app
        self.cursor = 0
        self.children: list[str] | None = None  # clearing: the children with a history
        self.confirm: str | None = None          # clearing: the child asked about
        self.players: RosterScreen | None = None

    def holds(self) -> frozenset[str]:
        return self.players.holds() if self.players is not None else frozenset()

    def on_press(self, press: Press) -> bool:
        if self.players is not None:  # the letter wheel takes a near station's keys too
            return self._players_key(press)
        if press.station is not None:
            self.app.refuse_station()
            return True
        if self.confirm is not None:
            return self._confirm_key(press.key)
        if self.children is not None:
            return self._child_key(press.key)
        keys = list(CHOICES)
        if press.key == "back":
            return False
        if press.key == "next":
            self.cursor = (self.cursor + 1) % (len(keys) + EXTRA)
        elif press.key == "ok" and self.cursor == len(keys):
            self.players = RosterScreen(Roster(self.app.journal))
        elif press.key == "ok" and self.cursor == len(keys) + 1:
            self.children, self.cursor = History(self.app.journal).children(), 0
        elif press.key == "ok":
            key = keys[self.cursor]
            choices = CHOICES[key]
            now = getattr(self.app.settings, key)
            self.app.change_settings(replace(self.app.settings, **{
                key: choices[(choices.index(now) + 1) % len(choices)]}))
        return True

    def _players_key(self, press: Press) -> bool:
        assert self.players is not None
        if press.station is not None and self.players.new is None:
            self.app.refuse_station()  # the list is the host panel's; the wheel takes both
            return True
        if not self.players.on_key(press.key, press.hold):
            self.players = None
        elif self.players.message:
            self.app.beep("error")
            self.app.flash(self.players.message)
            self.players.message = None
        return True

    def _child_key(self, key: str) -> bool:
        assert self.children is not None
        if key == "back" or not self.children:
            self.children, self.cursor = None, len(CHOICES) + 1
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
            self.children, self.cursor = None, len(CHOICES) + 1
        return True

    def view(self) -> View:
        if self.confirm is not None:
            return View(_("Clear history?"), (_("All answers of"), f"{self.confirm}?"),
                        big=None, footer=_("OK clear  BACK keep"))
        if self.players is not None:
            return self.players.view()
        if self.children is not None:
            if not self.children:
                return View(_("Clear history"), (_("No child has"), _("answers yet.")),
                            footer=_("BACK back"))
            return View(_("Whose history?"), tuple(self.children), cursor=self.cursor,
                        footer=_("NEXT move  OK choose"))
        settings = self.app.settings
        lines = tuple(f"{_label(k)}: {_show(k, getattr(settings, k))}" for k in CHOICES)
        return View(_("Settings"), lines + (_("Players"), _("Clear history")), cursor=self.cursor,
                    footer=_("NEXT move  OK set"))



MODE = ModeInfo("settings", N_("Settings"), open=SettingsMode, order=90)
