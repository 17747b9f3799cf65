"""A past game replayed on the OLED: OK one frame on, BACK one back (from the first frame: back
to the list), a long BACK leaves; NEXT opens the replay's menu (on, to the end, from the start,
correct this step, leave). The frames are ``replay_pages``'; a game corrected afterwards says at
the end what was corrected, why, and whether that changed the result."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...i18n import _
from ...past.records import GameRecord
from ...screen.render import View
from .correct import correctable, start_correction
from .outcome import correction_views
from .steps import Replay
from ...ui.screen import Screen, Shell

if TYPE_CHECKING:
    from .listing import PastGamesMode

MENU = ("on", "end", "start", "correct", "leave")


def menu_labels() -> tuple[str, ...]:
    return (_("Go on"), _("To the end"), _("From the start"), _("Correct this step"),
            _("Leave the replay"))


def menu_view(cursor: int) -> View:
    return View(_("Replay"), menu_labels(), cursor=cursor, footer=_("NEXT move  OK choose"))


class ReplayScreen(Screen):
    """One past game, frame by frame (see the module doc)."""

    name = "replay"

    def __init__(self, shell: Shell, past: "PastGamesMode", record: GameRecord) -> None:
        super().__init__(shell)
        self.past, self.record = past, record
        self.index = 0
        self.build()

    def build(self) -> None:
        """(Re)read the game: the journal's actions with their corrections applied."""
        games, game_id = self.past.past, self.record.game_id
        self.record = games.record(game_id)
        corrections = games.corrections(game_id)
        notes = correction_views(corrections, games.original(game_id), self.record) \
            if corrections else []
        self.header = games.header(game_id)
        self.actions = games.actions(game_id)
        self.replay = Replay.build(self.header, self.actions, notes)

    # -- moving ------------------------------------------------------------------------------
    @property
    def last(self) -> int:
        return len(self.replay.frames) - 1

    def first_of(self, step: int) -> int:
        """The first frame of ``step`` (the end when there is no such step)."""
        return next((i for i, f in enumerate(self.replay.frames) if f.step >= step), self.last)

    def step(self) -> int:
        """The action (1-based) the current frame shows; beyond the last at the end."""
        return self.replay.frames[self.index].step

    def on_host(self, key: str, hold: bool) -> None:
        if key == "back" and (hold or self.index == 0):
            self.shell.pop()
        elif key == "back":
            self.index -= 1
        elif key == "ok" and self.index >= self.last:
            self.shell.pop()
        elif key == "ok":
            self.index += 1
        elif key == "next":
            self.shell.push(ReplayMenuScreen(self.shell, self))

    def choose(self, choice: str) -> None:
        """A menu item (the menu has closed)."""
        if choice == "end":
            self.index = self.first_of(self.replay.steps + 1)
        elif choice == "start":
            self.index = 0
        elif choice == "correct":
            self.correct()
        elif choice == "leave":
            self.shell.pop()

    def correct(self) -> None:
        step = self.step()
        reason = correctable(self.record, self.header, self.actions, step)
        if reason is not None:
            self.shell.beep("error")
            self.shell.flash(*reason)
            return
        start_correction(self.shell, self, step - 1)

    def corrected(self, seq: int) -> None:
        """A correction was saved: the game is read again, at the step that changed."""
        self.build()
        self.index = self.first_of(seq + 1)
        self.past.reload()

    def view(self) -> View:
        return self.replay.view(min(self.index, self.last))


class ReplayMenuScreen(Screen):
    """The replay's menu: NEXT moves, OK chooses, BACK goes back to the frame."""

    name = "replay_menu"
    cursor: int

    def __init__(self, shell: Shell, replay: ReplayScreen) -> None:
        super().__init__(shell)
        self.replay = replay
        self.cursor = 0

    def on_host(self, key: str, hold: bool) -> None:
        if key == "next":
            self.cursor = (self.cursor + 1) % len(MENU)
        elif key == "back":
            self.shell.pop()
        elif key == "ok":
            self.shell.pop()
            self.replay.choose(MENU[self.cursor])

    def view(self) -> View:
        return menu_view(self.cursor)


__all__ = ["MENU", "ReplayMenuScreen", "ReplayScreen", "menu_labels", "menu_view"]
