"""Benchmark of Tante Trudels Trödel's weighing: a basket against the Purchase of the Day.

    python benchmarks/trudel.py [--trials 1050] [--rates 10 80] [--no-close-calls] [--json FILE]

What runs: the device's own parts on simulated pans, as ``spielleiter sim`` builds them (the
bit-level HX711 twins behind the SPI reader, ``Scales`` with its channels and the two-pan
``Judge``, the runtime on a ManualClock), and the referee's ``JobWeigher``
(device/modes/tante_trudels_troedel/weighing.py) exactly as a game uses it. Per block, the
Purchase of the Day (three items of 2-6 g, to 0.1 g) is set on the left pan and weighed; then each
trial sets a basket on the right pan that differs from it by 0.1, 0.2 or 0.3 g (either way) or
not at all, the player presses "all on" at once, and in one trial in ten a hand presses on the
right pan (5-60 g for 0.6-2 s) just as "all on" is pressed. In one trial in five the basket goes on
item by item (three parts, 1.5 s apart; "all on" after the last), as a child does it. The
JobWeigher reads a basket once it has been still for ``BASKET_HOLD_S`` (at least ``judge_s``) since
"all on", the Purchase after ``POTD_HOLD_S`` (``--hold``/``--potd-hold`` try others). The
verdict is the engine's:
``trudel_rules.verdict`` of the basket's grams against the Purchase's measured grams (tie band
0.05 g); right means equal to the verdict of the true masses.

A basket's job carries the engine's Purchase, as in a game, so a close call (a reading within
the drift bound of the tie band's edge) is substituted: the child, ``READ_S`` after each screen,
takes the basket off, moves the Purchase onto the basket's pan and presses "all on"; afterwards it
goes back to its own pan. Those baskets are counted apart ("its close calls"), their times
include the child's reading; ``--no-close-calls`` weighs as before the substitution existed.

Baseline, same run and same samples: the right pan's first "stable" event after the set-down,
compared at once (no joint stability, no ``judge_s``, no "all on").

"While the pan moved": at the moment of the verdict a hand was on either pan, or a set-down's ramp
or wobble had not yet died down to 1 mg (``SimPan.quiet_at``). Times are virtual seconds from the
set-down to the verdict, over the baskets set down whole; the referee checks every 0.1 s, which
the figures include.

Prints every figure and PASS/MISS per target; the exit status is 0 either way (it is a report).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from spielleiter.device.config import core as config_mod
from spielleiter.device.box import Box
from spielleiter.device.modes.tante_trudels_troedel.weighing import (BASKET_HOLD_S, POTD_HOLD_S,
                                                                    Job, JobWeigher)
from spielleiter.device.runtime import ManualClock
from spielleiter.drivers.buttons import mock_factory
from spielleiter.drivers.display import open_device
from spielleiter.games.trudel_rules import verdict

TIE_BAND_G = 0.05
HOLD_S = BASKET_HOLD_S
DIFFS = (-0.3, -0.2, -0.1, 0.0, 0.1, 0.2, 0.3)
BLOCK = 25          # trials per Purchase of the Day
PRESS_SHARE = 0.1   # trials with a hand on the right pan at "all on"
SPLIT_SHARE = 0.2   # trials where the basket goes on item by item (three, 1.5 s apart)
SPLIT_GAP_S = 1.5
TIMEOUT_S = 12.0
READ_S = 1.0        # a child reads a new screen before doing what it asks (a close call)
STEP_S = 0.05


@dataclass
class Tally:
    trials: int = 0
    right: int = 0
    undecided: int = 0
    moved: int = 0
    moved_hand: int = 0
    split_right: int = 0
    split: int = 0
    wrong: list = field(default_factory=list)
    after_s: list = field(default_factory=list)
    calm_s: list = field(default_factory=list)  # trials without a hand on the pan
    equal_balanced: int = 0
    equal: int = 0

    def add(self, want: str, got: str | None, after: float | None, moved: str,
            detail: tuple) -> None:
        self.trials += 1
        if detail[3]:
            self.split += 1
            self.split_right += got == want
        if got is None:
            self.undecided += 1
            return
        self.right += got == want
        if got != want:
            self.wrong.append(detail)
        self.moved += bool(moved)
        self.moved_hand += moved == "hand"
        if after is not None and not detail[3]:  # times: baskets set down whole
            self.after_s.append(after)
            if not detail[2] and not detail[3]:
                self.calm_s.append(after)
        if want == "balanced":
            self.equal += 1
            self.equal_balanced += got == "balanced"

    def summary(self) -> dict:
        times, calm = sorted(self.after_s), sorted(self.calm_s)

        def q(p: float, values: list = times) -> float:
            return values[min(len(values) - 1, int(p * len(values)))] if values else float("nan")

        return {"calm_p50_s": q(0.5, calm), "calm_p95_s": q(0.95, calm),
                "trials": self.trials, "right": self.right, "undecided": self.undecided,
                "right_pct": 100.0 * self.right / max(1, self.trials - self.undecided),
                "moved": self.moved, "moved_hand": self.moved_hand,
                "item_by_item": f"{self.split_right}/{self.split}",
                "equal_balanced": f"{self.equal_balanced}/{self.equal}",
                "p50_s": q(0.5), "p95_s": q(0.95), "max_s": times[-1] if times else None,
                "mean_s": statistics.fmean(times) if times else None,
                "wrong": self.wrong[:10]}


def build(rate: int, state_dir: Path) -> Box:
    raw = config_mod.read(None)
    for pan in ("left", "right"):
        raw["loadcells"][pan]["rate"] = rate
    return Box.build(config_mod.validate(raw), state_dir, pin_factory=mock_factory(),
                     display_device=open_device("dummy"), clock=ManualClock(),
                     seed_source=lambda: 1)


def moving(box: Box, t: float) -> str:
    """The truth at sample time t: "hand" (a hand on a pan), "wobble" (a set-down still ramping
    or wobbling by more than 1 mg) or "" (still)."""
    assert box.scales is not None and box.scales.sim is not None
    cells = box.scales.sim.cells.values()
    if any(cell.pan.busy_until(t) for cell in cells):
        return "hand"
    return "wobble" if any(t < cell.pan.quiet_at for cell in cells) else ""


def run_until(box: Box, done: callable, timeout_s: float) -> bool:
    end = box.scales.sim.now() + timeout_s  # type: ignore[union-attr]
    while not done():
        if box.scales.sim.now() >= end:  # type: ignore[union-attr]
            return False
        box.idle(STEP_S)
    return True


def weigh(box: Box, job: Job, hold_s: float) -> tuple[JobWeigher, list]:
    """A JobWeigher for ``job``, past its empty-pan check; ``got`` fills with (grams, time)."""
    got: list = []
    sim = box.scales.sim  # type: ignore[union-attr]
    weigher = JobWeigher(job, box.scales, lambda g: got.append((g, sim.now())), hold_s)
    box.scales.listeners.append(weigher.on_weight)  # told what the referee is told
    if not run_until(box, lambda: weigher.stage == "load", TIMEOUT_S):
        raise RuntimeError("the pan never settled empty")
    return weigher, got


def done(box: Box, weigher: JobWeigher) -> None:
    weigher.stop()
    box.scales.listeners.remove(weigher.on_weight)  # type: ignore[union-attr]


def run_rate(rate: int, trials: int, seed: int, hold_s: float, potd_hold_s: float,
             close: bool = True) -> dict:
    rng = random.Random(seed * 1000 + rate)
    ours, naive, swaps = Tally(), Tally(), Tally()  # swaps: the close calls (substituted)
    with tempfile.TemporaryDirectory() as tmp, build(rate, Path(tmp)) as box:
        box.runtime.pump()
        sim = box.scales.sim  # type: ignore[union-attr]
        stable_events: list = []
        box.scales.listeners.append(  # the truth is taken as the event happens  # type: ignore
            lambda e: stable_events.append((e, moving(box, e.t)))
            if e.kind == "stable" and e.pan == "right" else None)
        box.idle(2.0)
        potd_true = potd_g = 0.0
        for n in range(trials):
            if n % BLOCK == 0:  # a new Purchase of the Day on the left pan
                if potd_true:
                    box.put("left", -potd_true)
                    box.idle(1.5)
                potd_true = round(sum(rng.randint(20, 60) / 10 for _ in range(3)), 1)
                weigher, got = weigh(box, Job("potd", "maker", "left"), potd_hold_s)
                box.put("left", potd_true)
                weigher.all_on()
                run_until(box, lambda: bool(got), TIMEOUT_S)
                done(box, weigher)
                potd_g = got[0][0]
            diff = rng.choice(DIFFS)
            basket = round(potd_true + diff, 2)
            want = verdict(basket, potd_true, TIE_BAND_G)
            weigher, got = weigh(box, Job("basket", "P", "right", "left", potd_g, 3,
                                          potd_g=potd_g if close else None,
                                          band_g=TIE_BAND_G), hold_s)
            stable_events.clear()
            t_first = sim.now()
            split = rng.random() < SPLIT_SHARE
            if split:  # a child puts the items on one by one, "all on" after the last
                first_g = round(basket / 3 + rng.uniform(-0.5, 0.5), 1)
                second_g = round(basket / 3 + rng.uniform(-0.5, 0.5), 1)
                for part in (first_g, second_g):
                    sim.put("right", part)
                    box.idle(SPLIT_GAP_S)
                t0 = sim.put("right", round(basket - first_g - second_g, 2))
            else:
                t0 = sim.put("right", basket)
            pressed = rng.random() < PRESS_SHARE
            if pressed:
                sim.press("right", rng.uniform(5.0, 60.0), rng.uniform(0.6, 2.0))
            weigher.all_on()
            ok = run_until(box, lambda: bool(got) or weigher.stage == "swap_off", TIMEOUT_S)
            swapped = ok and not got
            if swapped:  # a close call: the child does what the screen asks (substitution)
                ok = substitute(box, weigher, got, basket, potd_true)
            done(box, weigher)
            detail = (round(potd_true, 2), basket, pressed, split)
            tally = swaps if swapped else ours
            if ok:
                grams, at = got[0]
                tally.add(want, verdict(grams, potd_g, TIE_BAND_G), at - t0, moving(box, at),
                          detail + (grams,))
            else:
                tally.add(want, None, None, "", detail)
            first = next(((e, m) for e, m in stable_events if e.t >= t_first), None)
            if first is None:
                naive.add(want, None, None, "", detail)
            else:
                event, moved = first
                naive.add(want, verdict(event.grams, potd_g, TIE_BAND_G), event.t - t0, moved,
                          detail + (round(event.grams, 2),))
            if swapped:  # the Purchase goes back where it lives
                box.put("right", -potd_true)
                box.idle(READ_S)
                box.put("left", potd_true)
                box.idle(1.5)
            else:
                box.put("right", -basket)
                box.idle(0.3)
    return {"ours": ours.summary(), "close_calls": swaps.summary(),
            "naive_first_stable": naive.summary()}


def substitute(box: Box, weigher: JobWeigher, got: list, basket: float, potd: float) -> bool:
    """The close call's substitution as a child does it, ``READ_S`` after each screen: the
    basket off its pan; then the Purchase from its own pan onto the basket's, and "all on"."""
    box.idle(READ_S)
    box.put("right", -basket)
    if not run_until(box, lambda: weigher.stage == "swap_on", TIMEOUT_S):
        return False
    box.idle(READ_S)
    box.put("left", -potd)
    box.put("right", potd)
    if weigher.all_on() is not None:
        return False
    return run_until(box, lambda: bool(got), TIMEOUT_S)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1050)
    parser.add_argument("--rates", type=int, nargs="+", default=[10, 80])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--hold", type=float, default=HOLD_S,
                        help="a basket's load still this long before its reading (s)")
    parser.add_argument("--no-close-calls", action="store_true",
                        help="weigh without the engine's Purchase: no close call substitutes "
                             "(the figures before the substitution)")
    parser.add_argument("--potd-hold", type=float, default=POTD_HOLD_S,
                        help="the Purchase's load still this long before its reading (s)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    report: dict = {"trials": args.trials, "rates": {}}
    checks = []
    for rate in args.rates:
        t = time.perf_counter()
        row = run_rate(rate, args.trials, args.seed, args.hold, args.potd_hold,
                       not args.no_close_calls)
        row["wall_s"] = round(time.perf_counter() - t, 1)
        report["rates"][rate] = row
        ours, base, swaps = row["ours"], row["naive_first_stable"], row["close_calls"]
        print(f"== {rate} SPS: {ours['trials']} baskets against the Purchase of the Day "
              f"({row['wall_s']} s) ==")
        for name, r in (("ours (JobWeigher: all on, held still)", ours),
                        ("  its close calls (substituted)", swaps),
                        ("naive (first stable, at once)", base)):
            if not r["trials"]:
                continue
            print(f"  {name:34s} right {r['right']}/{r['trials'] - r['undecided']} = "
                  f"{r['right_pct']:.2f} %, undecided {r['undecided']}, while moving "
                  f"{r['moved']} (a hand {r['moved_hand']}), item by item right "
                  f"{r['item_by_item']}, equal loads balanced {r['equal_balanced']}; "
                  f"set down whole, set-down to verdict p50 {r['p50_s']:.2f} s, "
                  f"p95 {r['p95_s']:.2f} s, max "
                  f"{r['max_s'] if r['max_s'] is None else round(r['max_s'], 2)} s; also without a "
                  f"hand p50 {r['calm_p50_s']:.2f} s, p95 {r['calm_p95_s']:.2f} s")
            if r["wrong"]:
                print(f"    wrong (potd, basket, hand, item by item, measured): {r['wrong']}")
        decided = ours["trials"] - ours["undecided"] + swaps["trials"] - swaps["undecided"]
        right = ours["right"] + swaps["right"]
        right_pct = 100.0 * right / max(1, decided)
        print(f"  close calls: {swaps['trials']} of {ours['trials'] + swaps['trials']} baskets "
              f"were substituted (the child's reading of two screens, {2 * READ_S:g} s, is in "
              f"their times)")
        checks += [
            (f"{rate} SPS: >= 1000 verdicts", decided >= 1000, f"{decided}"),
            (f"{rate} SPS: >= 99.9 % right", right_pct >= 99.9,
             f"{right}/{decided} = {right_pct:.2f} % (naive {base['right_pct']:.2f} %)"),
            (f"{rate} SPS: 0 verdicts while a pan moved", ours["moved"] + swaps["moved"] == 0,
             f"{ours['moved'] + swaps['moved']} (naive {base['moved']})"),
            (f"{rate} SPS: set-down to verdict p95 <= 1.5 s without a hand (not a close call)",
             rate != 10 or round(ours["calm_p95_s"], 3) <= 1.5,  # sums of 0.1 s periods
             f"{ours['calm_p95_s']:.2f} s"),
        ]
    print()
    for name, ok, detail in checks:
        print(f"{'PASS' if ok else 'MISS'}  {name}: {detail}")
    print(f"\n{sum(ok for _, ok, _ in checks)}/{len(checks)} targets met in "
          f"{time.perf_counter() - started:.0f} s (exit status is 0 either way)")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
