"""The weighing benchmark's accuracy, timing and comparison trials (``weighing.py`` runs and
reports them): a simulated pan fed whole conversions through the device's ``Scales``, set-downs,
presses and two-pan comparisons, each against the truth and the naive reader in the same run."""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass

from spielleiter.device.pans.scales import Scales
from spielleiter.drivers import sim
from spielleiter.drivers.loadcell import (
    RAIL_HIGH, RAIL_LOW, RAIL_ONES, Integrity, LoadCellSample, ReadAttempt,
    from_code)
from spielleiter.drivers.weighing import (
    Calibrator, Judge, result_of)
from spielleiter.games.core import compare_grams


def compare(a_g: float, b_g: float, band_g: float) -> str:
    """The one tie-band rule (games.core.grams), as the judge words it."""
    return result_of(compare_grams(a_g, b_g, band_g))

TOLERANCE_G = 0.05
WOBBLE_G = 0.1  # "during the wobble": the noise-free chip output still this far from the truth
NAIVE_N = (5, 10, 20)
NAIVE_DELAYS = [round(0.05 * i, 2) for i in range(0, 81)]
TIE_BAND_G = 0.05
JUDGE_CANDIDATES_S = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0)  # joint stability before a verdict
COMPARE_RUN_S = 5.0  # each comparison trial runs this long after the set-down


# --------------------------------------------------------------------------------------------
# A pan read whole-conversion at a time
# --------------------------------------------------------------------------------------------


class FastPan:
    """One simulated cell, Integrity and the device's ``Scales`` (one pan, its channel), stepped
    one conversion at a time: the pipeline the box weighs with, fed faster than bit timing."""

    def __init__(self, seed: int, rate: int) -> None:
        self.clock = sim.VirtualClock()
        self.cell = sim.make_cell(self.clock, rate=rate, seed=seed)
        self.rate = rate
        self.integrity = Integrity("pan", rate, start=0.0)
        self.scales = Scales.fed(["pan"], rate=rate)  # uncalibrated (no range) until calibrate()
        self.scales.listeners.append(self._heard)
        self.log: list[tuple] | None = None  # (t, naive_g or None, stable, clean_g)
        self.trace: list[tuple] | None = None  # (t, settled_g, settled_since) for the judge
        self.events: list = []  # the pan's Weights

    def _heard(self, weight) -> None:
        self.events.append(weight)

    def snapshot(self):
        return self.scales.snapshot("pan")

    def run_until(self, t: float) -> None:
        chip, scales = self.cell.chip, self.scales
        channel = scales.pans["pan"].channel  # the naive reader's calibration is the same one
        while self.clock.now() < t:
            conv = chip.next_conversion()
            if conv is None:
                self.clock.advance(1.0 / self.rate)
                continue
            for ev in self.integrity.accept(ReadAttempt(conv.t, "ok", conv.code)):
                if isinstance(ev, LoadCellSample):
                    scales.on_sample(ev)
                    if self.trace is not None:
                        shot = self.snapshot()
                        self.trace.append((ev.t, shot.settled_g, shot.since))
            if self.log is not None:
                naive = None
                if conv.code not in (RAIL_HIGH, RAIL_LOW, RAIL_ONES):  # the package's rejects
                    naive = channel.calibration.grams(from_code(conv.code))
                self.log.append((conv.t, naive, channel.stable, conv.clean_g))

    def calibrate(self, mass_g: float = 200.0) -> None:
        """As ``device.scales_sim.calibrate``, through ``Scales.begin_calibration``: empty,
        known mass (each held still for its ``hold_s``), empty again and tare."""
        self.run_until(1.0)
        calibrator = Calibrator("pan", mass_g)
        for step in ("empty", "mass"):
            if step == "mass":
                self.cell.pan.place(mass_g)
            self.scales.begin_calibration(calibrator)
            while calibrator.step == step:
                self.run_until(self.clock.now() + 1.0 / self.rate)
        self.cell.pan.remove(mass_g)
        while self.snapshot().held_s() < 0.5:
            self.run_until(self.clock.now() + 1.0 / self.rate)
        self.scales.tare()

    def first_stable_after(self, t0: float, before_g: float, mass_g: float
                           ) -> tuple[float, float] | None:
        """The first stable state after ``t0`` that shows the new load (see SimScale)."""
        for ev in self.events:
            if ev.t >= t0 and ev.kind == "stable" and abs(ev.grams - before_g) >= 0.5 * mass_g:
                return ev.t, ev.grams
        return None


def log_uniform(rng: random.Random, lo: float, hi: float) -> float:
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


# --------------------------------------------------------------------------------------------
# Trials
# --------------------------------------------------------------------------------------------


@dataclass
class Weighing:
    mass: float
    stable_after: float | None
    error: float | None
    wobble_violation: bool
    moving_after: float | None
    naive: dict  # (N, D) -> error
    clean_within_01: float  # physics: when the noise-free chip output stays within 0.1 g
    clean_within_005: float


def weigh_trials(seed: int, rate: int, count: int) -> list[Weighing]:
    rng = random.Random(seed * 31 + rate)
    pan = FastPan(seed, rate)
    pan.calibrate()
    out = []
    for _ in range(count):
        mass = round(log_uniform(rng, 1.0, 500.0), 2)
        pan.run_until(pan.clock.now() + rng.uniform(0.3, 0.6))
        t0 = pan.clock.now() + rng.uniform(0, 1.0 / rate)
        pan.events = []
        pan.log = []
        truth_before = pan.cell.pan.load_g
        pan.cell.pan.place(mass, at=t0)
        truth = pan.cell.pan.load_g
        pan.run_until(t0 + max(NAIVE_DELAYS) + max(NAIVE_N) / rate + 0.2)
        got = pan.first_stable_after(t0, truth_before, mass)
        wob_end = max((t for t, _, _, clean in pan.log if abs(clean - truth) > WOBBLE_G),
                      default=t0)
        quiet_end = max((t for t, _, _, clean in pan.log if abs(clean - truth) > TOLERANCE_G),
                        default=t0)
        clean_at = {t: clean for t, _, _, clean in pan.log}
        violation = any(
            ev.kind == "stable" and t0 <= ev.t < wob_end
            and abs(clean_at.get(ev.t, truth) - truth_before) > WOBBLE_G  # chip saw it move
            and abs(clean_at.get(ev.t, truth) - truth) > WOBBLE_G
            for ev in pan.events)
        moving = next((ev.t - t0 for ev in pan.events if ev.kind == "moving" and ev.t >= t0),
                      None)
        naive = {}
        for n in NAIVE_N:
            for d in NAIVE_DELAYS:
                vals = [g for t, g, _, _ in pan.log if t >= t0 + d and g is not None][:n]
                naive[(n, d)] = statistics.fmean(vals) - truth if len(vals) == n else None
        out.append(Weighing(
            mass=mass, stable_after=None if got is None else got[0] - t0,
            error=None if got is None else got[1] - truth,
            wobble_violation=violation, moving_after=moving, naive=naive,
            clean_within_01=wob_end - t0, clean_within_005=quiet_end - t0))
        pan.log = None
        pan.cell.pan.remove(mass)
        pan.run_until(pan.clock.now() + 1.5)
    return out


def press_trials(seed: int, rate: int, count: int) -> tuple[int, int]:
    """A hand presses on a loaded pan; returns (trials, trials with 'stable' during the press)."""
    rng = random.Random(seed * 17 + rate)
    pan = FastPan(seed + 5000, rate)
    pan.calibrate()
    bad = 0
    for _ in range(count):
        pan.cell.pan.place(round(log_uniform(rng, 1.0, 300.0), 1))
        pan.run_until(pan.clock.now() + 2.0)
        t0 = pan.clock.now()
        dur = rng.uniform(0.6, 2.0)
        pan.cell.pan.press(log_uniform(rng, 5.0, 500.0), dur, at=t0)
        rise = min(0.25, dur / 3)
        pan.log = []
        pan.events = []
        pan.run_until(t0 + dur + 1.0)
        during = any(ev.kind == "stable" and t0 <= ev.t <= t0 + dur for ev in pan.events)
        held = any(st for t, _, st, _ in pan.log if t0 + rise <= t <= t0 + dur)
        bad += during or held
        pan.log = None
        pan.cell.pan.remove(pan.cell.pan.load_g)
        pan.run_until(pan.clock.now() + 1.5)
    return count, bad


def judged(left: list[tuple], right: list[tuple], t0: float, judge_s: float
           ) -> tuple[str, float] | None:
    """The first verdict a ``Judge`` with ``judge_s`` gives on two pans' traces after the
    set-down at ``t0`` (settled values that began before it are stale): (result, seconds)."""
    judge = Judge("left", "right", compare=compare_grams, judge_s=judge_s, tie_band_g=TIE_BAND_G)
    merged = sorted([(t, "left", g, since) for t, g, since in left]
                    + [(t, "right", g, since) for t, g, since in right])
    for t, pan, g, since in merged:
        fresh = since is not None and since >= t0
        got = judge.observe(pan, t, g if fresh else None, since if fresh else None)
        if got is not None:
            return got.result, t - t0
    return None


def compare_trials(seed: int, rate: int, count: int, diff: float) -> dict:
    """Two calibrated pans, masses ``diff`` apart (random side), set down together. Counts the
    right verdicts at the first stable state of both, 3 s after the set-down, and for each
    ``judge_s`` candidate the first judged verdict (and how long after the set-down it came)."""
    rng = random.Random(seed * 7 + rate + int(diff * 1000))
    left, right = FastPan(seed * 2 + 100_000, rate), FastPan(seed * 2 + 100_001, rate)
    left.calibrate()
    right.calibrate()
    out = {"trials": count, "first_stable": 0, "undecided": 0, "after_3s": 0,
           "judged": {j: {"right": 0, "undecided": 0, "after_s": [], "wrong_masses": []}
                      for j in JUDGE_CANDIDATES_S}}
    for _ in range(count):
        m = round(log_uniform(rng, 1.0, 500.0), 2)
        ml, mr = (m, m + diff) if rng.random() < 0.5 else (m + diff, m)
        t0 = max(left.clock.now(), right.clock.now()) + 0.3
        want = "balanced" if diff == 0 else ("lighter" if ml < mr else "heavier")
        at_3s = {}
        for p, mass in ((left, ml), (right, mr)):
            p.events = []
            p.run_until(t0)
            p.trace = []
            p.cell.pan.place(mass, at=t0)
            p.run_until(t0 + 3.0)
            at_3s[p] = p.snapshot().settled_g  # after 3 s of averaging
            p.run_until(t0 + COMPARE_RUN_S)
        a, b = left.first_stable_after(t0, 0.0, ml), right.first_stable_after(t0, 0.0, mr)
        if a is None or b is None:
            out["undecided"] += 1
        else:
            out["first_stable"] += compare(a[1], b[1], TIE_BAND_G) == want
        sl, sr = at_3s[left], at_3s[right]
        out["after_3s"] += sl is not None and sr is not None and compare(sl, sr, TIE_BAND_G) == want
        for judge_s, row in out["judged"].items():
            got = judged(left.trace, right.trace, t0, judge_s)
            if got is None:
                row["undecided"] += 1
            else:
                row["right"] += got[0] == want
                row["after_s"].append(got[1])
                if got[0] != want:
                    row["wrong_masses"].append(m)
        for p, mass in ((left, ml), (right, mr)):
            p.trace = None
            p.cell.pan.remove(mass)
            p.run_until(p.clock.now() + 1.5)
    return out


# --------------------------------------------------------------------------------------------
# Fault injection through the bit-level readers
