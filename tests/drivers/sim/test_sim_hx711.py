"""The simulated HX711 behaves like the datasheet says, at the level of its two wires."""

import statistics
import sys

import pytest

from spielleiter.drivers import sim
from spielleiter.drivers.loadcell.chip import from_code, to_code


def make(rate=10, seed=1, **kw):
    clock = sim.VirtualClock()
    cell = sim.make_cell(clock, rate=rate, seed=seed, **kw)
    return clock, cell


def read_bits(chip, clock, pulses=25, high_s=1e-6):
    """Bit-bang one read the way the datasheet draws it; returns the 24-bit code."""
    code = 0
    for i in range(pulses):
        chip.set_sck(True)
        clock.advance(high_s)
        if i < 24:
            code = (code << 1) | chip.dout()
        chip.set_sck(False)
        clock.advance(1e-6)
    return code


def wait_ready(chip, clock, timeout=1.0):
    end = clock.now() + timeout
    while chip.dout() and clock.now() < end:
        clock.advance(0.0005)
    return chip.dout() == 0


def test_virtual_clock_sleeps_without_waiting_and_never_goes_back():
    clock = sim.VirtualClock(5.0)
    clock.sleep(2.5)
    clock.advance_to(1.0)
    assert clock.now() == 7.5 and clock.perf_counter() == 7.5


def test_code_conversion_is_24_bit_twos_complement_with_rails():
    assert to_code(-1) == 0xFFFFFF
    assert from_code(0x800001) == -(1 << 23) + 1
    assert to_code(10 ** 9) == 0x7FFFFF and to_code(-10 ** 9) == 0x800000


def test_dout_goes_low_when_a_conversion_is_ready_and_high_after_the_25th_pulse():
    clock, cell = make()
    chip = cell.chip
    assert wait_ready(chip, clock)
    read_bits(chip, clock, pulses=24)
    chip.set_sck(True)
    clock.advance(1e-6)
    chip.set_sck(False)
    assert chip.dout() == 1


def test_bits_read_on_the_wires_are_the_conversion_the_chip_made():
    clock, cell = make()
    chip = cell.chip
    for _ in range(5):
        assert wait_ready(chip, clock)
        code = read_bits(chip, clock)
        assert code == chip.history[-1].code


def test_conversions_come_at_10_or_80_per_second():
    for rate in (10, 80):
        clock, cell = make(rate=rate)
        clock.advance(2.0)
        cell.chip.dout()
        times = [c.t for c in cell.chip.history][-10:]
        period = statistics.fmean(b - a for a, b in zip(times, times[1:]))
        assert period == pytest.approx(1 / rate, rel=0.011)


def test_noise_matches_the_datasheet_at_both_rates():
    for rate, want in ((10, 0.015), (80, 0.027)):
        clock, cell = make(rate=rate, seed=3,
                           physics=sim.PanPhysics(mech_noise_g=0.0, creep_fraction=0.0))
        chip = cell.chip
        g = [from_code(chip.next_conversion().code) / chip.counts_per_gram for _ in range(400)]
        assert statistics.pstdev(g) == pytest.approx(want, rel=0.15)


def test_a_mass_on_the_pan_moves_the_counts_by_the_sensitivity():
    clock, cell = make(seed=2)
    chip = cell.chip
    zero = statistics.fmean(from_code(chip.next_conversion().code) for _ in range(20))
    cell.pan.place(100.0)
    clock.advance(3.0)
    loaded = statistics.fmean(from_code(chip.next_conversion().code) for _ in range(20))
    assert (loaded - zero) / chip.counts_per_gram == pytest.approx(100.0, abs=0.05)


def test_a_step_takes_four_conversions_to_settle():
    clock, cell = make(seed=4, physics=sim.PanPhysics(overshoot=(0, 0), overshoot_abs_g=(0, 0)))
    chip = cell.chip
    chip.next_conversion()
    chip.next_conversion()  # now exactly at a conversion boundary
    cell.pan.place(50.0, ramp_s=0.001)
    cleans = [chip.next_conversion().clean_g for _ in range(6)]
    assert 0 < cleans[0] < 50 and abs(cleans[3] - 50) < 0.01 and abs(cleans[2] - 50) > 0.01


def test_setting_down_a_mass_wobbles_then_settles():
    clock, cell = make(rate=80, seed=5)
    t0 = cell.pan.place(300.0)
    cleans = [(c.t - t0, c.clean_g) for c in (cell.chip.next_conversion() for _ in range(120))]
    early = [abs(g - 300) for t, g in cleans if 0.1 < t < 0.2]
    late = [abs(g - 300) for t, g in cleans if t > 1.2]
    assert max(early) > 0.1 and max(late) < 0.005


def test_a_pressing_hand_never_holds_still():
    clock, cell = make(rate=80, seed=6)
    t0 = cell.pan.press(100.0, 2.0)
    values = [c.clean_g for c in (cell.chip.next_conversion() for _ in range(160))
              if t0 + 0.4 < c.t < t0 + 1.6]
    assert max(values) - min(values) > 1.0 and cell.pan.busy_until(t0 + 1.0)


def test_creep_drifts_the_reading_slowly_after_a_load():
    physics = sim.PanPhysics(creep_fraction=0.001, creep_tau_s=10.0, mech_noise_g=0.0)
    clock, cell = make(seed=7, physics=physics)
    cell.pan.place(200.0)
    clock.advance(2.0)
    early = cell.pan.force(clock.now())[1]
    clock.advance(30.0)
    late = cell.pan.force(clock.now())[1]
    assert 0.1 < late - early < 0.2


def test_clock_high_for_60_us_powers_down_and_the_falling_edge_resets_to_gain_128():
    clock, cell = make()
    chip = cell.chip
    assert wait_ready(chip, clock)
    read_bits(chip, clock, pulses=27)  # select gain 64 for the next conversion
    clock.advance(0.2)
    chip.dout()
    assert chip.gain == 64
    chip.set_sck(True)
    clock.advance(70e-6)
    assert chip.dout() == 1 and not chip.powered
    chip.set_sck(False)
    assert chip.powered and chip.gain == 128 and chip.dout() == 1


def test_after_a_reset_the_first_conversions_are_unsettled():
    clock, cell = make()
    chip = cell.chip
    chip.set_sck(True)
    clock.advance(100e-6)
    chip.set_sck(False)
    convs = [chip.next_conversion() for _ in range(5)]
    assert [c.settling for c in convs] == [True, True, True, False, False]


def test_26_pulses_select_channel_b_and_27_gain_64():
    clock, cell = make()
    chip = cell.chip
    for pulses, want in ((26, (32, "B")), (27, (64, "A")), (25, (128, "A"))):
        assert wait_ready(chip, clock)
        read_bits(chip, clock, pulses=pulses)
        clock.advance(0.15)
        chip.dout()
        assert (chip.gain, chip.channel) == want


def test_gain_64_halves_the_counts_of_gain_128():
    clock, cell = make(seed=8)
    chip = cell.chip
    cell.pan.place(300.0)
    clock.advance(2.0)
    a = statistics.fmean(from_code(chip.next_conversion().code) for _ in range(10))
    assert wait_ready(chip, clock)
    read_bits(chip, clock, pulses=27)
    for _ in range(5):
        chip.next_conversion()
    b = statistics.fmean(from_code(chip.next_conversion().code) for _ in range(10))
    assert b == pytest.approx(a / 2, rel=0.001)


def test_saturation_gives_the_rail_codes():
    clock, cell = make()
    chip = cell.chip
    chip.faults.saturate = "high"
    assert chip.next_conversion().code == 0x7FFFFF
    chip.faults.saturate = None
    cell.pan.place(-10_000.0, ramp_s=0.001)  # pulled upward far beyond the range
    clock.advance(1.0)
    assert chip.next_conversion().code == 0x800000


def test_a_disconnected_chip_never_gets_ready_or_reads_zeros_and_recovers_on_reconnect():
    clock, cell = make()
    chip = cell.chip
    chip.disconnect("high")
    clock.advance(1.0)
    assert chip.dout() == 1 and chip.next_conversion() is None
    chip.disconnect("low")
    assert chip.dout() == 0 and read_bits(chip, clock) == 0
    chip.reconnect()
    assert wait_ready(chip, clock) and chip.gain == 128


def test_spikes_are_marked_in_the_history():
    clock, cell = make(seed=9)
    cell.chip.faults.spike_prob = 0.5
    convs = [cell.chip.next_conversion() for _ in range(40)]
    assert 5 < sum(c.spiked for c in convs) < 35


def test_fake_spidev_pulses_four_times_per_0xaa_byte_and_samples_dout():
    clock, cell = make()
    chip = cell.chip
    spi = sim.FakeSpiDev(chip)
    spi.open(0, 0)
    assert wait_ready(chip, clock)
    assert spi.readbytes(1) == [0x00]  # MOSI low: no pulse, DOUT low = ready
    rx = spi.xfer2([0xAA] * 6 + [0x80])
    code = 0
    for byte in rx[:6]:
        for mask in (0x40, 0x10, 0x04, 0x01):
            code = (code << 1) | bool(byte & mask)
    assert code == chip.history[-1].code and rx[6] & 0x40


def test_fake_spidev_power_cycles_with_a_long_high():
    clock, cell = make()
    spi = sim.FakeSpiDev(cell.chip)
    spi.open(0, 0)
    spi.xfer2([0xFF] * 16 + [0x00])
    assert cell.chip.powered and cell.chip.next_conversion().settling


def test_fake_gpio_makes_the_real_hx711_package_import_and_read_the_chip():
    clock, cell = make(seed=10)
    board = sim.FakeGpio(clock)
    board.attach(cell.chip, dout=5, sck=6)
    with sim.fake_gpio(board) as hx711:
        assert sys.modules["RPi.GPIO"].board is board
        t0 = clock.now()
        hx = hx711.HX711(dout_pin=5, pd_sck_pin=6)
        assert clock.now() - t0 >= 1.0  # the package sleeps twice 0.5 s: on the virtual clock
        value = hx._read()
        assert value is not False and (value & 0xFFFFFF) == cell.chip.history[-1].code
    assert "RPi.GPIO" not in sys.modules or sys.modules["RPi.GPIO"] is not board


def test_a_stretched_clock_is_seen_by_the_package_and_powers_the_chip_down():
    clock, cell = make(seed=11)
    board = sim.FakeGpio(clock)
    board.attach(cell.chip, dout=5, sck=6)
    with sim.fake_gpio(board) as hx711:
        hx = hx711.HX711(dout_pin=5, pd_sck_pin=6)
        while hx._ready() is False:
            clock.advance(0.001)
        board.stretch_next(200e-6)
        assert hx._read(max_tries=1) is False
        assert cell.chip.next_conversion().settling  # it was reset


def test_rpi_lgpio_timing_makes_every_pulse_too_slow():
    clock, cell = make(seed=12)
    board = sim.FakeGpio(clock)
    board.profile("rpi-lgpio-zero2w")
    board.attach(cell.chip, dout=5, sck=6)
    with sim.fake_gpio(board) as hx711:
        hx = hx711.HX711(dout_pin=5, pd_sck_pin=6)
        results = [hx._read(max_tries=50) for _ in range(5)]
        assert results == [False] * 5


def test_the_microcontroller_twin_writes_one_line_per_conversion():
    clock, cell = make(seed=13)
    lines = []
    mcu = sim.SimMicrocontroller(cell.chip, lines.append)
    mcu.run_until(1.05)
    assert 9 <= len(lines) <= 11
    kind, seq, code = lines[3].decode().split()
    assert kind == "D" and seq == "3" and len(code) == 6


def test_the_simulation_is_deterministic_for_a_seed():
    def run():
        clock, cell = make(rate=80, seed=21)
        cell.pan.place(42.0)
        return [cell.chip.next_conversion().code for _ in range(50)]
    assert run() == run()


def _bit_by_bit(chip, clock, byte, half):
    """A byte the slow way: the wires' own calls for every bit (what shift_byte stands for)."""
    rx = 0
    for bit in range(7, -1, -1):
        chip.set_sck(bool((byte >> bit) & 1))
        clock.advance(half)
        rx = (rx << 1) | chip.dout()
        clock.advance(half)
    return rx


def _chip_state(chip):
    return (chip.powered, chip.gain, chip.channel, chip.conversions, chip.dout(),
            [(c.t, c.code) for c in chip.history])


from hypothesis import given, settings, strategies as st  # noqa: E402

_BYTES = st.sampled_from([0x00, 0xAA, 0xFF, 0x80, 0xA0, 0xA8, 0x01]) | st.integers(0, 255)


@settings(max_examples=60, deadline=None)
@given(steps=st.lists(st.tuples(_BYTES, st.sampled_from([0.0, 2e-6, 5e-4, 0.013, 0.1])),
                      max_size=120),
       speed_hz=st.sampled_from([20_000, 500_000, 2_000_000]), seed=st.integers(0, 5))
def test_a_byte_shifted_at_once_reads_and_leaves_the_chip_as_bit_by_bit(steps, speed_hz,
                                                                         seed):
    half = 0.5 / speed_hz
    slow_clock, slow = make(seed=seed)
    fast_clock, fast = make(seed=seed)
    for byte, pause in steps:
        assert fast.chip.shift_byte(byte, half) == _bit_by_bit(slow.chip, slow_clock, byte, half)
        slow_clock.advance(pause)
        fast_clock.advance(pause)
        assert fast_clock.now() == slow_clock.now()
    assert _chip_state(fast.chip) == _chip_state(slow.chip)
