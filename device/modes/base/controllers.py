"""The pieces every referee asks for input with, whatever the game: a menu over legal actions,
the die, and the weigher. Each keeps only what the screen shows of it (a cursor, a value being
entered, the pan's last snapshot); what is legal stays the engine's, what a number means too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ....games.core import Chance, Measurement
from ...i18n import _
from ...inputs import Weight
from .table import Table

if TYPE_CHECKING:
    from ....drivers.weighing import PanSnapshot

ROLL_TICKS = 4       # the box's roll: this many buzzer ticks ...
ROLL_TICK_S = 0.25   # ... this far apart, then the number


@dataclass
class ActionMenu:
    """A choice among one player's legal actions: NEXT (or a station's A/C) moves, OK (or B)
    picks. ``label`` says an action as the menu shows it."""

    actions: Sequence[dict[str, Any]]
    label: Callable[[dict[str, Any]], str]
    cursor: int = 0

    def move(self, step: int) -> None:
        if self.actions:
            self.cursor = (self.cursor + step) % len(self.actions)

    def picked(self) -> dict[str, Any]:
        return dict(self.actions[self.cursor % len(self.actions)])

    def lines(self) -> tuple[str, ...]:
        return tuple(self.label(a) for a in self.actions)

    def offer(self, actions: Sequence[dict[str, Any]]) -> None:
        """New legal actions (after a move): keep the cursor on the same action if still there."""
        before = self.picked() if self.actions else None
        self.actions = list(actions)
        self.cursor = self.actions.index(before) if before in self.actions else 0


@dataclass
class Die:
    """A chance the game needs: the box rolls (a short buzzer roll, then the number, drawn from
    the state's own generator) or the table rolls a real die and enters it (A/C or NEXT step the
    number, B or OK enters). ``rolling`` is the tick of a roll under way, else None."""

    table: Table
    chance: Chance
    box_rolls: bool = True
    tick_s: float = ROLL_TICK_S   # the roll's ticks: this far apart ...
    sound: str = "click"          # ... each this buzzer pattern
    value: int = 0
    rolling: int | None = None
    _timer: Any = None
    _done: Callable[[int], Any] | None = None

    def __post_init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """A real die's entry starts again from the first face."""
        self.value = self.chance.values[0]

    def step(self, by: int) -> None:
        """The value shown for a real die, one face on (or back)."""
        faces = self.chance.values
        self.value = faces[(faces.index(self.value) + by) % len(faces)]

    def roll(self, draw: Callable[[], int], done: Callable[[int], Any]) -> None:
        """The box rolls: ``draw()`` gives the number (the state's generator), ``done(value)``
        once the roll has been shown."""
        self.value, self._done, self.rolling = draw(), done, 0
        self._tick()

    def _tick(self) -> None:
        assert self.rolling is not None
        if self.rolling < ROLL_TICKS:
            self.table.beep(self.sound)
            self.rolling += 1
            self._timer = self.table.call_later(self.tick_s, self._tick)
            return
        done, value = self._done, self.value
        self.stop()
        if done is not None:
            done(value)

    def stop(self) -> None:
        self.table.cancel(self._timer)
        self._timer, self.rolling, self._done = None, None, None


@dataclass
class Weigher:
    """A measurement the game needs, from one pan: it follows that pan's snapshots and gives
    the settled grams only while the pan is still, in range and connected; otherwise ``wait``
    says why, in words for the table."""

    pan: str | None
    measurement: Measurement | None = None
    snapshot: "PanSnapshot | None" = field(default=None)

    def on_weight(self, weight: Weight) -> bool:
        """Take the pan's news; True when what the weigher shows changed."""
        if self.pan is None or self.pan not in weight.pans:
            return False
        before, self.snapshot = self.snapshot, weight.pans[self.pan]
        return before != self.snapshot

    def grams(self) -> float | None:
        """The settled reading, rounded as the game measures, or None while it cannot be read."""
        shot = self.snapshot
        if shot is None or not shot.stable or shot.grams is None:
            return None
        places = self.measurement.decimals if self.measurement is not None else 1
        return round(shot.grams, places)

    def wait(self) -> str | None:
        """Why no reading can be taken now (None: it can)."""
        shot = self.snapshot
        if self.pan is None:
            return _("This box has no scales to weigh with.")
        if shot is None or shot.state == "starting":
            return _("Weighing...")
        if not shot.connected:
            return _("Scale not answering: check its cable.")
        if shot.overload:
            return _("Too heavy for the pan")
        if shot.underload:
            return _("The pan reads below zero: is it lifted?")
        if not shot.stable:
            return _("Still wobbling...")
        return None


def pan_for(pans: Sequence[str], role: str, chosen: str | None = None) -> str | None:
    """The pan that does ``role``'s job: the one the table chose, else the first there is."""
    if chosen in pans:
        return chosen
    return pans[0] if pans else None


__all__ = ["ActionMenu", "Die", "ROLL_TICKS", "ROLL_TICK_S", "Weigher", "pan_for"]
