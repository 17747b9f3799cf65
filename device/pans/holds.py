"""Holds: a mode's standing request to be told when a pan has been still long enough.

Whether a load has held still for a while changes with time, not with any step of the pan, so
no ``Weight`` would say so by itself. Rather than poll the pans on a timer, a mode asks
``Scales.hold(pan, seconds)``: from the pan's latest sample on, the first sample at which the
pan has been still for ``seconds`` (and, for a ``judged`` hold, the judgement of the first two
pans has stood that long) brings a ``held`` Weight carrying that hold. It comes once for each
stillness: after the pan moves, the next stillness long enough brings it again, until the mode
releases the hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ...drivers.weighing import Judgement, PanSnapshot

EPS_S = 1e-6  # sample times are sums of periods


@dataclass(eq=False)
class Hold:
    """Tell me when ``pan`` has been still for ``seconds``, counted from ``since`` (the pan's
    sample time when asked) and from the moment it settled; ``judged``: and the judgement of
    the first two pans has stood that long. ``told`` while the stillness it was told of lasts."""

    pan: str
    seconds: float
    since: float
    judged: bool = False
    told: bool = False

    def matured(self, shot: PanSnapshot, judgement: Judgement | None) -> bool:
        """Whether the pan (``shot``) and the judgement fulfil the hold now."""
        if shot.t is None or shot.t - self.since < self.seconds - EPS_S:
            return False
        if self.judged:
            return judgement is not None and \
                judgement.t - judgement.since >= self.seconds - EPS_S
        return shot.settled_g is not None and shot.held_s() >= self.seconds - EPS_S


class Holds:
    """The holds under way, in the order they were asked for."""

    def __init__(self) -> None:
        self._holds: list[Hold] = []

    def add(self, hold: Hold) -> Hold:
        self._holds.append(hold)
        return hold

    def release(self, hold: Hold | None) -> None:
        """Forget ``hold`` (None, or one already released: nothing)."""
        if hold is not None and hold in self._holds:
            self._holds.remove(hold)

    def __bool__(self) -> bool:
        return bool(self._holds)

    def matured(self, shots: dict[str, PanSnapshot],
                judgement: Judgement | None) -> Iterable[Hold]:
        """The holds that mature at this sample: each once per stillness (``told``), a hold
        that no longer holds is armed again."""
        for hold in list(self._holds):
            shot = shots.get(hold.pan)
            ripe = shot is not None and hold.matured(shot, judgement)
            if ripe and not hold.told:
                hold.told = True
                yield hold
            elif not ripe:
                hold.told = False


__all__ = ["EPS_S", "Hold", "Holds"]
