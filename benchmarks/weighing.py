"""Benchmark of the weighing chain against the naive way, on the simulated load cells.

    python benchmarks/weighing.py [--quick] [--workers N] [--json FILE] [--only KIND]

Ours: Integrity + the device's ``Scales`` (its ScaleChannel: spike median, motion band, settled
value). Naive: what users of
``get_raw_data(5)`` / ``get_units(10)`` do: wait a fixed time after setting the object down,
then take the mean of N reads (only the package's own rejects removed). Both see the same
simulated conversions in the same run. Accuracy and timing trials take whole conversions from
the simulated chip (``SimHX711.next_conversion``: same physics and noise, no bit timing); the
fault-injection part runs the bit-level chip through the SPI reader and through the real
``hx711`` package code on the fake RPi.GPIO.

Prints every figure and PASS/MISS per target. The exit status is 0 either way (it is a report).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass

from spielleiter.device.scales import Scales
from spielleiter.drivers import sim
from spielleiter.drivers.loadcell import (
    RAIL_HIGH, RAIL_LOW, RAIL_ONES, Integrity, LoadCellSample, LoadCellStatus, ReadAttempt,
    from_code, make_reader)
from spielleiter.drivers.weighing import (
    JUDGE_S, Calibration, Calibrator, Judge, result_of)
from spielleiter.drivers.weighing.range import RangeSettings
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
# --------------------------------------------------------------------------------------------


def fault_run(seed: int, rate: int, transport: str, seconds: float,
              profile: str | None = None) -> dict:
    """Masses come and go while spikes, disconnects (DOUT high and low), saturation and, for
    gpio, preemption hit the reader. Checks every accepted sample against the chip's own
    conversions and every gram value in quiet stretches against the truth (past the range:
    "too heavy", never a number)."""
    rng = random.Random(seed)
    clock = sim.VirtualClock()
    cell = sim.make_cell(clock, rate=rate, seed=seed, history=None)
    samples: list[LoadCellSample] = []
    statuses: list[LoadCellStatus] = []

    def on_event(ev):
        (samples if isinstance(ev, LoadCellSample) else statuses).append(ev)

    board = sim.FakeGpio(clock, seed=seed)
    ctx = sim.fake_gpio(board) if transport == "gpio" else None
    if ctx:
        ctx.__enter__()
    try:
        if profile:
            board.profile(profile)
        if transport == "gpio":
            board.preempt(0.003, 0.0001, 0.02)
        reader = make_reader("sim", "pan", on_event=on_event, cell=cell, rate=rate,
                             transport=transport, gpio=board)
        cal = Calibration(offset=cell.chip.offset_counts
                          + cell.pan.physics.pan_mass_g * cell.chip.counts_per_gram,
                          counts_per_gram=cell.chip.counts_per_gram)
        scales = Scales.fed(["pan"], rate=rate, calibrations={"pan": cal})
        cell.chip.faults.spike_prob = 0.003
        disconnect_latency = []
        reconnect_latency = []
        t = 1.0
        reader.pump(t)
        while t < seconds:
            action = rng.random()
            if action < 0.4:
                cell.pan.place(round(log_uniform(rng, 1, 300), 1))
            elif action < 0.6 and cell.pan.load_g > 0:
                cell.pan.remove(cell.pan.load_g)
            elif action < 0.75:
                mode = rng.choice(("high", "low"))
                was_connected = reader.connected
                cell.chip.disconnect(mode)
                t_off = clock.now()
                n = len(statuses)
                reader.pump(t_off + rng.uniform(0.6, 2.0))
                gone = [s for s in statuses[n:] if s.state == "disconnected"]
                if was_connected:  # a reader that never got data has nothing to lose
                    disconnect_latency.append(gone[0].t - t_off if gone else math.inf)
                cell.chip.reconnect()
                t_on = clock.now()
                n = len(samples)
                reader.pump(t_on + 1.5)
                back = samples[n:]
                reconnect_latency.append(back[0].t - t_on if back else math.inf)
            elif action < 0.85:
                cell.chip.faults.saturate = rng.choice(("high", "low"))
                reader.pump(clock.now() + rng.uniform(0.2, 1.0))
                cell.chip.faults.saturate = None
            t = clock.now() + rng.uniform(1.0, 3.0)
            reader.pump(t)
        stats = reader.stats
        reader.close()
    finally:
        if ctx:
            ctx.__exit__(None, None, None)
    history: dict[int, list] = {}
    for c in cell.chip.history:
        history.setdefault(c.code, []).append(c)

    def conversion_of(sample):
        """The chip conversion this sample was read from: same code, within two periods."""
        near = [c for c in history.get(sample.counts & 0xFFFFFF, ())
                if abs(c.t - sample.t) < 2.0 / rate]
        return min(near, key=lambda c: abs(c.t - sample.t)) if near else None

    foreign = settling = 0
    spikes_in = 0
    bad_grams = 0
    quiet = 0
    prev_cleans: list[float] = []
    top, edge = RangeSettings().max_g, RangeSettings().hysteresis_g
    for s in samples:
        conv = conversion_of(s)
        if conv is None:
            foreign += 1
            continue
        settling += conv.settling
        spikes_in += conv.spiked
        scales.on_sample(s)
        prev_cleans.append(conv.clean_g)
        window = prev_cleans[-6:]
        shot = scales.snapshot("pan")
        if len(window) == 6 and max(window) - min(window) < 0.05:
            if abs(conv.clean_g - top) <= edge:
                continue  # at the range's edge either answer is right
            quiet += 1
            if conv.clean_g > top:  # the masses added up past the range: "too heavy", no number
                bad_grams += not shot.overload or shot.grams is not None
            elif shot.grams is None or abs(shot.grams - conv.clean_g) > 0.5:
                bad_grams += 1
    return {"transport": transport, "rate": rate, "profile": profile or "default",
            "virtual_s": round(clock.now(), 1), "samples": len(samples),
            "stats": stats.to_json(), "foreign": foreign, "settling_accepted": settling,
            "spikes_accepted_by_integrity": spikes_in, "quiet_samples": quiet,
            "bad_grams": bad_grams, "preemptions": board.preemptions,
            "disconnect_latency_max": max(disconnect_latency, default=0.0),
            "disconnect_latency_n": len(disconnect_latency),
            "reconnect_latency_max": max(reconnect_latency, default=0.0)}


# --------------------------------------------------------------------------------------------
# Reporting
# --------------------------------------------------------------------------------------------


def merge_compares(parts: list[dict]) -> dict:
    """Sum the compare_trials results of several pan pairs; judged times as p50/p95/max."""
    out = {"trials": 0, "first_stable": 0, "undecided": 0, "after_3s": 0,
           "judged": {j: {"right": 0, "undecided": 0, "after_s": [], "wrong_masses": []}
                      for j in JUDGE_CANDIDATES_S}}
    for part in parts:
        for key in ("trials", "first_stable", "undecided", "after_3s"):
            out[key] += part[key]
        for j, row in part["judged"].items():
            out["judged"][j]["right"] += row["right"]
            out["judged"][j]["undecided"] += row["undecided"]
            out["judged"][j]["after_s"] += row["after_s"]
            out["judged"][j]["wrong_masses"] += row["wrong_masses"]
    for row in out["judged"].values():
        times = row.pop("after_s")
        row.update(p50_s=pct(times, 0.5), p95_s=pct(times, 0.95),
                   max_s=max(times, default=math.nan))
    return out


def wrong_bound(wrong: int, trials: int, confidence: float = 0.95) -> float:
    """Exact (Clopper-Pearson) one-sided upper bound on the rate of wrong verdicts."""
    if trials == 0:
        return math.nan

    def cdf(p: float) -> float:  # P(X <= wrong) for X ~ Binomial(trials, p)
        return sum(math.comb(trials, i) * p ** i * (1 - p) ** (trials - i)
                   for i in range(wrong + 1))

    lo, hi = wrong / trials, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) > 1 - confidence else (lo, mid)
    return hi


def pct(values, q):
    values = sorted(values)
    if not values:
        return math.nan
    k = min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))
    return values[k]


def _job(args):
    logging.disable(logging.WARNING)
    kind, seed, rate, count, extra = args
    if kind == "weigh":
        return kind, rate, weigh_trials(seed, rate, count)
    if kind == "press":
        return kind, rate, press_trials(seed, rate, count)
    if kind == "compare":
        return kind, rate, (extra, compare_trials(seed, rate, count, extra))
    return kind, rate, fault_run(seed, rate, *extra)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a tenth of the trials")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--pairs", type=int, default=None,
                    help="pan pairs per rate for the 0.1 g comparisons, 40 trials each "
                         "(default 50, a tenth with --quick)")
    ap.add_argument("--only", choices=("weigh", "press", "compare", "fault"),
                    help="run one kind of trial (its targets only) while exploring")
    ap.add_argument("--json", help="write all figures to this file")
    a = ap.parse_args(argv)
    logging.disable(logging.WARNING)  # the fault runs log every disconnect on purpose
    scale = 0.1 if a.quick else 1.0
    n_pans, per_pan = max(2, int(40 * scale)), 15
    n_cmp_pairs, per_pair = a.pairs or max(2, int(50 * scale)), 40
    jobs = []
    for rate in (10, 80):
        jobs += [("weigh", s, rate, per_pan, None) for s in range(n_pans)]
        jobs += [("press", s, rate, 10, None) for s in range(max(1, n_pans // 4))]
        jobs += [("compare", s, rate, per_pair, 0.1) for s in range(n_cmp_pairs)]
        jobs += [("compare", s + 1000, rate, per_pair // 4, 0.0)
                 for s in range(max(1, n_cmp_pairs // 5))]
        jobs += [("fault", 9000 + rate, rate, 0, ("spi", 240.0 * scale + 30)),
                 ("fault", 9100 + rate, rate, 0, ("gpio", 240.0 * scale + 30)),
                 ("fault", 9200 + rate, rate, 0, ("gpio", 20.0, "rpi-lgpio-zero2w"))]
    if a.only:
        jobs = [job for job in jobs if job[0] == a.only]
    t_start = time.perf_counter()
    with multiprocessing.Pool(a.workers) as pool:
        results = pool.map(_job, jobs, chunksize=1)
    elapsed = time.perf_counter() - t_start

    report: dict = {"elapsed_s": round(elapsed, 1), "rates": {}}
    checks: list[tuple[str, bool, str]] = []
    for rate in (10, 80):
        weighs = [w for k, r, res in results if k == "weigh" and r == rate for w in res]
        presses = [res for k, r, res in results if k == "press" and r == rate]
        cmps = [res for k, r, res in results if k == "compare" and r == rate]
        faults = [res for k, r, res in results if k == "fault" and r == rate]
        stable = [w.stable_after for w in weighs if w.stable_after is not None]
        errors = [abs(w.error) for w in weighs if w.error is not None]
        never = sum(w.stable_after is None for w in weighs)
        wobble_bad = sum(w.wobble_violation for w in weighs)
        moving = [w.moving_after for w in weighs if w.moving_after is not None]
        press_n = sum(n for n, _ in presses)
        press_bad = sum(b for _, b in presses)
        cmp01 = merge_compares([c for d, c in cmps if d == 0.1])
        cmp00 = merge_compares([c for d, c in cmps if d == 0.0])
        c_n, c_ok, c_und, c_later = (cmp01[k] for k in ("trials", "first_stable", "undecided",
                                                          "after_3s"))
        c_judged = cmp01["judged"][JUDGE_S]
        b_n, b_ok = cmp00["trials"], cmp00["judged"][JUDGE_S]["right"]
        reaching = [j for j, v in sorted(cmp01["judged"].items())
                    if c_n and v["right"] / c_n >= 0.999]
        # naive: the shortest fixed wait (known set-down time) after which the mean of N reads
        # meets an accuracy at p95; "to the same accuracy" read two ways: the 0.05 g target, and
        # the p95 error ours actually reached.
        ours_p95 = pct(stable, 0.95)
        ours_err95 = pct(errors, 0.95)

        def naive_time(n: int, accuracy: float) -> float:
            for d in NAIVE_DELAYS:
                errs = [abs(w.naive[(n, d)]) for w in weighs if w.naive[(n, d)] is not None]
                if pct(errs, 0.95) <= accuracy:
                    return d + n / rate
            return math.inf

        naive_rows = {}
        for n in NAIVE_N:
            naive_rows[n] = {
                "p95_error_at_0s": pct([abs(w.naive[(n, 0.0)]) for w in weighs
                                        if w.naive[(n, 0.0)] is not None], 0.95),
                "p95_error_after_1s": pct([abs(w.naive[(n, 1.0)]) for w in weighs
                                           if w.naive[(n, 1.0)] is not None], 0.95),
                "time_to_0.05g_s": naive_time(n, TOLERANCE_G),
                "time_to_ours_s": naive_time(n, ours_err95)}
        naive_tol = min(v["time_to_0.05g_s"] for v in naive_rows.values())
        naive_same = min(v["time_to_ours_s"] for v in naive_rows.values())
        habit = 1.0 + 10 / rate  # "wait a second, then get_units(10)"
        habit_err = naive_rows[10]["p95_error_after_1s"]
        fault_foreign = sum(f["foreign"] + f["settling_accepted"] for f in faults)
        fault_bad = sum(f["bad_grams"] for f in faults)
        row = {
            "weighings": len(weighs), "never_stable": never,
            "stable_after_s": {"p50": pct(stable, 0.5), "p95": pct(stable, 0.95),
                               "max": max(stable, default=math.nan)},
            "physics_clean_within_0.1g_s": {
                "p50": pct([w.clean_within_01 for w in weighs], 0.5),
                "p95": pct([w.clean_within_01 for w in weighs], 0.95)},
            "physics_clean_within_0.05g_s": {
                "p50": pct([w.clean_within_005 for w in weighs], 0.5),
                "p95": pct([w.clean_within_005 for w in weighs], 0.95)},
            "moving_event_after_s": {"p50": pct(moving, 0.5), "p95": pct(moving, 0.95)},
            "settled_error_g": {"p50": pct(errors, 0.5), "p95": pct(errors, 0.95),
                                "max": max(errors, default=math.nan)},
            "stable_during_wobble": wobble_bad,
            "press_trials": press_n, "stable_during_press": press_bad,
            "compare_0.1g": {"trials": c_n, "right": c_ok, "undecided": c_und,
                             "right_after_3s": c_later, "judged": cmp01["judged"],
                             "shortest_judge_s_at_99.9": reaching[0] if reaching else None},
            "compare_equal": {"trials": b_n, "balanced": b_ok,
                              "balanced_first_stable": cmp00["first_stable"]},
            "naive": naive_rows,
            "naive_time_to_0.05g_s": naive_tol, "naive_time_to_ours_s": naive_same,
            "speedup_same_accuracy": naive_same / ours_p95,
            "speedup_at_0.05g": naive_tol / ours_p95,
            "habit_wait1s_mean10": {"time_s": habit, "p95_error_g": habit_err,
                                    "speedup": habit / ours_p95},
            "faults": faults,
        }
        report["rates"][rate] = row
        lim = 1.5 if rate == 10 else 0.5
        chip_p95 = row["physics_clean_within_0.05g_s"]["p95"]
        checks += [
            (f"{rate} SPS settled value within 0.05 g at p95",
             row["settled_error_g"]["p95"] <= TOLERANCE_G and never == 0,
             f"p95 {row['settled_error_g']['p95']:.4f} g, never stable {never}"),
            (f"{rate} SPS stable within {lim} s of set-down at p95", ours_p95 <= lim,
             f"p95 {ours_p95:.3f} s"),
            (f"{rate} SPS stable within 1.5x the chip's own settling at p95 (issue 20)",
             ours_p95 <= 1.5 * chip_p95,
             f"{ours_p95:.3f} s against the noise-free chip output within 0.05 g at "
             f"{chip_p95:.3f} s: {ours_p95 / chip_p95:.3f}x"),
            (f"{rate} SPS never stable during the wobble", wobble_bad == 0,
             f"{wobble_bad} of {len(weighs)}"),
            (f"{rate} SPS never stable during a hand press", press_bad == 0,
             f"{press_bad} of {press_n}"),
            (f"{rate} SPS judged comparisons right >= 99.9 % at 0.1 g (judge_s {JUDGE_S:g} s)",
             c_n and c_judged["right"] / c_n >= 0.999,
             f"{c_judged['right']}/{c_n} = {100 * c_judged['right'] / max(1, c_n):.2f} %, "
             f"judged after p95 {c_judged['p95_s']:.2f} s; at the first stable state "
             f"{c_ok}/{c_n} = {100 * c_ok / max(1, c_n):.2f} %"),
            (f"{rate} SPS no corrupted sample reaches grams under faults",
             fault_foreign == 0 and fault_bad == 0,
             f"foreign/settling accepted {fault_foreign}, bad grams {fault_bad}"),
            (f"{rate} SPS disconnect reported within 0.5 s",
             all(f["disconnect_latency_max"] <= 0.5 for f in faults if f["disconnect_latency_n"]),
             "max " + ", ".join(f"{f['transport']}/{f['profile']} "
                                f"{f['disconnect_latency_max']:.3f} s" for f in faults
                                if f["disconnect_latency_n"])),
            (f"{rate} SPS at least 2x faster than naive to the same accuracy (ours: p95 "
             f"{ours_err95:.3f} g)", row["speedup_same_accuracy"] >= 2.0,
             f"naive {naive_same:.2f} s vs ours p95 {ours_p95:.3f} s = "
             f"{row['speedup_same_accuracy']:.2f}x"),
            (f"{rate} SPS (stricter reading) 2x faster than naive to 0.05 g",
             row["speedup_at_0.05g"] >= 2.0,
             f"naive {naive_tol:.2f} s vs ours p95 {ours_p95:.3f} s = "
             f"{row['speedup_at_0.05g']:.2f}x"),
        ]

    for rate, row in report["rates"].items():
        print(f"\n== {rate} SPS: {row['weighings']} weighings 1-500 g ==")
        for key in ("stable_after_s", "physics_clean_within_0.1g_s",
                    "physics_clean_within_0.05g_s", "moving_event_after_s", "settled_error_g"):
            print(f"  {key:24s} " + "  ".join(f"{k} {v:.4f}" for k, v in row[key].items()))
        print(f"  never stable {row['never_stable']}, stable during wobble "
              f"{row['stable_during_wobble']}, during press {row['stable_during_press']}/"
              f"{row['press_trials']}")
        c = row["compare_0.1g"]
        print(f"  compare at 0.1 g: {c['right']}/{c['trials']} right at first stable, "
              f"{c['right_after_3s']}/{c['trials']} 3 s after set-down, {c['undecided']} undecided;"
              f" equal masses balanced {row['compare_equal']['balanced']}/"
              f"{row['compare_equal']['trials']} (judged)")
        for judge_s, v in sorted(c["judged"].items()):
            print(f"    judge_s {judge_s:4.2f} s: {v['right']}/{c['trials']} right "
                  f"({100 * v['right'] / max(1, c['trials']):.2f} %), {v['undecided']} undecided,"
                  f" verdict after set-down p50 {v['p50_s']:.2f} s, p95 {v['p95_s']:.2f} s, "
                  f"max {v['max_s']:.2f} s; wrong at {sorted(v['wrong_masses'])} g")
        print(f"    shortest judge_s with >= 99.9 % right: {c['shortest_judge_s_at_99.9']}; "
              "95 % upper bound on wrong verdicts: " + ", ".join(
                  f"{j:g} s {100 * wrong_bound(c['trials'] - v['right'], c['trials']):.3f} %"
                  for j, v in sorted(c["judged"].items())))
        for n, v in row["naive"].items():
            print(f"  naive mean of {n:2d}: p95 error at once {v['p95_error_at_0s']:.3f} g, "
                  f"after 1 s wait {v['p95_error_after_1s']:.3f} g; shortest wait+reads to "
                  f"0.05 g p95 {v['time_to_0.05g_s']:.3f} s, to ours {v['time_to_ours_s']:.3f} s")
        h = row["habit_wait1s_mean10"]
        print(f"  habit (wait 1 s, mean of 10): {h['time_s']:.3f} s, p95 error "
              f"{h['p95_error_g']:.3f} g, ours is {h['speedup']:.2f}x faster")
        for f in row["faults"]:
            s = f["stats"]
            print(f"  faults {f['transport']:4s} {f['profile']:16s} {f['virtual_s']:6.1f} s: "
                  f"{f['samples']} samples, rejected {s['rejected']} (rail {s['rail']}, sat "
                  f"{s['saturated']}, stretched {s['stretched']}, misaligned {s['misaligned']}, "
                  f"settling {s['settling']}, cadence {s['out_of_cadence']}), disconnects "
                  f"{s['disconnects']}/{f['disconnect_latency_n']}, foreign {f['foreign']}, "
                  f"spikes past integrity {f['spikes_accepted_by_integrity']}, bad grams "
                  f"{f['bad_grams']}/{f['quiet_samples']}, disconnect max "
                  f"{f['disconnect_latency_max']:.3f} s, first sample after reconnect max "
                  f"{f['reconnect_latency_max']:.3f} s")
    print()
    for name, ok, detail in checks:
        print(f"{'PASS' if ok else 'MISS'}  {name}: {detail}")
    print(f"\n{sum(ok for _, ok, _ in checks)}/{len(checks)} targets met in {elapsed:.0f} s "
          "(exit status is 0 either way)")
    report["checks"] = [{"target": n, "pass": bool(ok), "detail": d} for n, ok, d in checks]
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(report, fh, indent=1, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
