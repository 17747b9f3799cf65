"""The weighing benchmark's fault injection (``weighing.py`` runs and reports it): the
bit-level chip through the SPI reader or the ``hx711`` package on the fake RPi.GPIO, with
spikes, disconnects, saturation and preemption, every accepted sample checked."""

from __future__ import annotations

import math
import random

from spielleiter.device.pans.scales import Scales
from spielleiter.drivers import sim
from spielleiter.drivers.loadcell import (
    LoadCellSample, LoadCellStatus)
from spielleiter.drivers.weighing import (
    Calibration)
from spielleiter.drivers.weighing.range import RangeSettings


from weighing_trials import log_uniform

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
        reader = sim.sim_reader("pan", on_event=on_event, cell=cell, rate=rate,
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
