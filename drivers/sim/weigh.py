"""``weigh_sim``: calibrate simulated pans, set masses down, wait for the judged verdict; what
``spielleiter weigh --sim`` prints."""

from __future__ import annotations

from typing import Any

from ..weighing import JUDGE_S
from .scale import SimScale

TIMEOUT_S = 10.0  # virtual seconds after the set-down


def weigh_sim(left_g: float, right_g: float | None = None, *, seed: int = 0, rate: int = 10,
              judge_s: float = JUDGE_S) -> dict[str, Any]:
    """Calibrate simulated pans, set the masses down together and wait for stability; returns
    {"left": {"grams", "stable_after_s"}, "right": {...}, "verdict", "judged_after_s"} (right,
    verdict and judged_after_s only with two masses; no verdict if the pans never settled
    together for ``judge_s``). Times are virtual seconds from the set-down; grams to 0.01 g,
    taken when the verdict was given (with one mass: at its first stable state)."""
    pans = ("left", "right") if right_g is not None else ("left",)
    masses = {"left": left_g, "right": right_g}
    with SimScale(pans, seed=seed, rate=rate, judge_s=judge_s) as scale:
        scale.run_for(1.0)
        scale.calibrate(pans)
        scale.run_for(0.5)
        t0 = scale.now()
        for p in pans:
            if masses[p]:
                scale.put(p, float(masses[p]))  # type: ignore[arg-type]
        got = scale.wait_stable(pans, after=t0, timeout_s=TIMEOUT_S,
                                expect_g={p: float(masses[p] or 0.0) for p in pans})
        raw: dict[str, float | None] = {}
        for p in pans:
            r = got[p]
            raw[p] = r[1] if r is not None else scale.channels[p].grams
        extra: dict[str, Any] = {}
        if right_g is not None and all(got[p] is not None for p in pans):
            stable_at = max(r[0] for r in got.values() if r is not None)
            while scale.judgement is None and scale.now() < t0 + TIMEOUT_S:
                scale.run_for(1.0 / rate)
            judgement, judged_at = scale.judgement, scale.judged_at
            if judgement is not None and judged_at is not None:
                raw = {"left": judgement.first_g, "right": judgement.second_g}
                extra = {"verdict": judgement.verdict,
                         "judged_after_s": round(max(judged_at, stable_at) - t0, 3)}
        out: dict[str, Any] = {}
        for p in pans:
            r, g = got[p], raw[p]
            out[p] = {"grams": None if g is None else round(g, 2) + 0.0,
                      "stable_after_s": None if r is None else round(r[0] - t0, 3)}
        out.update(extra)
        return out


__all__ = ["weigh_sim"]
