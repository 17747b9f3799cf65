"""The set-up screens before a game: who plays, then each of the referee's options.

Who plays: with a roster, the names to pick (``picker``); without one, the player count (the
config's names fill the seats). An option takes one screen (a choice list, "one of the players")
or one per value (a list). NEXT changes the value shown, OK goes on, BACK goes back; the last
screen sums up and OK starts. "Play again" starts at that summary with the last game's players,
seats and choices.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..i18n import _, ngettext
from ..journal.header import Header
from ..journal.roster import Roster
from ..journal.store import Journal
from ..screen.render import View, misfits
from .base import ModeInfo
from .options import SetupOption
from .picker import PlayerPicker

log = logging.getLogger(__name__)


SUMMARY_ROOM = 3


def fits(line: str) -> bool:
    """Whether ``line`` fits a list line of the OLED."""
    return not misfits(View(lines=(line,), cursor=0))  # one idea a page: a longer summary is a list that scrolls with NEXT


@dataclass
class SetupFlow:
    """Choices made on the set-up screens; ``names`` are the configured player names."""

    mode: ModeInfo
    names: Sequence[str]
    stations: int
    low: int
    high: int
    players: int = 0
    values: dict[str, Any] = field(default_factory=dict)
    step: int = 0   # 0: who plays; 1..n: options; n+1: the summary
    part: int = 0   # which value of a list option
    picker: PlayerPicker | None = None
    shown: int = 0  # the summary's line at the cursor, when it is longer than the screen

    def __post_init__(self) -> None:
        if not self.players:
            self.players = min(4, self.high)
        self._reset_values()

    @property
    def options(self) -> tuple[SetupOption, ...]:
        return self.mode.setup

    @property
    def seats(self) -> list[str]:
        if self.picker is not None:
            return list(self.picker.chosen)
        return list(self.names[: self.players])

    @property
    def message(self) -> str | None:
        """Why the last press was refused (taken once)."""
        if self.picker is None:
            return None
        message, self.picker.message = self.picker.message, None
        return message

    def header(self, seed: int) -> Header:
        """What starts the game: the game's own options, and the referee's in ``table``."""
        assert self.mode.game is not None
        engine = {o.key for o in self.options if o.engine}
        return Header(self.mode.game, tuple(self.seats),
                      {k: v for k, v in self.values.items() if k in engine}, seed,
                      {k: v for k, v in self.values.items() if k not in engine})

    def holds(self) -> frozenset[str]:
        if self.step == 0 and self.picker is not None:
            return self.picker.holds()
        return frozenset()

    def _reset_values(self) -> None:
        """Defaults for the options; a value is kept while it still makes sense (a player option
        while that seat still plays; a remembered value the option can still show)."""
        for option in self.options:
            if option.key not in self.values or \
                    not option.valid(self.values[option.key], self.seats):
                self.values[option.key] = option.initial(self.seats)

    def summary(self) -> None:
        """Go straight to the last screen (play again: one OK from the start)."""
        self._reset_values()
        self.step, self.part, self.shown = len(self.options) + 1, 0, 0

    def on_key(self, key: str, hold: bool = False) -> str | None:
        """Handle a key: "home" to leave, "start" to start the game, else None."""
        last = len(self.options) + 1
        if self.step == 0 and self.picker is not None:
            what = self.picker.on_key(key, hold)
            if what == "done":
                self._reset_values()
                self.step, self.part = 1, 0
                return None
            return what
        if key not in ("back", "ok", "next"):
            return None
        if key == "back":
            if self.step == 0:
                return "home"
            if self.part > 0:
                self.part -= 1
            else:
                self.step -= 1
                if 0 < self.step < last:
                    option = self.options[self.step - 1]
                    self.part = option.parts(self.values[option.key]) - 1
            return None
        if self.step == last:
            if key == "next":  # a long summary scrolls
                self.shown += 1
            return "start" if key == "ok" else None
        if self.step == 0:
            if key == "next":
                self.players = self.low + (self.players - self.low + 1) % (self.high - self.low + 1)
                self._reset_values()
            elif key == "ok":
                self.step, self.part = 1, 0
            return None
        option = self.options[self.step - 1]
        value = self.values[option.key]
        if key == "next":
            self.values[option.key] = option.step(value, self.part, self.seats)
        elif key == "ok":
            if self.part + 1 < option.parts(value):
                self.part += 1
            else:
                self.step, self.part = self.step + 1, 0
        return None

    def view(self) -> View:
        title = _(self.mode.title)
        if self.step == 0 and self.picker is not None:
            return self.picker.view(title)
        if self.step == len(self.options) + 1:
            n = len(self.seats)
            lines = [ngettext("{n} player", "{n} players", n).format(n=n)]
            for o in self.options:
                lines += summary_lines(_(o.label), o.show(self.values[o.key]))
            hot = n - min(n, self.stations)
            if hot:  # players without a station choose at the box (said only when it happens)
                lines.append(ngettext("{n} player at the box", "{n} players at the box",
                                      hot).format(n=hot))
            cursor = self.shown % len(lines) if len(lines) > SUMMARY_ROOM else None
            return View(title, tuple(lines), cursor=cursor, footer=_("OK start  BACK back"))
        if self.step == 0:
            return View(title, (_("Players"),), big=str(self.players),
                        footer=_("NEXT change  OK next"))
        option = self.options[self.step - 1]
        value = self.values[option.key]
        label = _(option.label)
        if option.parts(value) > 1:
            label = _("{label} {n} of {total}").format(label=label, n=self.part + 1,
                                                       total=option.parts(value))
        hint = option.hint(value)  # what the choice means, so nobody has to guess
        return View(label, (hint,) if hint else (), big=option.show(value, self.part),
                    footer=_("NEXT change  OK next"))


def summary_lines(label: str, value: str) -> list[str]:
    """One option on the summary: "label: value" on a line, or the value on a line of its own
    when both do not fit (a long name)."""
    line = _("{label}: {value}").format(label=label, value=value)
    if fits(line):
        return [line]
    return [_("{label}:").format(label=label), f"  {value}"]


def begin(mode: ModeInfo, names: Sequence[str], stations: int, low: int, high: int,
          journal: Journal, station_name: Callable[[int], str], again: bool = False) -> SetupFlow:
    """The set-up of ``mode``: the roster (if any) to pick from, with the seats of the last game
    of this kind taken again; without a roster the player count of that game. ``again``: the
    last game's players (guests too), seats and choices, at the summary."""
    last, values = last_game(journal, mode.name)
    roster = Roster(journal)
    known = roster.names()
    picker = None
    if known:
        def add(name: str) -> str:
            return roster.add(name)  # InputError (a ValueError) says why not

        picker = PlayerPicker(known, low, high, add,
                              lambda seat: station_name(seat) if seat < stations else None,
                              chosen=list(last[:high]) if again else
                              [n for n in last if n in known][:high])
    players = len(last) if low <= len(last) <= high else 0
    if again and picker is None and players:  # no roster: the last game's own names sit down
        names = list(last) + [n for n in names if n not in last]
    flow = SetupFlow(mode, names, stations, low, high, players=players, picker=picker,
                     values=dict(values) if again else {})
    if again:
        flow.summary()
    return flow


def can_play_again(journal: Journal, mode: ModeInfo, low: int, high: int) -> bool:
    """Whether ``mode`` has a last game whose players can sit down again."""
    return low <= len(last_game(journal, mode.name)[0]) <= high


def remember(journal: Journal, game: str, seats: Sequence[str], values: dict[str, Any]) -> None:
    """Keep who sat where and what was chosen, so the next set-up of this game offers the same
    seats and "Play again" repeats the game."""
    try:
        journal.add_note("seats", {"game": game, "players": list(seats), "values": dict(values)})
    except Exception as exc:  # remembering is a kindness, never a reason to refuse a game
        log.warning("seats not remembered: %s", exc)


def last_game(journal: Journal, game: str) -> tuple[list[str], dict[str, Any]]:
    """The players and the set-up choices of the last game of ``game`` (empty if none)."""
    try:
        notes = journal.notes("seats", limit=50)
    except Exception:
        return [], {}
    for note in notes:
        if isinstance(note, dict) and note.get("game") == game:
            players, values = note.get("players"), note.get("values")
            if isinstance(players, list) and all(isinstance(p, str) for p in players):
                return players, values if isinstance(values, dict) else {}
    return [], {}
