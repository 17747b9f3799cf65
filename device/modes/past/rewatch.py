"""A past game replayed on the OLED, its frames turned as every page of the box: OK or NEXT one
frame on (past the last: back to the list); BACK opens the replay's menu, as it opens the game
menu in a game (go on, one step back, to the end, from the start, correct this step, leave); a
long BACK leaves. The menu offers "Correct this step" only where the step can be corrected. The
frames are ``steps.Replay``'s; a game corrected afterwards says at the end what was corrected,
why, and whether that changed the result."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ...glossary import choose_footer
from ...i18n import N_, _
from ...past.records import GameRecord
from ...screen.render import View
from .correct import correctable, start_correction
from .outcome import correction_views
from .steps import Replay
from ...ui.screen import Screen, Shell

if TYPE_CHECKING:
    from .listing import PastGamesMode

MENU = ("on", "back", "end", "start", "correct", "leave")
LABELS = {"on": N_("Go on"), "back": N_("One step back"), "end": N_("To the end"),
          "start": N_("From the start"), "correct": N_("Correct this step"),
          "leave": N_("Leave the replay")}


def menu_labels(choices: Sequence[str] = MENU) -> tuple[str, ...]:
    return tuple(_(LABELS[choice]) for choice in choices)


def menu_view(cursor: int, choices: Sequence[str] = MENU) -> View:
    return View(_("Replay"), menu_labels(choices), cursor=cursor, footer=choose_footer())


class ReplayScreen(Screen):
    """One past game, frame by frame (see the module doc)."""

    name = "replay"

    def __init__(self, shell: Shell, past: "PastGamesMode", record: GameRecord) -> None:
        super().__init__(shell)
        self.past, self.record = past, record
        self.index = 0
        self.menu_at = "on"  # where the menu's cursor was left: "One step back" again is BACK, OK
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
        if key == "back" and hold:
            self.shell.pop()
        elif key == "back":
            self.shell.push(ReplayMenuScreen(self.shell, self))
        elif key in ("ok", "next") and self.index >= self.last:
            self.shell.pop()
        elif key in ("ok", "next"):
            self.index += 1

    def can_correct(self) -> bool:
        """Whether the step shown can be corrected here (else the menu does not offer it)."""
        return correctable(self.record, self.header, self.actions, self.step()) is None

    def menu(self) -> tuple[str, ...]:
        """The menu's choices at the frame shown: no step back from the first, no correction
        where it could only be refused."""
        return tuple(choice for choice in MENU
                     if (choice != "back" or self.index > 0)
                     and (choice != "correct" or self.can_correct()))

    def choose(self, choice: str) -> None:
        """A menu item (the menu has closed)."""
        self.menu_at = choice
        if choice == "back":
            self.index = max(0, self.index - 1)
        elif choice == "end":
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
    """The replay's menu: NEXT moves, OK chooses, BACK goes back to the frame; the cursor
    starts where it was left."""

    name = "replay_menu"
    cursor: int

    def __init__(self, shell: Shell, replay: ReplayScreen) -> None:
        super().__init__(shell)
        self.replay = replay
        self.choices = replay.menu()
        self.cursor = self.choices.index(replay.menu_at) if replay.menu_at in self.choices else 0

    def on_host(self, key: str, hold: bool) -> None:
        if key == "next":
            self.cursor = (self.cursor + 1) % len(self.choices)
        elif key == "back":
            self.shell.pop()
        elif key == "ok":
            self.shell.pop()
            self.replay.choose(self.choices[self.cursor])

    def view(self) -> View:
        return menu_view(self.cursor, self.choices)


__all__ = ["LABELS", "MENU", "ReplayMenuScreen", "ReplayScreen", "menu_labels", "menu_view"]
