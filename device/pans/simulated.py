"""The device's ``Scales`` driven on simulated pans in virtual time: what ``spielleiter weigh
--sim`` prints, the simulated person who calibrates, and the waits tests and benchmarks use.

One pipeline: the simulator (drivers/sim) gives cells and readers only; the channels and the
judge that weigh here are the device's own, exactly as on the box (``Scales.simulated``).
"""

from __future__ import annotations

import json
import logging
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from ...drivers.weighing import CALIBRATION_HOLD_S, CALIBRATION_MASS_G, JUDGE_S, Calibrator
from ..inputs import Weight
from .scales import Scales

log = logging.getLogger(__name__)

TIMEOUT_S = 10.0  # virtual seconds after the set-down
SIM_CELLS = ("real", "ideal")  # ``spielleiter sim --cells``: what the simulated pans sit on
# what ``weigh_sim`` calibrates its pans with: a straight cell needs one mass, a bent one three
SIM_MASSES_G = {"ideal": (CALIBRATION_MASS_G,), "real": (100.0, 200.0, 500.0)}


def sim_physics(cells: str) -> Any:
    """The simulated pans' physics for ``--cells``: "real" as published figures describe a
    1 kg bar cell in a closed box (``PanPhysics.realistic``: warm-up, the box warming by
    10-20 K, creep, a bent output, the stop at 600-800 g), "ideal" none of it (None)."""
    if cells not in SIM_CELLS:
        raise ValueError(f"cells must be one of {', '.join(SIM_CELLS)}, not {cells!r}")
    if cells == "ideal":
        return None
    from ...drivers.sim import PanPhysics

    return PanPhysics.realistic()
LOADS_NAME = "sim-pans.json"  # in the simulator's state directory: what lies on each pan


# -- what lies on the simulated pans, kept across a restart ------------------------------------
# Each pan's load as the pieces set down on it, the last on top: the box's one record of what lies
# there (``Box.pieces``), which the interactive sim's hand shows and lifts piece by piece and
# which ``sim-pans.json`` keeps, so a restart finds the same pieces.
PIECE_EPS_G = 1e-6  # a remainder this small after a lift is float dust, not a piece


def lay(pieces: list[float], grams: float) -> None:
    """Record ``grams`` set down on a pan holding ``pieces`` (negative: that much lifted off,
    from the top: whole pieces first, then part of the next)."""
    if grams >= 0:
        if grams > PIECE_EPS_G:
            pieces.append(grams)
        return
    left = -grams
    while pieces and left > PIECE_EPS_G:
        top = pieces.pop()
        if top > left + PIECE_EPS_G:
            pieces.append(round(top - left, 6))
        left -= top


def save_loads(scales: Scales, state_dir: Path,
               pieces: dict[str, list[float]] | None = None) -> None:
    """Keep what lies on each simulated pan (a real pan keeps it across a power cut), with its
    ``pieces`` when known: written whole and renamed into place, so a kill at any moment leaves
    the old file or the new."""
    assert scales.sim is not None, "not simulated Scales"
    loads = {pan: round(scales.sim.load_g(pan), 6) for pan in scales.pans}
    data: dict[str, Any] = {"version": 1, "loads": loads}
    if pieces is not None:
        data["pieces"] = {pan: [round(g, 6) for g in pieces.get(pan, ())] for pan in scales.pans}
    path = Path(state_dir) / LOADS_NAME
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:  # a full card costs the simulated world, never the box
        log.warning("the simulated pans' loads were not kept: %s", exc)


def _grams(value: Any) -> float | None:
    """A mass the file kept, or None for anything else (text, a bool, NaN, an integer too long
    for a float, zero or less)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        grams = float(value)
    except OverflowError:
        return None
    return grams if math.isfinite(grams) and grams > 0 else None


def _pieces_of(kept: Any, load: float) -> list[float]:
    """The pieces the file kept for a pan that holds ``load``, the last made to match it
    exactly (so lifting them all leaves the pan at zero); one piece of ``load`` when it kept
    none (a file from before pieces were kept) or ones that do not add up to it."""
    pieces = [_grams(g) for g in kept] if isinstance(kept, list) else []
    if not pieces or None in pieces:
        return [load]
    sure = [g for g in pieces if g is not None]
    last = load - sum(sure[:-1])
    if abs(sum(sure) - load) > 1e-3 or last <= PIECE_EPS_G:
        return [load]
    return sure[:-1] + [round(last, 6)]


def restore_loads(scales: Scales, state_dir: Path) -> dict[str, list[float]]:
    """Put back on each simulated pan what lay on it when the simulator stopped; a missing or
    damaged file (or a pan no longer configured) leaves the pans empty. Returns what lies on each
    configured pan as pieces, the last set down last (``lay``)."""
    assert scales.sim is not None, "not simulated Scales"
    out: dict[str, list[float]] = {pan: [] for pan in scales.pans}
    path = Path(state_dir) / LOADS_NAME
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        loads = data["loads"] if data.get("version") == 1 else {}
        kept = data.get("pieces")
    except FileNotFoundError:
        return out
    except (OSError, ValueError, TypeError, AttributeError, KeyError) as exc:
        log.warning("the simulated pans start empty: %s unreadable (%s)", path, exc)
        return out
    kept = kept if isinstance(kept, dict) else {}
    for pan, value in (loads.items() if isinstance(loads, dict) else ()):
        grams = _grams(value)
        if pan in scales.pans and grams is not None:
            try:
                scales.sim.put(pan, grams)
                out[pan] = _pieces_of(kept.get(pan), grams)
            except ValueError as exc:
                log.warning("the %s pan starts empty: %s", pan, exc)
    return out


@dataclass
class Heard:
    """The ``Weight``s a ``Scales`` told since it was attached (``scales.listeners``)."""

    weights: list[Weight] = field(default_factory=list)

    @classmethod
    def on(cls, scales: Scales) -> "Heard":
        heard = cls()
        scales.listeners.append(heard.weights.append)
        return heard


def _step(scales: Scales) -> None:
    assert scales.sim is not None, "not simulated Scales"
    scales.sim.run_for(1.0 / scales.sim.rate)


def _now(scales: Scales) -> float:
    assert scales.sim is not None, "not simulated Scales"
    return scales.sim.now()


def wait_stable(scales: Scales, heard: Heard, pans: Iterable[str], *, after: float,
                timeout_s: float = TIMEOUT_S, expect_g: dict[str, float] | None = None,
                motion_grace_s: float = 3.0) -> dict[str, tuple[float, float] | None]:
    """For each pan, (time, settled grams) of the first stable state after ``after`` that
    shows the change: at least half of ``expect_g[pan]`` away from the value settled before
    (or, without an expectation, the first stable state after a motion; a pan that shows no
    motion within ``motion_grace_s``, or expects 0 g, counts from its first stable sample).
    None on timeout."""
    pans = list(pans)
    expect_g = expect_g or {}
    before = {p: scales.snapshot(p).last_settled_g or 0.0 for p in pans}
    seen = len(heard.weights)
    moved: set[str] = set()
    out: dict[str, tuple[float, float] | None] = {p: None for p in pans}
    end = after + timeout_s
    while _now(scales) < end and any(out[p] is None for p in pans):
        _step(scales)
        for w in heard.weights[seen:]:
            p = w.pan
            if p not in out or w.t < after or out[p] is not None:
                continue
            if w.kind == "moving":
                moved.add(p)
            elif w.kind == "stable" and w.grams is not None:
                want = abs(expect_g.get(p, 0.0))
                if want >= 0.2 and abs(w.grams - before[p]) >= 0.5 * want:
                    out[p] = (w.t, w.grams)
                elif want < 0.2 and p in moved:
                    out[p] = (w.t, w.grams)
        seen = len(heard.weights)
        for p in pans:
            shot = scales.snapshot(p)
            grace = 0.0 if p in expect_g and expect_g[p] == 0 else motion_grace_s
            if (out[p] is None and abs(expect_g.get(p, 0.0)) < 0.2 and p not in moved
                    and shot.stable and shot.t is not None and shot.t - after >= grace):
                out[p] = (shot.t, shot.settled_g or 0.0)
    return out


def hold_still(scales: Scales, pans: Iterable[str], hold_s: float,
               timeout_s: float = 30.0) -> None:
    """Run until every pan's settled value has been averaging for ``hold_s``."""
    pans = list(pans)
    end = _now(scales) + timeout_s
    while _now(scales) < end:
        _step(scales)
        if all(scales.snapshot(p).stable and scales.snapshot(p).held_s() >= hold_s - 1e-6
               for p in pans):
            return
    raise TimeoutError("the simulated pans did not settle")


def _captured(scales: Scales, calibrator: Calibrator, step: str, timeout_s: float) -> None:
    errors: list[Any] = []
    scales.begin_calibration(calibrator, lambda _c, error: errors.append(error))
    end = _now(scales) + timeout_s
    while calibrator.step == step and not errors:
        if _now(scales) >= end:
            scales.cancel_calibration()
            raise TimeoutError("the simulated pans did not settle")
        _step(scales)
    if errors and errors[0] is not None:
        raise errors[0]


def calibrate(scales: Scales, pans: Iterable[str] | None = None,
              masses_g: Sequence[float] = (CALIBRATION_MASS_G,),
              hold_s: float = CALIBRATION_HOLD_S, timeout_s: float = 30.0) -> None:
    """A simulated person calibrates each pan the one way (``Scales.begin_calibration``: the
    empty pan held still, then each of ``masses_g`` on it held still and taken off again, as
    the Scale tool's "another mass": three fit a bent cell's bow) and, once all are still again,
    tares the empty pans."""
    assert scales.sim is not None, "not simulated Scales"
    pans = list(pans or scales.pans)
    for p in pans:
        calibrator = Calibrator(p, masses_g[0], hold_s)
        _captured(scales, calibrator, "empty", timeout_s)
        for i, mass_g in enumerate(masses_g):
            if i:
                hold_still(scales, [p], 0.5, timeout_s)  # the empty pan seen between masses
                calibrator.another(mass_g)
            scales.sim.put(p, mass_g)
            _captured(scales, calibrator, "mass", timeout_s)
            scales.sim.remove(p, mass_g)
    hold_still(scales, pans, 0.5, timeout_s)
    scales.tare()


def _judged_since(heard: Heard, t0: float) -> float | None:
    """When the judgement now in force was first told, ``t0`` if it already was then (nothing
    set down: two empty pans stay balanced), or None."""
    at: float | None = None
    for w in heard.weights:
        if w.judgement is not None and at is None:
            at = w.t
        elif w.judgement is None:
            at = None
    return None if at is None else max(at, t0)


def weigh_sim(left_g: float, right_g: float | None = None, *, seed: int = 0, rate: int = 10,
              judge_s: float = JUDGE_S, cells: str = "ideal") -> dict[str, Any]:
    """Calibrate simulated pans, set the masses down together and wait for stability; returns
    {"left": {"grams", "stable_after_s"}, "right": {...}, "verdict", "judged_after_s"} (right,
    verdict and judged_after_s only with two masses; no verdict if the pans never settled
    together for ``judge_s``). Times are virtual seconds from the set-down; grams to 0.01 g,
    taken when the verdict was given (with one mass: at its first stable state); a pan too
    heavy to weigh has grams None and "overload" True. ``cells``
    as for ``sim_physics``."""
    pans = ("left", "right") if right_g is not None else ("left",)
    masses = {"left": left_g, "right": right_g}
    scales = Scales.simulated(pans, seed=seed, rate=rate, judge_s=judge_s,
                              physics=sim_physics(cells))
    assert scales.sim is not None
    try:
        heard = Heard.on(scales)
        scales.sim.run_for(1.0)
        calibrate(scales, pans, SIM_MASSES_G[cells])
        scales.sim.run_for(0.5)
        t0 = scales.sim.now()
        for p in pans:
            if masses[p]:
                scales.sim.put(p, float(masses[p]))  # type: ignore[arg-type]
        got = wait_stable(scales, heard, pans, after=t0,
                          expect_g={p: float(masses[p] or 0.0) for p in pans})
        raw: dict[str, float | None] = {}
        for p in pans:
            r = got[p]
            raw[p] = r[1] if r is not None else scales.snapshot(p).grams
        extra: dict[str, Any] = {}
        if right_g is not None and all(got[p] is not None for p in pans):
            stable_at = max(r[0] for r in got.values() if r is not None)
            while scales.judgement() is None and scales.sim.now() < t0 + TIMEOUT_S:
                _step(scales)
            judgement = scales.judgement()
            judged_at = _judged_since(heard, t0)
            if judgement is not None and judged_at is not None:
                raw = {"left": judgement.first_g, "right": judgement.second_g}
                extra = {"verdict": judgement.verdict,
                         "judged_after_s": round(max(judged_at, stable_at) - t0, 3)}
        out: dict[str, Any] = {}
        for p in pans:
            r, g = got[p], raw[p]
            out[p] = {"grams": None if g is None else round(g, 2) + 0.0,
                      "stable_after_s": None if r is None else round(r[0] - t0, 3)}
            if scales.snapshot(p).overload:  # beyond the range: never a number
                out[p].update(grams=None, stable_after_s=None, overload=True)
        out.update(extra)
        return out
    finally:
        scales.close()


__all__ = ["Heard", "LOADS_NAME", "TIMEOUT_S", "calibrate", "hold_still", "lay", "restore_loads",
           "save_loads", "wait_stable", "weigh_sim"]
