"""Readers deliver only good samples, never block, and notice every fault of the simulated chip."""

import queue
import threading

import pytest
import serial

from spielleiter.drivers import sim
from spielleiter.drivers.loadcell import (
    Integrity, LoadCellError, LoadCellReader, LoadCellSample, LoadCellStatus, ReadAttempt,
    ReaderStats, decode_spi, make_reader, parse_line, pump)


class Sink(list):
    @property
    def samples(self):
        return [e for e in self if isinstance(e, LoadCellSample)]

    def states(self):
        return [e.state for e in self if isinstance(e, LoadCellStatus)]


def chip_codes(cell, clean_only=True):
    return {c.code for c in cell.chip.history if not (clean_only and (c.spiked or c.settling))}


def sim_reader(rate=10, seed=1, transport="spi", **kw):
    sink = Sink()
    reader = sim.sim_reader("left", on_event=sink.append, rate=rate, seed=seed,
                         transport=transport, **kw)
    return reader, sink


# --- integrity on its own ---------------------------------------------------------------------


def attempts(integrity, items):
    out = []
    for a in items:
        out += integrity.accept(a)
    return out


def test_integrity_rejects_the_four_rail_codes():
    integ = Integrity("left", 10, settle_samples=0)
    events = attempts(integ, [ReadAttempt(0.1 * i, "ok", code) for i, code in
                              enumerate([0x000123, 0x000000, 0xFFFFFF, 0x7FFFFF, 0x800000,
                                         0x000124])])
    counts = [e.counts for e in events if isinstance(e, LoadCellSample)]
    assert counts == [0x123, 0x124]
    assert integ.stats.rail == 2 and integ.stats.saturated == 2


def test_integrity_discards_a_stretched_read_the_next_sample_and_the_settling_ones():
    integ = Integrity("left", 10, settle_samples=2)
    seq = [ReadAttempt(0.1 * i, "ok", 1000 + i) for i in range(4)]
    seq += [ReadAttempt(0.45, "stretched")]
    seq += [ReadAttempt(0.5 + 0.1 * i, "ok", 2000 + i) for i in range(6)]
    counts = [e.counts for e in attempts(integ, seq) if isinstance(e, LoadCellSample)]
    assert counts == [1002, 1003, 2002, 2003, 2004, 2005]
    assert integ.stats.stretched == 1 and integ.stats.after_stretch == 1
    assert integ.stats.settling == 2 + 1


def test_integrity_rejects_a_sample_out_of_cadence_and_counts_gaps():
    integ = Integrity("left", 10, settle_samples=0)
    seq = [ReadAttempt(t, "ok", 5) for t in (0.0, 0.1, 0.13, 0.2, 0.5)]
    assert len([e for e in attempts(integ, seq) if isinstance(e, LoadCellSample)]) == 4
    assert integ.stats.out_of_cadence == 1 and integ.stats.gaps == 2


def test_integrity_checks_cadence_by_sequence_number_when_there_is_one():
    integ = Integrity("left", 10, settle_samples=0)
    seq = [ReadAttempt(0.0, "ok", 5, seq=s) for s in (65534, 65535, 65535, 0, 3)]
    assert len([e for e in attempts(integ, seq) if isinstance(e, LoadCellSample)]) == 4
    assert integ.stats.out_of_cadence == 1 and integ.stats.gaps == 2


def test_integrity_reports_silence_once_and_the_return_once():
    integ = Integrity("left", 10, disconnect_after_s=0.35, settle_samples=1)
    events = attempts(integ, [ReadAttempt(0.0, "ok", 7), ReadAttempt(0.1, "ok", 7)])
    events += integ.tick(0.3) + integ.tick(0.46) + integ.tick(0.9)
    events += attempts(integ, [ReadAttempt(1.0, "ok", 7), ReadAttempt(1.1, "ok", 7)])
    states = [e.state for e in events if isinstance(e, LoadCellStatus)]
    assert states == ["connected", "disconnected", "connected"]
    assert integ.stats.disconnects == 1 and integ.stats.reconnects == 1


def test_stats_sum_every_rejection_and_serialise():
    st = ReaderStats(rail=1, saturated=2, stretched=3, after_stretch=1, settling=4,
                     misaligned=5, out_of_cadence=6, deadline_exceeded=7, errors=8, samples=9)
    assert st.rejected == 37 and st.to_json()["rejected"] == 37


# --- the SPI reader against the bit-level chip ------------------------------------------------


@pytest.mark.parametrize("rate", [10, 80])
def test_spi_reader_delivers_every_conversion_the_chip_made(rate):
    reader, sink = sim_reader(rate=rate, seed=2)
    reader.pump(3.0)
    codes = chip_codes(reader.cell)
    assert all((s.counts & 0xFFFFFF) in codes for s in sink.samples)
    expected = 3.0 * rate - 4 - 2
    assert len(sink.samples) >= expected
    assert reader.stats.gaps == 0 and reader.stats.rejected == reader.stats.settling
    assert sink.states() == ["connected"]


def test_spi_reader_sample_times_follow_the_chip_cadence():
    reader, sink = sim_reader(rate=80, seed=3)
    reader.pump(2.0)
    ts = [s.t for s in sink.samples]
    gaps = [b - a for a, b in zip(ts, ts[1:])]
    assert max(gaps) < 1.5 / 80 and min(gaps) > 0.5 / 80


def test_spi_byte_patterns_decode_to_the_code():
    rx = [0x40 | 0x01, 0, 0, 0, 0, 0x10]  # pulses 1 and 4 of the first byte, 2 of the last
    assert decode_spi(rx) == (1 << 23) | (1 << 20) | (1 << 2)


def test_spi_reader_reports_a_silent_chip_within_half_a_second_and_recovers():
    for mode in ("high", "low"):
        reader, sink = sim_reader(rate=10, seed=4)
        reader.pump(1.0)
        reader.cell.chip.disconnect(mode)
        t_off = reader.clock.now()
        reader.pump(2.5)
        gone = [e for e in sink if isinstance(e, LoadCellStatus) and e.state == "disconnected"]
        assert gone and gone[0].t - t_off <= 0.5
        n = len(sink.samples)
        reader.cell.chip.reconnect()
        reader.pump(4.0)
        assert sink.states()[-1] == "connected" and len(sink.samples) > n + 5
        assert all((s.counts & 0xFFFFFF) in chip_codes(reader.cell) for s in sink.samples)
        assert reader.stats.disconnects == 1 and reader.stats.reconnects == 1


def test_spi_reader_reports_saturation_and_its_end():
    reader, sink = sim_reader(rate=10, seed=5)
    reader.pump(1.0)
    reader.cell.chip.faults.saturate = "high"
    reader.pump(2.0)
    reader.cell.chip.faults.saturate = None
    reader.pump(3.0)
    assert sink.states() == ["connected", "saturated", "connected"]
    assert reader.stats.saturated >= 8
    assert all(s.counts not in (0x7FFFFF, -0x800000) for s in sink.samples)


def test_spi_reader_passes_chip_spikes_on_for_the_signal_processing():
    reader, sink = sim_reader(rate=80, seed=6)
    reader.cell.chip.faults.spike_prob = 0.05
    reader.pump(3.0)
    assert any(c.spiked for c in reader.cell.chip.history)
    assert all((s.counts & 0xFFFFFF) in chip_codes(reader.cell, clean_only=False)
               for s in sink.samples)


def test_spi_reader_selects_gain_64_with_three_trailer_pulses():
    reader, sink = sim_reader(rate=10, seed=7, gain=64)
    reader.pump(2.0)
    assert reader.cell.chip.gain == 64
    assert all((s.counts & 0xFFFFFF) in chip_codes(reader.cell) for s in sink.samples)


def test_spi_reader_refuses_a_clock_that_could_power_the_chip_down():
    with pytest.raises(ValueError):
        make_reader("spi", "left", on_event=print, speed_hz=5_000_000)


# --- the gpio reader: the real hx711 package code against the chip -----------------------------


def gpio_reader(rate=10, seed=1, **board_kw):
    clock = sim.VirtualClock()
    board = sim.FakeGpio(clock, seed=seed, **board_kw)
    cell = sim.make_cell(clock, rate=rate, seed=seed)
    sink = Sink()
    return clock, board, cell, sink


def test_gpio_reader_runs_the_hx711_package_without_its_sleeps():
    clock, board, cell, sink = gpio_reader(seed=8)
    with sim.fake_gpio(board):
        reader = sim.sim_reader("left", on_event=sink.append, cell=cell, transport="gpio",
                             gpio=board)
        reader.pump(0.05)
        assert clock.now() < 0.1  # the package's constructor would have slept 1 s
        reader.pump(3.0)
        reader.close()
    assert len(sink.samples) >= 24
    assert all((s.counts & 0xFFFFFF) in chip_codes(cell) for s in sink.samples)


@pytest.mark.parametrize("rate", [10, 80])
def test_gpio_reader_never_passes_a_corrupted_sample_under_preemption(rate):
    clock, board, cell, sink = gpio_reader(rate=rate, seed=9)
    board.preempt(0.002, 0.00005, 0.01)
    with sim.fake_gpio(board):
        reader = sim.sim_reader("left", on_event=sink.append, cell=cell, rate=rate,
                             transport="gpio", gpio=board)
        reader.pump(8.0)
        reader.close()
    assert reader.stats.stretched > 0 and board.preemptions > 0
    assert len(sink.samples) > 8 * rate * 0.3
    assert all((s.counts & 0xFFFFFF) in chip_codes(cell) for s in sink.samples)


def test_gpio_reader_discards_a_stretched_read_and_power_cycles_the_chip():
    clock, board, cell, sink = gpio_reader(seed=10)
    with sim.fake_gpio(board):
        reader = sim.sim_reader("left", on_event=sink.append, cell=cell, transport="gpio",
                             gpio=board)
        reader.pump(1.0)
        board.stretch_next(150e-6)
        reader.pump(2.5)
        reader.close()
    st = reader.stats
    assert st.stretched == 1 and st.after_stretch == 1 and st.settling >= 4 + 3
    assert all((s.counts & 0xFFFFFF) in chip_codes(cell) for s in sink.samples)


def test_gpio_reader_through_rpi_lgpio_on_a_zero_2w_gets_nothing_and_says_so():
    clock, board, cell, sink = gpio_reader(seed=11)
    board.profile("rpi-lgpio-zero2w")
    with sim.fake_gpio(board):
        reader = sim.sim_reader("left", on_event=sink.append, cell=cell, transport="gpio",
                             gpio=board)
        reader.pump(2.0)
        reader.close()
    assert sink.samples == [] and "disconnected" in sink.states()
    assert reader.stats.stretched > 5


def test_gpio_reader_reports_a_stuck_low_dout_as_disconnected():
    clock, board, cell, sink = gpio_reader(seed=12)
    with sim.fake_gpio(board):
        reader = sim.sim_reader("left", on_event=sink.append, cell=cell, transport="gpio",
                             gpio=board)
        reader.pump(1.0)
        cell.chip.disconnect("low")
        t_off = clock.now()
        reader.pump(2.0)
        reader.close()
    gone = [e for e in sink if isinstance(e, LoadCellStatus) and e.state == "disconnected"]
    assert gone and gone[0].t - t_off <= 0.5
    assert reader.stats.misaligned > 0
    assert all(s.counts != 0 for s in sink.samples)


def test_gpio_reader_without_rpi_gpio_raises_a_clear_error(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "hx711", None)
    reader = make_reader("gpio", "left", on_event=print, dout_pin=5, sck_pin=6)
    with pytest.raises(LoadCellError, match="hx711"):
        reader.start()


# --- serial --------------------------------------------------------------------------------------


def test_serial_line_format_parses_data_errors_and_comments():
    assert parse_line("D 12 0001A0\r\n") == ("D", 12, 0x1A0, "")
    assert parse_line("E timeout")[0] == "E"
    assert parse_line("# hello")[0] == "#"
    assert parse_line("D x 12")[0] == "?"


def test_serial_reader_reads_the_microcontroller_stream_and_counts_lost_lines():
    clock = sim.VirtualClock()
    cell = sim.make_cell(clock, rate=10, seed=13)
    port = serial.serial_for_url("loop://", timeout=0)
    mcu = sim.SimMicrocontroller(cell.chip, port.write)
    sink = Sink()
    reader = make_reader("serial", "left", on_event=sink.append, serial_port=port, clock=clock)
    def run(until):
        while clock.now() < until - 1e-9:
            t = min(until, clock.now() + 0.02)
            mcu.run_until(t)
            reader.pump(t)

    run(2.0)
    mcu.seq += 3  # three lines lost on the wire
    port.write(b"garbage\n")
    run(3.0)
    reader.close()
    assert all((s.counts & 0xFFFFFF) in chip_codes(cell) for s in sink.samples)
    assert len(sink.samples) >= 30 - 4 - 3 - 1 and sink.states() == ["connected"]
    assert reader.stats.gaps == 3 and reader.stats.errors == 1


# --- the reader contract ---------------------------------------------------------------------


def test_make_reader_rejects_an_unknown_kind():
    with pytest.raises(LoadCellError):
        make_reader("carrier-pigeon", "left", on_event=print)


def test_close_is_idempotent_and_a_closed_reader_refuses_to_start():
    reader, sink = sim_reader()
    with reader:
        reader.pump(0.5)
    reader.close()
    with pytest.raises(LoadCellError):
        reader.start()


def test_pump_interleaves_two_readers_on_one_clock():
    clock = sim.VirtualClock()
    sink = Sink()
    readers = [sim.sim_reader(pan, on_event=sink.append, clock=clock, seed=i, rate=80)
               for i, pan in enumerate(("left", "right"))]
    pump(readers, 2.0)
    by_pan = {p: [s for s in sink.samples if s.pan == p] for p in ("left", "right")}
    assert all(len(v) >= 2.0 * 80 - 8 for v in by_pan.values())


def test_a_failing_callback_does_not_stop_the_reader():
    calls = []

    def bad(ev):
        calls.append(ev)
        raise RuntimeError("boom")

    reader = sim.sim_reader("left", on_event=bad, seed=14)
    reader.pump(1.0)
    assert len(calls) > 5


class HangingReader(LoadCellReader):
    """A driver whose read hangs until released: the supervisor must not wait for it."""

    kind = "test"

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.release = threading.Event()
        self.n = 0

    def _open(self):
        pass

    def _attempts(self):
        self.n += 1
        t = self.clock.now()
        if self.n > 3:
            self.release.wait(5.0)
        return [ReadAttempt(t, "ok", 1000 + self.n)]


def test_supervisor_abandons_a_hanging_read_and_reports_disconnected_in_time():
    q = queue.Queue()
    reader = HangingReader("left", q.put, rate=80, deadline_s=0.05, disconnect_after_s=0.2,
                           settle_samples=0)
    reader.start()  # returns at once: the reader runs on its own thread
    try:
        states = []
        while "disconnected" not in states:
            ev = q.get(timeout=3.0)
            if isinstance(ev, LoadCellStatus):
                states.append(ev.state)
        assert reader.stats.deadline_exceeded == 1
    finally:
        reader.release.set()
        reader.close()
    assert states == ["connected", "disconnected"]


def test_a_started_simulated_reader_runs_in_real_time_and_stops():
    q = queue.Queue()
    reader = sim.sim_reader("left", on_event=q.put, rate=80, seed=15)
    reader.start()
    try:
        first = q.get(timeout=3.0)
        assert isinstance(first, LoadCellStatus) and first.state == "connected"
        assert isinstance(q.get(timeout=3.0), LoadCellSample)
    finally:
        reader.close()
