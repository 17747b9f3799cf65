"""Where Tante Trudels Trödel's turn is, for the referee: one ``TurnStep`` at a time.

The box itself may be busy (``Busy``: rolling the die, a weighing, a basket's items still on the
pan after a scales-row weighing); otherwise the engine says what it waits for (the die, the
move, the turn's menu). ``step_of`` decides, in ``TurnStep``'s order; a key and the screen both go
by it. And the pans, as the game uses them: the items go on one, the Purchase of the Day stays
on the other (with one pan alone, everything goes on it).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .public import Public
from .weighing import TakeOff, JobWeigher

if TYPE_CHECKING:
    from ...pans.scales import TableScales


class TurnStep(enum.Enum):
    """What a key does and the screen shows now: the first that holds, in this order."""

    TAKE_OFF = "take off"    # a scales-row basket's items (or, substituted, the Purchase) lie on
    #                          the basket's pan
    ROLLING = "rolling"      # the box's die is rolling (the buzzer ticks)
    WEIGHING = "weighing"    # a weighing runs: the Purchase, a scales row, a basket at the end
    NO_SCALES = "no scales"  # the game needs a weighing and this box has no pans
    ROLL = "roll"            # the die: the box rolls it, or the table enters a real one
    MOVE = "move"            # the basket moves (TT4: perhaps the choice of going back)
    MENU = "menu"            # the turn's menu: what ``legal_actions`` allows, then Done


@dataclass(frozen=True)
class Rolling:
    """The box rolls ``player``'s die (the shared ``Die`` ticks, then the roll is played)."""

    player: str


@dataclass(frozen=True)
class Weighing:
    """A weighing runs; a scales-row one (``job.kind == "weigh"``) was the player's choice."""

    weigher: JobWeigher


@dataclass(frozen=True)
class TakingOff:
    """After a scales-row weighing, until the items (after a substitution: the Purchase, going
    back where it lives) are off the basket's pan."""

    take_off: TakeOff


Busy = Rolling | Weighing | TakingOff | None  # what the box itself is doing


def step_of(busy: Busy, still_on: bool, weighing_needed: bool, pub: Public) -> TurnStep:
    """The step: what the box is busy with first (a take-off only while ``still_on``: the
    items lie on the pan), then a weighing the game needs that no pan runs (``weighing_needed``
    with nothing running: this box has no pans), then what the engine waits for."""
    if isinstance(busy, TakingOff) and still_on:
        return TurnStep.TAKE_OFF
    if isinstance(busy, Rolling):
        return TurnStep.ROLLING
    if isinstance(busy, Weighing):
        return TurnStep.WEIGHING
    if weighing_needed:
        return TurnStep.NO_SCALES
    if pub.phase == "potd" or pub.stage == "roll":
        return TurnStep.ROLL
    if pub.stage == "move":
        return TurnStep.MOVE
    return TurnStep.MENU


# -- the pans ------------------------------------------------------------------------------------
def usable(scales: "TableScales | None") -> "TableScales | None":
    """The App's ``TableScales`` if it has pans (None on a box without load cells)."""
    return scales if scales is not None and scales.pans else None


def pan_names(scales: "TableScales | None") -> tuple[str, str | None]:
    """(the pan the items go on, the pan holding the Purchase or None with one pan)."""
    scales = usable(scales)
    judged = scales.judged_pans() if scales is not None else None
    if judged is not None:
        return judged[1], judged[0]
    return (next(iter(scales.pans)) if scales else "left"), None


def potd_pan(scales: "TableScales | None") -> str:
    """The pan the Purchase of the Day goes on."""
    basket, ref = pan_names(scales)
    return ref or basket


def pan_count(scales: "TableScales | None") -> int:
    scales = usable(scales)
    return len(scales.pans) if scales else 0


__all__ = ["Busy", "Rolling", "TurnStep", "TakingOff", "Weighing", "pan_count", "pan_names",
           "potd_pan", "step_of", "usable"]
