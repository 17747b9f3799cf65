"""Benchmark: an hour of play on cells that drift, creep, bend and hit their stops.

    python benchmarks/drift.py [--games 10] [--minutes 60] [--rate 10] [--workers 2]
        [--mix table|trudel|potd|weigher] [--span cells|batch|off] [--json FILE]

Each game: two realistic simulated pans (``PanPhysics.realistic()``: warm-up, the box warming by
10 K, creep, a bent cell, the overload stop at 600-800 g), calibrated cold at power-on by a
person with three known masses (200, 500, 100 g; the one-mass calibration is the first two of
those points), then ``--minutes`` of play: single weighings (1-500 g, held 20-120 s), Trudel-like
comparisons (both pans at once, 0.1 g apart or equal, judged by the device's Judge) and now and
then something too heavy (600-1500 g, the learning station's book). Every reader sees the same
conversions in the same run:

- ours: the device's ``Scales`` (channel with zero tracking, range, the judge), three masses;
- ours, one mass: the same with the 200 g calibration;
- no zero tracking: three masses, zero tracking off (what the drift alone does);
- ours, span learned: the same, with a thermometer on the first cell (``SimThermometer``) and
  the span's temperature coefficient learned from yesterday's calibration of the same cells
  made warm (``--warm-min`` after power-on) and today's made cold (``Calibration.learned_from``);
- naive: tare at power-on, then the mean of 10 conversions 1 s after the set-down
  (``get_units(10)``), with the 200 g calibration; a comparison compares two such means.

``--mix potd`` plays a Trudel game as the referee weighs it with two pans instead (see
``drift_trudel.play_potd``) and compares three ways of judging a basket against the Purchase; ``--mix
weigher`` judges by the Trudel Weigher's rule (substitution on a close call, ``drift_trudel.play_weigher``)
next to the plain reading, and checks the first pan's Purchase as the weigher does. ``--span``
chooses the span's temperature coefficient: each cell its own (the profile's default), both pans
the same, or none.

Prints the figures and PASS/MISS per target; exit status 0 either way (it is a report).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import random
import statistics
import sys

import drift_trudel  # the Trudel mixes, next to this script (sys.path[0])
from drift_common import PANS, Trial, p95, upper_bound, verdict_of

from spielleiter.device.scales import Scales
from spielleiter.drivers import sim
from spielleiter.drivers.loadcell import Integrity, LoadCellSample, ReadAttempt
from spielleiter.drivers.sim.cell_physics import CellProfile
from spielleiter.drivers.weighing import Calibration, Calibrator, ChannelSettings, ScaleChannel
from spielleiter.drivers.weighing.zero import ZeroSettings

MASSES = (200.0, 500.0, 100.0)
HELD_S = 0.5  # a settled value counts once it has averaged this long (the judge's judge_s)
NAIVE_WAIT_S, NAIVE_N = 1.0, 10
READERS = ("ours", "ours_1mass", "no_tracking", "ours_tempco")
THERMO_S = 10.0  # how often the box reads its thermometer


SPANS = ("cells", "batch", "off")


def physics(span: str = "cells") -> sim.PanPhysics:
    """The realistic twin, the box warming by 10 K. ``span``: "cells", each cell its own span
    temperature coefficient (the default profile); "batch", both pans the same one (cells of one
    batch that drift alike); "off", none (the figures before the span was modelled)."""
    extra = {"span_per_10k": (0.0, 0.0)} if span == "off" else {}
    return sim.PanPhysics.realistic(cell=CellProfile(box_rise_k=(10.0, 10.0), **extra))


class Game:
    """Two realistic pans, their Integrity, and every reader fed the same samples."""

    def __init__(self, seed: int, rate: int, span: str = "cells") -> None:
        self.rate = rate
        self.rng = random.Random(seed * 7717 + 5)
        self.clock = sim.VirtualClock()
        self.cells = {p: sim.make_cell(self.clock, rate=rate, seed=seed * 31 + i,
                                       physics=physics(span)) for i, p in enumerate(PANS)}
        first, second = (self.cells[p].pan for p in PANS)
        if span == "batch" and first.cell is not None and second.cell is not None:
            second.cell = dataclasses.replace(second.cell, span_per_k=first.cell.span_per_k)
        self.integrity = {p: Integrity(p, rate, start=0.0) for p in PANS}
        self.raw = {p: ScaleChannel(p, None, rate=rate) for p in PANS}  # for the calibration
        self.readers: dict[str, Scales] = {}
        self.naive_zero: dict[str, float] = {}
        self.cal1: dict[str, Calibration] = {}
        self.recent: dict[str, list[tuple[float, float]]] = {p: [] for p in PANS}  # naive counts
        self.watch: list[tuple[Trial, str]] = []
        self.thermo = sim.SimThermometer(self.cells[PANS[0]].pan, seed=seed)
        self.next_thermo = 0.0

    # -- the conversions, to every reader ------------------------------------------------------
    def run_until(self, t_end: float) -> None:
        cells = self.cells
        while self.clock.now() < t_end:
            nxt = min(PANS, key=lambda p: cells[p].chip.next_conversion_t)
            conv = cells[nxt].chip.next_conversion()
            if conv is None:
                continue
            for ev in self.integrity[nxt].accept(ReadAttempt(conv.t, "ok", conv.code)):
                if isinstance(ev, LoadCellSample):
                    self.sample(ev)

    def sample(self, ev: LoadCellSample) -> None:
        if ev.t >= self.next_thermo:
            self.next_thermo = ev.t + THERMO_S
            temp = self.thermo.read_c()
            for ch in self.raw.values():
                ch.set_temperature(temp)
            if "ours_tempco" in self.readers:
                self.readers["ours_tempco"].set_temperature(temp)
        if not self.readers:
            self.raw[ev.pan].feed(ev.t, ev.counts)
            return
        buf = self.recent[ev.pan]
        buf.append((ev.t, ev.counts))
        if len(buf) > 64:
            del buf[:32]
        for scales in self.readers.values():
            scales.on_sample(ev)
        for trial, pan in list(self.watch):
            self.observe(trial, pan, ev.t)

    # -- the person who calibrates -------------------------------------------------------------
    def capture(self) -> dict[str, Calibrator]:
        """The person's three-mass calibration of both pans, from now on."""
        self.run_until(self.clock.now() + 2.0)
        cals = {p: Calibrator(p, MASSES[0]) for p in PANS}

        def until(step: str) -> None:
            while any(c.step == step for c in cals.values()):
                self.run_until(self.clock.now() + 1.0 / self.rate)
                for p, c in cals.items():
                    if c.step == step:
                        c.capture(self.raw[p])
        until("empty")
        for i, mass in enumerate(MASSES):
            for p in PANS:
                if i:
                    cals[p].another(mass)
                self.cells[p].pan.place(mass)
            until("mass")
            for p in PANS:
                self.cells[p].pan.remove(mass)
            end = self.clock.now() + 8.0  # the person reads the screen, fetches the next mass
            while self.clock.now() < end:
                self.run_until(self.clock.now() + 1.0 / self.rate)
                for p, c in cals.items():
                    c.capture(self.raw[p])  # armed: it follows the empty pan's zero
        return cals

    def calibrate(self, warm: dict[str, Calibration] | None = None) -> None:
        """Calibrate cold at power-on; ``warm``: yesterday's calibrations made warm (the
        span-learned reader learns from them and today's)."""
        cals = self.capture()
        cal3 = {p: cals[p].result for p in PANS}
        self.cal1 = {p: Calibration.from_points(cals[p].points[:2]) for p in PANS}
        off = ChannelSettings.for_rate(self.rate, zero=ZeroSettings(
            band_g=0.0, rate_g_per_s=0.0, max_capture_g=0.0))
        self.readers = {"ours": Scales.fed(PANS, rate=self.rate, calibrations=cal3),
                        "ours_1mass": Scales.fed(PANS, rate=self.rate, calibrations=self.cal1),
                        "no_tracking": Scales.fed(PANS, rate=self.rate, calibrations=cal3)}
        if warm is not None:
            learned = {p: cal3[p].learned_from(warm[p]) for p in PANS}  # type: ignore[union-attr]
            self.readers["ours_tempco"] = Scales.fed(PANS, rate=self.rate, calibrations=learned)
            self.readers["ours_tempco"].set_temperature(self.thermo.read_c())
        for p in PANS:
            self.readers["no_tracking"].pans[p].channel = ScaleChannel(p, cal3[p], settings=off)
            self.readers["no_tracking"].pans[p].channel.set_calibration(cal3[p])
        self.run_until(self.clock.now() + 2.0)
        for p in PANS:  # the naive reader tares once, at power-on
            counts = [c for _, c in self.recent[p][-NAIVE_N:]]
            self.naive_zero[p] = self.cal1[p].grams(statistics.fmean(counts))

    # -- what a reader says about a trial ------------------------------------------------------
    def observe(self, trial: Trial, pan: str, t: float) -> None:
        got = trial.got
        for name, scales in self.readers.items():
            key = f"{name}:{pan}"
            if key in got:
                continue
            shot = scales.snapshot(pan)
            if trial.kind == "heavy":
                if shot.stable and shot.grams is not None and shot.grams > 1.0:
                    got[key] = {"number": shot.grams}
                elif t - trial.t0 > 8.0:
                    got[key] = {"overload": shot.overload}
                continue
            vkey = "verdict" if name == "ours" else f"verdict:{name}"
            if trial.kind == "compare" and name in ("ours", "ours_tempco"):
                j = scales.judgement()
                if j is not None and j.since >= trial.t0 and vkey not in got:
                    got[vkey] = {"v": j.result, "t": t - trial.t0, "a": j.first_g,
                                      "b": j.second_g}
            if (shot.stable and shot.since is not None and shot.since >= trial.t0
                    and shot.held_s() >= HELD_S - 1e-6 and shot.grams is not None
                    and abs(shot.grams - trial.loads[pan]) < 0.5 * trial.loads[pan] + 1):
                got[key] = {"g": shot.grams, "t": t - trial.t0}
        nkey = f"naive:{pan}"
        if nkey not in got and t >= trial.t0 + NAIVE_WAIT_S + NAIVE_N / self.rate:
            counts = [c for ts, c in self.recent[pan] if ts >= trial.t0 + NAIVE_WAIT_S]
            counts = counts[:NAIVE_N]
            if len(counts) == NAIVE_N:
                got[nkey] = {"g": self.cal1[pan].grams(statistics.fmean(counts))
                             - self.naive_zero[pan]}
        done = all(f"{n}:{pan}" in got for n in (*self.readers, "naive"))
        if trial.kind == "compare":
            done = done and ("verdict" in got or t - trial.t0 > 10.0)
        if done:
            self.watch = [(tr, p) for tr, p in self.watch if not (tr is trial and p == pan)]

    # -- an hour of play -----------------------------------------------------------------------
    def settle(self, pan: str, t0: float, hold_s: float, limit_s: float = 15.0) -> float | None:
        """Run until ``ours`` has a settled value on ``pan`` that began after ``t0`` and has
        averaged ``hold_s``; its grams (None after ``limit_s``)."""
        scales = self.readers["ours"]
        while self.clock.now() < t0 + limit_s:
            self.run_until(self.clock.now() + 1.0 / self.rate)
            shot = scales.snapshot(pan)
            if shot.stable and shot.since is not None and shot.since >= t0 and \
                    shot.held_s() >= hold_s - 1e-6 and shot.grams is not None:
                return shot.grams
        return None

    def play(self, minutes: float, mix: str = "table",
             potd_g: tuple[float, float] = (5.0, 450.0)) -> list[Trial]:
        """``mix`` "table": weighings, comparisons and heavy things, held 20-120 s; "trudel":
        mostly comparisons, held 5-20 s (a Trudel game's weighings), for many verdicts;
        "potd": ``play_potd``."""
        if mix == "potd":
            return drift_trudel.play_potd(self, minutes)
        if mix == "weigher":
            return drift_trudel.play_weigher(self, minutes, potd_g)
        rng, trials = self.rng, []
        end = self.clock.now() + minutes * 60.0
        hold, idle = ((20.0, 120.0), (10.0, 40.0)) if mix == "table" else ((5.0, 20.0), (5.0, 15.0))
        while self.clock.now() < end - 150:
            r = rng.random() if mix == "table" else 0.45 + 0.45 * rng.random()
            t0 = self.clock.now()
            if r < 0.45:
                pan = rng.choice(PANS)
                load = math.exp(rng.uniform(math.log(1.0), math.log(500.0)))
                trial = Trial("weigh", t0, {pan: load})
            elif r < 0.9:
                m = rng.uniform(5.0, 450.0)
                d = rng.choice((0.1, -0.1, 0.0))
                trial = Trial("compare", t0, {"left": m, "right": m + d})
            else:
                trial = Trial("heavy", t0, {rng.choice(PANS): rng.uniform(600.0, 1500.0)})
            for pan, load in trial.loads.items():
                self.cells[pan].pan.place(load)
                self.watch.append((trial, pan))
            self.run_until(t0 + 12.0)
            self.run_until(t0 + rng.uniform(*hold))
            for pan, load in trial.loads.items():
                self.cells[pan].pan.remove(load)
            self.run_until(self.clock.now() + rng.uniform(*idle))
            trials.append(trial)
        return trials


def warm_calibrations(seed: int, rate: int, span: str, warm_min: float) -> dict[str, Calibration]:
    """Yesterday: the same cells, calibrated by the same person ``warm_min`` after power-on."""
    day = Game(seed, rate, span)
    for p in PANS:
        day.cells[p].pan.power_on_at(-warm_min * 60.0)
    cals = day.capture()
    return {p: cals[p].result for p in PANS}  # type: ignore[misc]


def one_game(args: tuple[int, int, float, str, str, tuple[float, float], float]) -> list[dict]:
    seed, rate, minutes, mix, span, potd_g, warm_min = args
    game = Game(seed, rate, span)
    game.calibrate(warm_calibrations(seed, rate, span, warm_min) if warm_min > 0 else None)
    start = game.clock.now()
    return [{"kind": t.kind, "t": t.t0 - start, "loads": t.loads, "got": t.got}
            for t in game.play(minutes, mix, potd_g)]


def report(trials: list[dict], minutes: float) -> dict:
    out: dict = {}
    errors: dict[str, list[float]] = {n: [] for n in (*READERS, "naive")}
    late: dict[str, list[float]] = {n: [] for n in (*READERS, "naive")}
    for tr in trials:
        if tr["kind"] == "heavy":
            continue
        for pan, load in tr["loads"].items():
            for name in errors:
                got = tr["got"].get(f"{name}:{pan}")
                if got and "g" in got:
                    e = abs(got["g"] - load)
                    errors[name].append(e)
                    if tr["t"] >= (minutes - 20) * 60:
                        late[name].append(e)
    out["settled_p95_g"] = {n: p95(v) for n, v in errors.items()}
    out["settled_p95_last20min_g"] = {n: p95(v) for n, v in late.items()}
    out["settled_n"] = len(errors["ours"])
    right = {n: [0, 0] for n in ("ours", "naive", "ours_tempco")}
    missing = 0
    for tr in trials:
        if tr["kind"] != "compare":
            continue
        a, b = tr["loads"]["left"], tr["loads"]["right"]
        truth = verdict_of(a, b) if abs(a - b) > 1e-9 else "balanced"
        v = tr["got"].get("verdict")
        if v is None:
            missing += 1
        else:
            right["ours"][0] += v["v"] == truth
            right["ours"][1] += 1
        vt = tr["got"].get("verdict:ours_tempco")
        if vt is not None:
            right["ours_tempco"][0] += vt["v"] == truth
            right["ours_tempco"][1] += 1
        na, nb = tr["got"].get("naive:left"), tr["got"].get("naive:right")
        if na and nb:
            right["naive"][0] += verdict_of(na["g"], nb["g"]) == truth
            right["naive"][1] += 1
    out["verdicts_right_pct"] = {n: 100.0 * r / max(1, n_) for n, (r, n_) in right.items()}
    out["verdicts_wrong_bound_pct"] = upper_bound(right["ours"][1] - right["ours"][0],
                                                  right["ours"][1])
    out["verdicts_tempco"] = right["ours_tempco"]
    times = [tr["got"]["verdict"]["t"] for tr in trials
             if tr["kind"] == "compare" and tr["got"].get("verdict")]
    out["verdict_after_p95_s"] = p95(times)
    out["verdicts_n"] = right["ours"][1]
    out["verdicts_missing"] = missing
    heavy = [tr for tr in trials if tr["kind"] == "heavy"]
    numbers = sum(1 for tr in heavy for pan in tr["loads"]
                  if "number" in tr["got"].get(f"ours:{pan}", {}))
    shown = sum(1 for tr in heavy for pan in tr["loads"]
                if tr["got"].get(f"ours:{pan}", {}).get("overload"))
    out["heavy_n"] = len(heavy)
    out["heavy_numbers_ours"] = numbers
    out["heavy_shown_as_overload_ours"] = shown
    out["heavy_numbers_naive"] = sum(1 for tr in heavy for pan in tr["loads"]
                                     if tr["got"].get(f"naive:{pan}"))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--minutes", type=float, default=60.0)
    ap.add_argument("--rate", type=int, choices=(10, 80), default=10)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--mix", choices=("table", "trudel", "potd", "weigher"), default="table")
    ap.add_argument("--span", choices=SPANS, default="cells",
                    help="span temperature coefficient: each cell its own (default), both pans "
                         "the same (one batch), or none")
    ap.add_argument("--potd-g", type=float, nargs=2, default=(5.0, 450.0), metavar=("LO", "HI"),
                    help="--mix weigher: the Purchase's range in grams (the game's: 6 24)")
    ap.add_argument("--warm-min", type=float, default=60.0,
                    help="yesterday's warm calibration, minutes after power-on (0: none)")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    jobs = [(seed, args.rate, args.minutes, args.mix, args.span, tuple(args.potd_g), args.warm_min)
            for seed in range(1, args.games + 1)]
    if args.workers > 1:
        with multiprocessing.Pool(args.workers) as pool:
            results = pool.map(one_game, jobs)
    else:
        results = [one_game(j) for j in jobs]
    trials = [t for r in results for t in r]
    head = (f"drift: {args.games} games x {args.minutes:g} min at {args.rate} SPS, box +10 K, "
            f"mix {args.mix}, span {args.span}")
    if args.mix in ("weigher", "potd"):
        out = drift_trudel.print_report(args.mix, trials, head, tuple(args.potd_g))
        if args.json:
            with open(args.json, "w") as fh:
                json.dump(out, fh, indent=1)
        return 0
    out = report(trials, args.minutes)
    print(head)
    print(f"settled value |error| p95 over {out['settled_n']} weighings (1-500 g):")
    for name, v in out["settled_p95_g"].items():
        last = out["settled_p95_last20min_g"][name]
        print(f"  {name:12s} {v:7.3f} g   last 20 min {last:7.3f} g")
    ok = out["settled_p95_g"]["ours"] <= 0.05
    print(f"  target <= 0.05 g: ours {'PASS' if ok else 'MISS'}", end="")
    if out["settled_p95_g"]["ours_tempco"] == out["settled_p95_g"]["ours_tempco"]:  # not NaN
        ok = out["settled_p95_g"]["ours_tempco"] <= 0.05
        print(f", ours with the span learned {'PASS' if ok else 'MISS'}", end="")
    print()
    vr = out["verdicts_right_pct"]
    print(f"verdicts at 0.1 g right over {out['verdicts_n']} comparisons "
          f"({out['verdicts_missing']} without a verdict in 10 s): ours {vr['ours']:.2f} %, "
          f"(wrong: 95 % bound {out['verdicts_wrong_bound_pct']:.2f} %; verdict p95 "
          f"{out['verdict_after_p95_s']:.2f} s after set-down), naive {vr['naive']:.2f} %  "
          f"target >= 99.9 %: "
          f"{'PASS' if vr['ours'] >= 99.9 and not out['verdicts_missing'] else 'MISS'}"
          f", proven (bound < 0.1 %): "
          f"{'PASS' if out['verdicts_wrong_bound_pct'] < 0.1 else 'MISS'}")
    r, n = out["verdicts_tempco"]
    if n:
        print(f"  ours with the span learned: {r}/{n} = {100.0 * r / n:.2f} %, 95 % bound of "
              f"wrong {upper_bound(n - r, n):.2f} %")
    print(f"too heavy ({out['heavy_n']} items 600-1500 g): ours reported "
          f"{out['heavy_numbers_ours']} numbers, showed {out['heavy_shown_as_overload_ours']} as "
          f"overload; naive reported {out['heavy_numbers_naive']} numbers  target 0 numbers, all "
          f"shown: {'PASS' if not out['heavy_numbers_ours'] and out['heavy_shown_as_overload_ours'] == out['heavy_n'] else 'MISS'}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
