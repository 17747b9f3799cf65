"""Which weighing Tante Trudels Trödel needs now, as the ``Job`` a ``JobWeigher`` runs: the Purchase
of the Day, a basket on a scales row (the player's choice) or each basket at the end.

A basket's job carries what the weigher judges with: the engine's Purchase and tie band (for a
close call, where it substitutes), and with two pans the first pan's reference for the Purchase
(``memory.Reference``: its last accepted reading there, or the number from the start with a
widened tolerance when none was kept).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import flow
from .memory import Reference
from .weighing import Job, TakeOff

if TYPE_CHECKING:
    from ...pans.scales import TableScales


def basket_job(state: Any, scales: "TableScales | None", ref: Reference | None, kind: str, player: str,
               count: int) -> Job:
    """A basket's weighing against the Purchase (``kind`` "weigh" or "basket")."""
    basket, first = flow.pan_names(scales)
    potd = float(state.potd_g or 0.0)
    if ref is None:  # no reference kept (a lost note): the number from the start
        ref_g, tol = potd, Reference.fallback_tol_g(potd)
    else:
        ref_g, tol = ref.g, ref.tol_g(potd)
    return Job(kind, player, basket, first, ref_g if first else None, state.items[player], count,
               potd_g=state.potd_g, band_g=state.tie_band_g, ref_tol_g=tol,
               away=ref is not None and ref.away)


def needed_job(state: Any, scales: "TableScales | None", ref: Reference | None, purchase_waits: bool,
               count: int) -> Job | None:
    """The weighing the game itself needs now: the Purchase (``purchase_waits``: the engine
    lists only that), or a basket at the end."""
    if purchase_waits:
        return Job("potd", state.potd_maker, flow.potd_pan(scales), key=count)
    if state.phase == "weighing":
        return basket_job(state, scales, ref, "basket", state.waiting_for()[0], count)
    return None


def row_job(state: Any, scales: "TableScales | None", ref: Reference | None, count: int) -> Job | None:
    """A scales-row weighing for the player on turn, now."""
    if state.phase != "play" or not state.turn:
        return None
    return basket_job(state, scales, ref, "weigh", state.turn, count)




def take_off_after(player: str, pan: str, purchase: bool, ref: Reference | None,
                   potd_g: float | None, home: str) -> TakeOff:
    """What must leave ``pan`` after a scales-row weighing; after a substitution with two pans
    the Purchase must also lie back on ``home``, its own pan (within its reference's tolerance)."""
    if not purchase or ref is None or potd_g is None or home == pan:
        return TakeOff(player, pan, purchase)
    return TakeOff(player, pan, True, home, ref.g, ref.tol_g(float(potd_g)))


def cancelled(job: Job, stage: str, ref: Reference | None, potd_g: float | None,
              home: str) -> TakeOff:
    """What must leave the pan when a scales-row weighing is cancelled: the items, and the
    Purchase back on ``home`` once a substitution had asked for it on the basket's pan."""
    moved = stage in ("swap_on", "swap_wait")
    return take_off_after(job.player, job.pan, moved, ref, potd_g, home)


__all__ = ["basket_job", "cancelled", "needed_job", "row_job", "take_off_after"]
