"""What the table is told of its pans, in words: a pan's name, a verdict, one pan's reading
(the screens, the terminal and the link all say it the same way)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import i18n
from ..i18n import _

if TYPE_CHECKING:
    from ...drivers.weighing import PanSnapshot


def pan_name(pan: str) -> str:
    """A pan's name as the table says it ("left", "right"; others as configured)."""
    return {"left": _("left"), "right": _("right")}.get(pan, pan)


def upper_first(text: str) -> str:
    """``text`` starting with a capital, the rest as it is: "left pan" -> "Left pan", while
    German "Schale links" keeps its lower-case pan ("title()" would give "Schale Links")."""
    return text[:1].upper() + text[1:]


def verdict_text(verdict: str) -> str:
    """The one wording of a verdict ("balanced", "left-lighter", ...): "Left is lighter"."""
    if verdict == "balanced":
        return _("Balanced")
    pan, _sep, result = verdict.rpartition("-")
    pan = pan_name(pan)
    result = {"lighter": _("lighter"), "heavier": _("heavier")}.get(result, result)
    return _("{pan} is {result}").format(pan=pan.capitalize(), result=result)


@dataclass(frozen=True)
class PanReading:
    """What a screen needs of one pan."""

    pan: str
    grams: float | None
    stable: bool
    connected: bool
    calibrated: bool
    overload: bool = False  # too heavy for the pan: no grams, ever
    underload: bool = False  # far below zero (lifted, or tared under a load): no grams either

    @classmethod
    def of(cls, pan: str, shot: "PanSnapshot | None") -> "PanReading":
        """What a ``PanSnapshot`` (a Weight's) shows of ``pan``; None: not heard of yet."""
        if shot is None:
            return cls(pan, None, False, False, False)
        grams = None if shot.overload or shot.underload else shot.grams
        return cls(pan, grams, shot.stable, shot.connected, shot.calibrated,
                   overload=shot.overload, underload=shot.underload)

    def text(self) -> str:
        if not self.connected:
            return _("no signal")
        if self.overload:
            return _("too heavy")
        if self.underload:
            return _("below zero")
        if self.grams is None:
            return "..."
        return f"{i18n.decimal(self.grams, 2, 8)} g{' *' if self.stable else '  '}"


__all__ = ["PanReading", "pan_name", "upper_first", "verdict_text"]
