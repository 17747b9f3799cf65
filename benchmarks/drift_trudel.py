"""The Trudel mixes of benchmarks/drift.py: a game as the referee weighs it with two pans
(``--mix potd``: three ways of judging a basket against the Purchase) and the referee's own
``JobWeigher`` with its substitution on a close call (``--mix weigher``). ``game`` is drift.py's
``Game``: its realistic pans, clock and readers."""

from __future__ import annotations

from typing import Any

from drift_common import BAND_G, PANS, Trial, p95, upper_bound, verdict_of
from spielleiter.device.modes.tante_trudels_troedel.memory import Reference
from spielleiter.device.modes.tante_trudels_troedel.weighing import Job, JobWeigher

POTD_HOLD_S, BASKET_HOLD_S = 2.0, 1.0  # Trudel's holds (tante_trudels_troedel/weighing.py)
POTD_TOL_G = 0.5  # ... and how far the first pan may read the Purchase from its number
SWAP_REUSE_S = 300.0


def play_potd(game: Any, minutes: float) -> list[Trial]:
    """A Trudel game as the referee weighs it with two pans: the Purchase (5-450 g) weighed
    once at the start on the first pan and left there; each basket (the Purchase's weight,
    0.1 g more or less, or the same) on the second pan, held 5-20 s; before each basket the
    Purchase is weighed on the second pan too (for the substitution). The verdicts per basket
    (``WAYS``): "coded" (the basket's grams against the Purchase's number from the start, what
    the referee does today with two pans), "one" (the same on one pan: the number is the
    Purchase weighed on the basket's pan at the start), "both" (the judge: both pans at the
    same time), "swap" (the Purchase weighed on the basket's pan just before the basket:
    substitution) and "swap5" (that weighing reused for 5 minutes). "check": how far the
    first pan's reading of the Purchase is from its number (the weigher's ``POTD_TOL_G``)."""
    rng, trials = game.rng, []
    potd = rng.uniform(5.0, 450.0)
    left, right = PANS
    t0 = game.clock.now()
    game.cells[left].pan.place(potd)
    number = game.settle(left, t0, POTD_HOLD_S)
    end = t0 + minutes * 60.0
    first_ref: float | None = None
    tracked = number
    block: tuple[float, float] | None = None  # (when, grams) of the reused substitution
    while number is not None and game.clock.now() < end - 60:
        t1 = game.clock.now()
        game.cells[right].pan.place(potd)  # the substitution's reference
        ref = game.settle(right, t1, POTD_HOLD_S)
        game.cells[right].pan.remove(potd)
        if ref is not None:
            first_ref = ref if first_ref is None else first_ref
            if block is None or t1 - block[0] > SWAP_REUSE_S:
                block = (t1, ref)
        game.run_until(game.clock.now() + 3.0)
        d = rng.choice((0.1, -0.1, 0.0))
        trial = Trial("basket", game.clock.now(), {left: potd, right: potd + d})
        game.cells[right].pan.place(potd + d)
        basket = game.settle(right, trial.t0, BASKET_HOLD_S)
        j = game.readers["ours"].judgement()
        got = trial.got
        if basket is not None:
            for way, against in (("coded", number), ("one", first_ref), ("swap", ref),
                                 ("swap5", None if block is None else block[1])):
                if against is not None:
                    got[way] = {"v": verdict_of(basket, against), "e": basket - against - d}
        if j is not None and j.since >= trial.t0:
            got["both"] = {"v": verdict_of(j.second_g, j.first_g),
                           "e": j.second_g - j.first_g - d}
            got["check"] = {"e": j.first_g - number}
            if tracked is not None:  # the referee's reference: the last accepted reading
                got["check_tracked"] = {"e": j.first_g - tracked}
            tracked = j.first_g
        game.run_until(game.clock.now() + rng.uniform(5.0, 20.0))
        game.cells[right].pan.remove(potd + d)
        game.run_until(game.clock.now() + rng.uniform(5.0, 15.0))
        trials.append(trial)
    return trials


def play_weigher(game: Any, minutes: float, potd_g: tuple[float, float] = (5.0, 450.0)
                 ) -> list[Trial]:
    """A Trudel game with two pans, each basket judged by the referee's own ``JobWeigher``
    (device/modes/tante_trudels_troedel/weighing.py) on the ``ours`` Scales: the Purchase
    (``potd_g``, default 5-450 g; the game's own is 6-24 g, its ``Measurement``) weighed
    once on the first pan and left there; each basket (its weight, 0.1 g more or less, or
    the same) on the second, "all on" 1 s after the set-down. The person does what the
    screens ask: on a close call the basket comes off, the Purchase moves onto the second pan,
    "all on"; after the verdict the Purchase goes back. The first pan's check uses the
    referee's tracked reference (``memory.Reference``). Recorded per basket: "weigher" (the
    verdict of the grams the JobWeigher gives the engine, and whether it substituted), "plain"
    (the basket's own reading against the Purchase's number, today's verdict), "ref_today"
    (the first pan's Purchase beyond ``POTD_TOL_G`` of its number, today's refusal) and
    "refused" (the JobWeigher said "Purchase missing/extra" though it lay there alone)."""
    rng, trials = game.rng, []
    potd = rng.uniform(*potd_g)
    left, right = PANS
    pans, scales = game.cells, game.readers["ours"]
    t0 = game.clock.now()
    pans[left].pan.place(potd)
    number = game.settle(left, t0, POTD_HOLD_S)
    end = t0 + minutes * 60.0
    ref = Reference(number) if number is not None else None
    while number is not None and ref is not None and game.clock.now() < end - 60:
        d = rng.choice((0.1, -0.1, 0.0))
        trial = Trial("basket", game.clock.now(), {left: potd, right: potd + d})
        given: list[float] = []
        job = Job("basket", "p", right, left, ref.g, 1, len(trials), potd_g=number,
                  band_g=BAND_G, ref_tol_g=ref.tol_g(number))
        weigher = JobWeigher(job, scales, given.append, BASKET_HOLD_S)
        scales.listeners.append(weigher.on_weight)  # told what the referee is told
        refused = False

        def wait(stages: tuple[str, ...], limit_s: float = 20.0) -> bool:
            nonlocal refused
            t_end = game.clock.now() + limit_s
            while weigher.stage not in stages and game.clock.now() < t_end:
                game.run_until(game.clock.now() + 1.0 / game.rate)
                refused = refused or weigher.note in ("potd_missing", "potd_extra")
            return weigher.stage in stages

        if not wait(("load",)):
            trials.append(trial)
            break
        pans[right].pan.place(potd + d)
        game.run_until(game.clock.now() + 1.0)
        weigher.all_on()
        wait(("done", "swap_off"))
        j = scales.judgement()
        if j is not None:
            trial.got["ref_today"] = {"off": abs(j.first_g - number) > POTD_TOL_G}
        if weigher.stage == "swap_off":
            game.run_until(game.clock.now() + rng.uniform(1.0, 3.0))
            pans[right].pan.remove(potd + d)
            wait(("swap_on",))
            game.run_until(game.clock.now() + 1.0)
            pans[left].pan.remove(potd)
            pans[right].pan.place(potd)
            game.run_until(game.clock.now() + 1.0)
            weigher.all_on()
            wait(("done",))
        weigher.stop()
        scales.listeners.remove(weigher.on_weight)
        trial.got["refused"] = {"n": int(refused)}
        if given:
            basket = weigher.basket_g if weigher.basket_g is not None else given[0]
            swapped = weigher.purchase_now_g is not None
            trial.got["weigher"] = {"v": verdict_of(given[0], number),
                                    "e": given[0] - number - d, "swap": swapped}
            trial.got["plain"] = {"v": verdict_of(round(basket, 2), number),
                                  "e": basket - number - d}
            if swapped and weigher.purchase_now_g is not None:
                ref = Reference(weigher.purchase_now_g, cross=True, away=True)
            elif weigher.ref_read_g is not None:
                ref = Reference(weigher.ref_read_g)
        game.run_until(game.clock.now() + rng.uniform(2.0, 5.0))
        if weigher.purchase_now_g is not None:
            pans[right].pan.remove(potd)
            pans[left].pan.place(potd)  # back where it lives
        else:
            pans[right].pan.remove(potd + d)
        game.run_until(game.clock.now() + rng.uniform(5.0, 15.0))
        trials.append(trial)
    return trials


WAYS = ("coded", "one", "both", "swap", "swap5")


def verdicts(trials: list[dict], way: str) -> dict:
    """How often ``way``'s verdict on a basket was the truth: right/n, %, the wrong share's bound."""
    right = n = 0
    for tr in trials:
        got = tr["got"].get(way)
        if got is None:
            continue
        potd, basket = tr["loads"]["left"], tr["loads"]["right"]
        truth = verdict_of(basket, potd) if abs(basket - potd) > 1e-9 else "balanced"
        right += got["v"] == truth
        n += 1
    return {"right": right, "n": n, "pct": 100.0 * right / max(1, n),
            "wrong_bound_pct": upper_bound(n - right, n)}


def report_potd(trials: list[dict]) -> dict:
    """Per way of judging a basket: right/n, the wrong share's bound, |error| p95 and the
    share right in the first and the second half of the game."""
    out: dict = {}
    for way in WAYS:
        errors = [abs(tr["got"][way]["e"]) for tr in trials if way in tr["got"]]
        out[way] = {**verdicts(trials, way), "err_p95_g": p95(errors)}
    out["baskets"] = len(trials)
    checks = [abs(tr["got"]["check"]["e"]) for tr in trials if "check" in tr["got"]]
    out["check_p95_g"] = p95(checks)
    out["check_beyond_tol"] = sum(c > POTD_TOL_G for c in checks)
    out["check_n"] = len(checks)
    tracked = [abs(tr["got"]["check_tracked"]["e"]) for tr in trials
               if "check_tracked" in tr["got"]]
    out["check_tracked_p95_g"] = p95(tracked)
    out["check_tracked_beyond_tol"] = sum(c > POTD_TOL_G for c in tracked)
    out["check_tracked_n"] = len(tracked)
    return out


def report_weigher(trials: list[dict]) -> dict:
    """The plain reading and the JobWeigher's rule, right/n each; the substitutions; the first
    pan's check against the number and against the tracked reference."""
    out: dict = {way: verdicts(trials, way) for way in ("plain", "weigher")}
    out["swaps"] = sum(1 for tr in trials if tr["got"].get("weigher", {}).get("swap"))
    out["baskets"] = len(trials)
    out["ref_today"] = {"off": sum(1 for tr in trials if tr["got"].get("ref_today", {}).get("off")),
                        "n": sum(1 for tr in trials if "ref_today" in tr["got"])}
    out["refused"] = {"off": sum(tr["got"].get("refused", {}).get("n", 0) for tr in trials),
                      "n": sum(1 for tr in trials if "refused" in tr["got"])}
    return out


def print_report(mix: str, trials: list[dict], head: str, potd_g: tuple[float, float]) -> dict:
    """Print the figures of ``mix`` ("weigher" or "potd") with PASS/MISS; returns them."""
    if mix == "weigher":
        out = report_weigher(trials)
        print(f"{head}, Purchase {potd_g[0]:g}-{potd_g[1]:g} g")
        print(f"Trudel baskets at 0.1 g, two pans ({out['baskets']} baskets):")
        for way, name in (("plain", "plain reading against the Purchase's number (today)"),
                          ("weigher", "the JobWeigher's rule: substitution on a close call")):
            w = out[way]
            print(f"  {way:8s} {w['right']}/{w['n']} = {w['pct']:.2f} % right (wrong: 95 % bound "
                  f"{w['wrong_bound_pct']:.2f} %)  {name}  target >= 99.9 % proven: "
                  f"{'PASS' if w['n'] and w['wrong_bound_pct'] < 0.1 else 'MISS'}")
        print(f"  substitutions (the table's extra handling): {out['swaps']} of "
              f"{out['weigher']['n']} weighings")
        for check, name in (("ref_today", "against its number (today's weigher)"),
                            ("refused", "against the tracked reference (the JobWeigher)")):
            c = out[check]
            print(f"  first pan's Purchase {name}: wrongly refused in {c['off']} of {c['n']}")
        return out
    if mix == "potd":
        out = report_potd(trials)
        print(head)
        print(f"Trudel baskets at 0.1 g against the Purchase ({out['baskets']} baskets):")
        names = {"coded": "two pans: the Purchase's number from the start (today)",
                 "one": "one pan: the Purchase's number from the start (today)",
                 "both": "both pans at the same time (the judge)",
                 "swap": "the Purchase on the basket's pan just before",
                 "swap5": "the same, reused for 5 min"}
        for way in WAYS:
            w = out[way]
            print(f"  {way:6s} {w['right']}/{w['n']} = {w['pct']:.2f} % right (wrong: 95 % "
                  f"bound {w['wrong_bound_pct']:.2f} %), |error| p95 {w['err_p95_g']:.3f} g  "
                  f"{names[way]}  target >= 99.9 % proven: "
                  f"{'PASS' if w['n'] and w['wrong_bound_pct'] < 0.1 else 'MISS'}")
        print(f"  the first pan's reading of the Purchase against its number: |off| p95 "
              f"{out['check_p95_g']:.3f} g, beyond the weigher's {POTD_TOL_G} g in "
              f"{out['check_beyond_tol']} of {out['check_n']} baskets; against the last accepted "
              f"reading (the referee's tracked reference): |off| p95 "
              f"{out['check_tracked_p95_g']:.3f} g, beyond in {out['check_tracked_beyond_tol']} of "
              f"{out['check_tracked_n']}")
        return out
    raise ValueError(f"not a Trudel mix: {mix}")
