"""One game of the drift benchmark (``drift.py`` runs and reports them): two realistic
simulated pans calibrated cold by a person, then an hour of play read by every reader at
once (ours, one mass, no zero tracking, span learned, naive)."""

from __future__ import annotations

import dataclasses
import math
import random
import statistics

import drift_trudel  # the Trudel mixes, next to this script (sys.path[0])
from drift_common import PANS, Trial

from spielleiter.device.pans.scales import Scales
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
