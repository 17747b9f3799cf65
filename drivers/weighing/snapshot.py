"""What a pan shows after its latest sample, as one frozen value (``PanSnapshot``): the seam
between the weighing chain and whoever reads it (modes, tools, the link), so nobody needs to
reach into a ``ScaleChannel``.

Pure: ``PanSnapshot.of`` reads a channel's public state; nothing here keeps time of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .channel import ScaleChannel

EMPTY_G = 0.5  # a still pan settled below this (in magnitude) is empty: an item weighs grams
STATES = ("starting", "empty", "moving", "stable", "disconnected", "overload", "underload")


@dataclass(frozen=True)
class PanSnapshot:
    """One pan now. ``state`` is one of ``STATES``: "starting" (its reader has not answered
    yet), "disconnected", "overload" (at the stop or beyond the calibrated range: never a
    number), "underload" (far below zero: a pan lifted, a zero taken under a load), "moving", "empty" (still, below ``EMPTY_G``) or "stable". ``grams`` is the settled
    value while still, the current reading while moving, None when there is none (starting, no
    signal, overload); ``connected`` is False while starting. ``t`` is the latest sample's time,
    ``since`` when the settled value began to average (None while moving), ``last_settled_g``
    the last settled value, kept while the pan moves (what a stack stood at before a hand).
    ``warming``: after power-on, until the zero is steady (the table may still play);
    ``zero_age_s``: seconds since the pan was last empty and still, or tared (None: never since
    power-on), for a comparison that wants a fresh zero."""

    pan: str
    state: str
    grams: float | None
    stable: bool
    connected: bool
    overload: bool = False
    t: float | None = None
    since: float | None = None
    last_settled_g: float | None = None
    calibrated: bool = True
    rate: int = 10
    underload: bool = False
    warming: bool = False
    zero_age_s: float | None = None

    @property
    def settled_g(self) -> float | None:
        """The settled value while still (stable or empty), else None."""
        return self.grams if self.stable else None

    def held_s(self) -> float:
        """How long the settled value has been averaging at ``t`` (0 while moving)."""
        if self.since is None or self.t is None:
            return 0.0
        return self.t - self.since

    @classmethod
    def of(cls, channel: "ScaleChannel", *, connected: bool = True, calibrated: bool = True,
           overload: bool | None = None, starting: bool = False) -> "PanSnapshot":
        """The snapshot of ``channel`` after its latest sample. ``starting``: its reader has
        not answered yet, nor given up (not connected, but no fault either). ``overload`` None
        asks the channel (a chain that detects the stop says so in ``channel.overload``)."""
        if overload is None:
            overload = channel.overload
        underload = channel.underload
        settled = channel.settled_g
        grams: float | None = None
        if not connected:
            state = "starting" if starting else "disconnected"
        elif overload:
            state = "overload"
        elif underload:
            state = "underload"
        elif channel.t is None or channel.grams is None:
            state = "starting"
        elif not channel.stable or settled is None:
            state, grams = "moving", channel.grams
        else:
            state, grams = ("empty" if abs(settled) < EMPTY_G else "stable"), settled
        still = state in ("empty", "stable")
        return cls(channel.pan, state, grams, still, connected, state == "overload",
                   t=channel.t, since=channel.settled_since if still else None,
                   last_settled_g=channel.last_settled_g, calibrated=calibrated,
                   rate=channel.settings.rate, underload=state == "underload",
                   warming=channel.warming, zero_age_s=channel.zero_age_s())


__all__ = ["EMPTY_G", "PanSnapshot", "STATES"]
