"""The path to a level decides how much proof it needs (``SettleRule``, 10 SPS): a clean
set-down is stable two samples after the chip has let it through, a hand never is."""

from __future__ import annotations

from spielleiter.drivers.weighing.channel import ChannelSettings
from spielleiter.drivers.weighing.settle import SettleRule
from spielleiter.drivers.weighing.stability import StabilityDetector
from tests.drivers.weighing.twin import rig

FAST = SettleRule(fast=2)
SEEDS = range(20)


def _first_stable_after(seed: int, **settings) -> tuple[float, float]:
    r = rig(seed=seed, **settings)
    r.run(3.0)
    t0 = r.pan.place(100.0)
    seen = len(r.events)
    r.run(3.0)
    stable = next(e for e in r.events[seen:] if e.kind == "stable")
    return stable.t - t0, stable.total_g


def test_a_clean_set_down_is_stable_within_two_samples_of_the_chips_settling():
    # The chip's filter needs four conversions (0.4 s at 10 SPS) and the pan a little more; the
    # motion band's window alone would add four more samples (about 0.8 s, measured 0.69-1.2).
    for seed in SEEDS:
        after, total = _first_stable_after(seed)
        assert after <= 0.65, (seed, after)
        assert abs(total - 100.0) < 0.3, (seed, total)  # the twin's cell bends a little


def test_without_reading_the_path_the_same_set_downs_take_the_whole_window():
    slow = [_first_stable_after(seed, settle=SettleRule())[0] for seed in SEEDS]
    assert min(slow) > 0.65


def test_a_hand_pressing_on_the_pan_is_never_called_stable():
    for seed in SEEDS:
        r = rig(seed=seed)
        r.run(3.0)
        t0 = r.pan.press(30.0, 3.0)
        seen = len(r.events)
        r.run(2.9)
        assert not [e for e in r.events[seen:] if e.kind == "stable" and e.t > t0], seed


def test_a_path_that_turns_back_needs_a_hands_proof():
    path = [20.0, 60.0, 45.0, 95.0, 100.0, 100.01]
    assert FAST.proofs(0.0, path, 4, 0.05) == ((FAST.long, FAST.long_band_g),)


def test_a_monotone_filtered_step_is_proved_by_two_samples():
    path = [30.0, 90.0, 99.9, 100.0, 100.01]  # a quick set-down through the chip's filter
    assert FAST.proofs(0.0, path, 4, 0.05)[0] == (2, 0.05)


def test_the_empty_pan_is_proved_by_the_whole_window_because_its_zero_is_taken_there():
    path = [80.0, 40.0, 5.0, 0.3, 0.01, 0.0]
    assert FAST.proofs(100.0, path, 4, 0.05) == ((4, 0.05),)


def _detector_at_10_sps() -> StabilityDetector:
    s = ChannelSettings.for_rate(10)
    detector = StabilityDetector(s.window, s.band_g, s.step_g, s.smooth, s.settle)
    for _ in range(6):
        detector.push(0.02)
    assert detector.stable
    return detector


def test_a_clean_steps_two_samples_may_differ_by_two_reads_noise():
    # Measured on the twin (benchmarks/weighing.py): the chip's output ends a set-down within
    # 0.05 g of the load and each read adds about 0.018 g of noise, so two good samples differ by
    # up to 0.06 g; a 0.05 g band sent one set-down in six to a third sample.
    detector = _detector_at_10_sps()
    for v in (23.284, 182.038, 328.857, 346.458):
        assert not detector.push(v)
    assert detector.push(346.513)
    assert detector.proof == [346.513]


def test_two_samples_a_tenth_of_a_gram_apart_after_a_step_prove_nothing():
    detector = _detector_at_10_sps()
    for v in (23.284, 182.038, 328.857, 346.43):
        assert not detector.push(v)
    assert not detector.push(346.53)
