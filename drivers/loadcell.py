"""Load-cell readers: HX711 counts from GPIO bit-banging, SPI, a serial microcontroller or the
simulated twin, each on its own thread, checked for integrity, never blocking the caller.

A reader delivers ``LoadCellSample`` (timestamped signed counts) and ``LoadCellStatus``
(connected, disconnected, saturated) to a callback that must only enqueue (the device passes
``queue.put``). Every read attempt is short and bounded; a supervisor abandons a read that
overruns its deadline. ``Integrity`` decides which raw reads become samples and counts every
rejection in ``ReaderStats`` for selftest and the logs.

Hardware modules (``hx711``/``RPi.GPIO``, ``spidev``, ``serial``) are imported only when a reader
opens, so this module imports on any machine. On a virtual clock (the simulation) readers run
deterministically in the caller's thread through ``pump``.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from dataclasses import asdict, dataclass, replace
from typing import Any, Callable, ClassVar, Iterable, Protocol, Sequence, Union

from . import DriverError

log = logging.getLogger(__name__)

RAIL_ZERO, RAIL_ONES, RAIL_HIGH, RAIL_LOW = 0x000000, 0xFFFFFF, 0x7FFFFF, 0x800000
RAILS = frozenset({RAIL_ZERO, RAIL_ONES, RAIL_HIGH, RAIL_LOW})
RECOVER_AFTER = frozenset({"stretched", "misaligned", "deadline"})
RATES = (10, 80)


class LoadCellError(DriverError, RuntimeError):
    """Base of the load-cell drivers' errors (a missing hardware module, a closed reader...)."""


class Clock(Protocol):
    def now(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class MonotonicClock:
    """Wall time for real hardware."""

    virtual = False

    @staticmethod
    def now() -> float:
        return time.monotonic()

    @staticmethod
    def sleep(seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


# --------------------------------------------------------------------------------------------
# Events and statistics
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LoadCellSample:
    """One accepted conversion: signed counts, read at ``t`` (reader clock, seconds)."""

    pan: str
    t: float
    counts: int
    seq: int


@dataclass(frozen=True)
class LoadCellStatus:
    """A change of the reader's health: ``state`` is "connected", "disconnected" or "saturated"."""

    pan: str
    t: float
    state: str
    detail: str = ""


ReaderEvent = Union[LoadCellSample, LoadCellStatus]


@dataclass
class ReaderStats:
    """Counters since the reader was made; ``rejected`` sums every discarded read."""

    samples: int = 0
    not_ready: int = 0  # polls that found no new conversion (normal, not a rejection)
    rail: int = 0  # 0x000000 or 0xFFFFFF: a floating or stuck DOUT
    saturated: int = 0  # 0x7FFFFF or 0x800000: the input is out of range
    stretched: int = 0  # the clock stayed high too long (preemption): sample discarded
    after_stretch: int = 0  # the sample after a stretched one, discarded
    settling: int = 0  # discarded while the chip's filter settles after a reset
    misaligned: int = 0  # DOUT not high after the 25th pulse: the bits were out of step
    out_of_cadence: int = 0  # too early for a new conversion (or a repeated sequence number)
    gaps: int = 0  # conversions missed (late reads, lost lines)
    deadline_exceeded: int = 0  # reads abandoned by the supervisor
    errors: int = 0  # exceptions from the driver, framing errors on serial
    disconnects: int = 0
    reconnects: int = 0

    @property
    def rejected(self) -> int:
        return (self.rail + self.saturated + self.stretched + self.after_stretch + self.settling
                + self.misaligned + self.out_of_cadence + self.deadline_exceeded + self.errors)

    def to_json(self) -> dict[str, int]:
        return {**asdict(self), "rejected": self.rejected}


@dataclass(frozen=True)
class ReadAttempt:
    """What one bounded read attempt found. ``outcome``: ok, not_ready, stretched, saturated,
    misaligned, deadline or error; ``code`` is the raw 24-bit code when bits were read."""

    t: float
    outcome: str = "ok"
    code: int | None = None
    seq: int | None = None  # the sender's sequence number (serial)
    detail: str = ""


def from_code(code: int) -> int:
    """24-bit two's complement to signed counts."""
    return code - (1 << 24) if code & 0x800000 else code


# --------------------------------------------------------------------------------------------
# Integrity
# --------------------------------------------------------------------------------------------


class Integrity:
    """Turns read attempts into samples and status changes; pure apart from its counters.

    Rules: the four rail codes are never samples; a stretched, misaligned or abandoned read is
    discarded together with the next sample and the chip's settling samples (the reader
    power-cycles the chip to get back in step); a sample sooner than 0.4 periods after the last
    conversion is out of cadence; silence (no answer that proves a live chip) for
    ``disconnect_after_s`` reports "disconnected", and the first good answer after it reports
    "connected" and discards ``settle_samples`` while the chip's filter settles.
    """

    def __init__(self, pan: str, rate: int, *, disconnect_after_s: float = 0.35,
                 settle_samples: int = 4, start: float = 0.0) -> None:
        self.pan = pan
        self.period = 1.0 / rate
        self.disconnect_after_s = disconnect_after_s
        self.settle_samples = settle_samples
        self.stats = ReaderStats()
        self.connected = False
        self.saturated = False
        self._last_alive = start
        self._reported_silence = False
        self._prev_t: float | None = None
        self._prev_seq: int | None = None
        self._after_stretch = 0
        self._settle = settle_samples
        self._seq = 0

    def accept(self, a: ReadAttempt) -> list[ReaderEvent]:
        st = self.stats
        out: list[ReaderEvent] = []
        o = a.outcome
        if o == "not_ready":
            st.not_ready += 1
        elif o == "error":
            st.errors += 1
        elif o in RECOVER_AFTER:
            if o == "stretched":
                st.stretched += 1  # no proof of life: a stuck-low DOUT also reads as ready
                self._after_stretch = 1
            elif o == "misaligned":
                st.misaligned += 1
            else:
                st.deadline_exceeded += 1
            self._settle = self.settle_samples
            log.debug("%s: %s read discarded", self.pan, o)
        elif o == "saturated" or (a.code in (RAIL_HIGH, RAIL_LOW)):
            st.saturated += 1
            self._alive(a.t, out)
            if not self.saturated:
                self.saturated = True
                out.append(LoadCellStatus(self.pan, a.t, "saturated", "input out of range"))
        elif a.code is None or a.code in RAILS:
            st.rail += 1
        else:
            self._alive(a.t, out)
            if self.saturated:
                self.saturated = False
                out.append(LoadCellStatus(self.pan, a.t, "connected", "back in range"))
            self._sample(a, out)
        out.extend(self.tick(a.t))
        return out

    def tick(self, now: float) -> list[ReaderEvent]:
        """Report "disconnected" once the chip has been silent for ``disconnect_after_s``."""
        if not self._reported_silence and now - self._last_alive >= self.disconnect_after_s:
            self._reported_silence = True
            if self.connected:
                self.stats.disconnects += 1
            self.connected = False
            self.saturated = False
            self._settle = self.settle_samples
            log.warning("%s: load cell silent for %.2f s", self.pan, now - self._last_alive)
            return [LoadCellStatus(self.pan, now, "disconnected", "no answer from the HX711")]
        return []

    def _alive(self, t: float, out: list[ReaderEvent]) -> None:
        self._last_alive = max(self._last_alive, t)
        self._reported_silence = False
        if not self.connected:
            if self.stats.disconnects:
                self.stats.reconnects += 1
            self.connected = True
            self._prev_t = None
            self._prev_seq = None
            log.info("%s: load cell answering", self.pan)
            out.append(LoadCellStatus(self.pan, t, "connected"))

    def _sample(self, a: ReadAttempt, out: list[ReaderEvent]) -> None:
        st = self.stats
        assert a.code is not None
        if not self._cadence_ok(a):
            return
        if self._after_stretch:
            self._after_stretch -= 1
            self._settle = max(0, self._settle - 1)
            st.after_stretch += 1
            return
        if self._settle:
            self._settle -= 1
            st.settling += 1
            return
        st.samples += 1
        out.append(LoadCellSample(self.pan, a.t, from_code(a.code), self._seq))
        self._seq += 1

    def _cadence_ok(self, a: ReadAttempt) -> bool:
        st = self.stats
        if a.seq is not None:
            prev, self._prev_seq = self._prev_seq, a.seq
            if prev is not None:
                step = (a.seq - prev) % 65536
                if step == 0 or step > 32768:
                    st.out_of_cadence += 1
                    self._prev_seq = prev
                    return False
                st.gaps += step - 1
            return True
        prev_t = self._prev_t
        if prev_t is not None:
            dt = a.t - prev_t
            if dt < 0.4 * self.period:
                st.out_of_cadence += 1
                return False
            if dt > 1.5 * self.period:
                st.gaps += max(0, round(dt / self.period) - 1)
        self._prev_t = a.t
        return True


# --------------------------------------------------------------------------------------------
# The reader base: thread, supervisor, pump
# --------------------------------------------------------------------------------------------


class LoadCellReader:
    """One HX711 behind one interface. ``start`` runs it on its own thread (and a supervisor
    thread that enforces the read deadline); ``pump`` runs it in the caller's thread on a
    virtual clock. ``on_event`` receives ``LoadCellSample``/``LoadCellStatus`` and must only
    enqueue. ``close`` is idempotent; readers are context managers.
    """

    kind: ClassVar[str] = "base"

    def __init__(self, pan: str, on_event: Callable[[ReaderEvent], Any], *, rate: int = 10,
                 clock: Clock | None = None, deadline_s: float = 0.1,
                 disconnect_after_s: float = 0.35, settle_samples: int = 4,
                 poll_s: float | None = None) -> None:
        if rate not in RATES:
            raise ValueError(f"rate must be 10 or 80, not {rate!r}")
        self.pan = pan
        self.rate = rate
        self.period = 1.0 / rate
        self.on_event = on_event
        self.clock: Clock = clock or MonotonicClock()
        self.deadline_s = deadline_s
        self.poll_s = poll_s if poll_s is not None else min(0.002, self.period / 8)
        self._integrity = Integrity(pan, rate, disconnect_after_s=disconnect_after_s,
                                    settle_samples=settle_samples, start=self.clock.now())
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._opened = False
        self._closed = False
        self._next_wake: float | None = None
        self._inflight: tuple[int, float] | None = None
        self._gen = 0
        self._abandoned = -1

    # -- public --------------------------------------------------------------------------------

    @property
    def stats(self) -> ReaderStats:
        with self._lock:
            return replace(self._integrity.stats)

    @property
    def connected(self) -> bool:
        return self._integrity.connected

    def start(self) -> None:
        """Open the hardware and read on a background thread; returns at once."""
        if self._closed:
            raise LoadCellError(f"{self.pan}: reader is closed")
        if self._threads:
            return
        self._ensure_open()
        self._stop.clear()
        if getattr(self.clock, "virtual", False):
            targets = [(self._run_paced, "paced")]
        else:
            targets = [(self._run, "reader"), (self._supervise, "supervisor")]
        for fn, name in targets:
            th = threading.Thread(target=fn, name=f"loadcell-{self.pan}-{name}", daemon=True)
            self._threads.append(th)
            th.start()

    def stop(self) -> None:
        """Stop the threads (a read stuck in the driver is left behind as a daemon)."""
        self._stop.set()
        for th in self._threads:
            if th is not threading.current_thread():
                th.join(timeout=max(0.5, 2 * self.deadline_s))
                if th.is_alive():
                    log.warning("%s: %s did not stop; left behind", self.pan, th.name)
        self._threads = []

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.stop()
        if self._opened:
            try:
                self._release()
            except Exception:  # noqa: BLE001 - closing must not raise
                log.exception("%s: releasing the load cell failed", self.pan)
            self._opened = False

    def __enter__(self) -> "LoadCellReader":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def step(self) -> float:
        """One bounded read attempt now; returns the clock time to call again."""
        if self._closed:
            raise LoadCellError(f"{self.pan}: reader is closed")
        self._ensure_open()
        clock = self.clock
        with self._lock:
            self._gen += 1
            gen = self._gen
            self._inflight = (gen, clock.now())
        t0 = clock.now()
        try:
            attempts = self._attempts()
        except Exception as exc:  # noqa: BLE001 - a driver fault must not kill the reader
            log.warning("%s: read failed: %s", self.pan, exc)
            attempts = [ReadAttempt(t0, "error", detail=str(exc))]
            self._on_error(exc)
        with self._lock:
            self._inflight = None
            abandoned = self._abandoned == gen
        overrun = clock.now() - t0 > self.deadline_s
        if abandoned or overrun:
            attempts = [ReadAttempt(t0, "deadline")]
        if any(a.outcome in RECOVER_AFTER for a in attempts):
            try:
                self._recover()
            except Exception as exc:  # noqa: BLE001
                log.warning("%s: recovery failed: %s", self.pan, exc)
        events: list[ReaderEvent] = []
        with self._lock:
            for a in attempts:
                if abandoned and a.outcome == "deadline":
                    events.extend(self._integrity.tick(clock.now()))  # counted by supervisor
                    continue
                events.extend(self._integrity.accept(a))
            events.extend(self._integrity.tick(clock.now()))
        self._emit(events)
        return self._wake_after(attempts, clock.now())

    def pump(self, until: float) -> None:
        """Run this reader on its virtual clock up to ``until`` (see ``pump``)."""
        pump([self], until)

    # -- hooks for the transports --------------------------------------------------------------

    def _open(self) -> None:
        raise NotImplementedError

    def _release(self) -> None:
        pass

    def _attempts(self) -> list[ReadAttempt]:
        """One short read; never waits for the chip (the loop does the waiting)."""
        raise NotImplementedError

    def _recover(self) -> None:
        """Bring the chip back in step after a stretched, misaligned or abandoned read."""

    def _on_error(self, exc: Exception) -> None:
        pass

    # -- internals -----------------------------------------------------------------------------

    def _ensure_open(self) -> None:
        if not self._opened:
            self._open()
            self._opened = True

    def _wake_after(self, attempts: Sequence[ReadAttempt], now: float) -> float:
        got = [a for a in attempts if a.outcome == "ok"]
        if got:
            # Sleep until just before the next conversion instead of polling the whole period.
            return max(now, got[-1].t + self.period - 2 * self.poll_s)
        return now + self.poll_s

    def _emit(self, events: Iterable[ReaderEvent]) -> None:
        for ev in events:
            try:
                self.on_event(ev)
            except Exception:  # noqa: BLE001 - a bad callback must not kill the reader
                log.exception("%s: event callback failed", self.pan)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                wake = self.step()
            except LoadCellError:
                return
            delay = wake - self.clock.now()
            if delay > 0:
                self._stop.wait(delay)

    def _supervise(self) -> None:
        """Abandon reads that overrun their deadline and report silence while a read hangs."""
        tick = min(0.05, self.deadline_s / 2)
        while not self._stop.wait(tick):
            now = self.clock.now()
            events: list[ReaderEvent] = []
            with self._lock:
                inflight = self._inflight
                if inflight and now - inflight[1] > self.deadline_s and self._abandoned != inflight[0]:
                    self._abandoned = inflight[0]
                    self._integrity.stats.deadline_exceeded += 1
                    log.warning("%s: read exceeded its %.0f ms deadline; abandoned",
                                self.pan, self.deadline_s * 1000)
                if inflight:
                    events = self._integrity.tick(now)
            self._emit(events)

    def _run_paced(self) -> None:
        """A reader on a virtual clock, started like real hardware: virtual time follows the
        wall clock."""
        w0, v0 = time.monotonic(), self.clock.now()
        while not self._stop.wait(0.005):
            try:
                pump([self], v0 + time.monotonic() - w0)
            except LoadCellError:
                return


def pump(readers: Sequence[LoadCellReader], until: float) -> None:
    """Run readers that share one virtual clock, interleaved by their wake times, up to
    ``until``: a deterministic single-threaded stand-in for their threads."""
    if not readers:
        return
    clock = readers[0].clock
    if any(r.clock is not clock for r in readers):
        raise LoadCellError("pumped readers must share one clock")
    advance_to = getattr(clock, "advance_to", None)
    if advance_to is None:
        raise LoadCellError("pump needs a virtual clock")
    for r in readers:
        if r._next_wake is None:
            r._next_wake = clock.now()
    while True:
        r = min(readers, key=lambda x: x._next_wake)
        if r._next_wake > until:
            break
        advance_to(r._next_wake)
        r._next_wake = r.step()
    advance_to(until)
    for r in readers:
        with r._lock:
            events = r._integrity.tick(clock.now())
        r._emit(events)


# --------------------------------------------------------------------------------------------
# gpio: the hx711 package over RPi.GPIO
# --------------------------------------------------------------------------------------------

_BOUNDED: dict[int, type] = {}


def _bounded_hx711(mod: Any) -> type:
    """The package's ``HX711`` without its unbounded paths: no read-and-sleep when setting gain
    or channel, no retry-forever ``get_raw_data`` after a slow gain pulse."""
    key = id(mod.HX711)
    if key in _BOUNDED:
        return _BOUNDED[key]

    class BoundedHX711(mod.HX711):  # type: ignore[misc,name-defined]
        trailer_started = False
        stretched = False

        def _apply_setting(self) -> bool:
            return True  # package: one read, then sleep 0.5 s; our Integrity skips settling

        def _set_channel_gain(self, num: int) -> bool:
            self.trailer_started = True
            clock, gpio = mod.time, mod.GPIO
            for _ in range(num):
                start = clock.perf_counter()
                gpio.output(self._pd_sck, True)
                gpio.output(self._pd_sck, False)
                if clock.perf_counter() - start >= 60e-6:
                    self.stretched = True
            return True

    _BOUNDED[key] = BoundedHX711
    return BoundedHX711


class GpioReader(LoadCellReader):
    """Bit-banged reads through the ``hx711`` package's own ``_read`` over ``RPi.GPIO``.

    Works on any two pins; Linux can preempt the thread mid-pulse, so stretched reads are
    detected (the package's 60 us check), discarded, and the chip is power-cycled to get back
    in step. Through the ``rpi-lgpio`` shim on a Zero 2 W nearly every pulse is too slow: use
    the SPI reader there.
    """

    kind = "gpio"

    def __init__(self, pan: str, on_event: Callable[[ReaderEvent], Any], *, dout_pin: int,
                 sck_pin: int, gain: int = 128, channel: str = "A", **kw: Any) -> None:
        super().__init__(pan, on_event, **kw)
        self.dout_pin, self.sck_pin = dout_pin, sck_pin
        self.gain, self.channel = gain, channel
        self._hx: Any = None
        self._mod: Any = None

    def _open(self) -> None:
        try:
            import hx711  # noqa: PLC0415 - lazy: needs RPi.GPIO
        except ImportError as exc:
            raise LoadCellError(f"{self.pan}: the hx711 package or RPi.GPIO is missing "
                                f"({exc})") from exc
        self._mod = sys.modules[hx711.HX711.__module__]
        self._hx = _bounded_hx711(self._mod)(self.dout_pin, self.sck_pin, gain=self.gain,
                                             channel=self.channel)
        self._recover()

    def _attempts(self) -> list[ReadAttempt]:
        hx = self._hx
        t = self.clock.now()
        if not hx._ready():
            return [ReadAttempt(t, "not_ready")]
        hx.trailer_started = hx.stretched = False
        value = hx._read(max_tries=1)
        if value is False:
            # The package returns False for a slow data pulse (no trailer sent yet) and for the
            # saturation codes (after the trailer).
            outcome = "stretched" if not hx.trailer_started or hx.stretched else "saturated"
            return [ReadAttempt(t, outcome)]
        code = int(value) & 0xFFFFFF
        if hx.stretched:
            return [ReadAttempt(t, "stretched", code)]
        if hx._ready():  # DOUT must be high right after the 25th pulse
            return [ReadAttempt(t, "misaligned", code)]
        return [ReadAttempt(t, "ok", code)]

    def _recover(self) -> None:
        self._hx.power_down()  # PD_SCK high, 10 ms: a clean power-down whatever state it was in
        self._hx.power_up()

    def _release(self) -> None:
        if self._mod is not None:
            gpio = self._mod.GPIO
            gpio.output(self.sck_pin, False)
            gpio.cleanup((self.sck_pin, self.dout_pin))


# --------------------------------------------------------------------------------------------
# spi: hardware-clocked reads
# --------------------------------------------------------------------------------------------

DATA_BYTES = [0xAA] * 6  # 10101010: four PD_SCK pulses per byte, 24 in all
TRAILER_BYTE = {(128, "A"): 0x80, (32, "B"): 0xA0, (64, "A"): 0xA8}  # 1, 2 or 3 more pulses
DATA_MASKS = (0x40, 0x10, 0x04, 0x01)  # MISO in the low half of each pulse holds the bit
TRAILER_DOUT_MASK = 0x40  # DOUT right after the 25th pulse: must be high
POWER_CYCLE = [0xFF] * 16 + [0x00]  # PD_SCK high for 128 bit times (>= 60 us up to 2 MHz)


def decode_spi(rx: Sequence[int]) -> int:
    """The 24-bit code from the six MISO bytes of ``DATA_BYTES``."""
    code = 0
    for byte in rx[:6]:
        for mask in DATA_MASKS:
            code = (code << 1) | (1 if byte & mask else 0)
    return code


class SpiReader(LoadCellReader):
    """Reads through the SPI controller: PD_SCK on MOSI, DOUT on MISO (SCLK and CE unused).

    A MOSI bit of 1 is a PD_SCK pulse one bit time long, so the high phase is fixed by the
    hardware (2 us at the default 500 kHz) and no preemption can stretch it: every byte ends
    with a 0 bit, so PD_SCK is low across any gap between bytes or transfers. A one-byte
    transfer of 0x00 samples DOUT without clocking the chip (0x00 back: data ready).
    """

    kind = "spi"

    def __init__(self, pan: str, on_event: Callable[[ReaderEvent], Any], *, bus: int = 0,
                 device: int = 0, speed_hz: int = 500_000, gain: int = 128,
                 channel: str = "A", spi_factory: Callable[[], Any] | None = None,
                 **kw: Any) -> None:
        super().__init__(pan, on_event, **kw)
        if not 20_000 <= speed_hz <= 2_000_000:
            raise ValueError("speed_hz: 20 kHz (50 us pulse) .. 2 MHz (power-cycle >= 60 us)")
        if (gain, channel) not in TRAILER_BYTE:
            raise ValueError("gain/channel: 128/A, 64/A or 32/B")
        self.bus, self.device, self.speed_hz = bus, device, speed_hz
        self._read_bytes = DATA_BYTES + [TRAILER_BYTE[(gain, channel)]]
        self._factory = spi_factory
        self._spi: Any = None

    def _open(self) -> None:
        factory = self._factory
        if factory is None:
            try:
                import spidev  # noqa: PLC0415 - lazy: Linux only
            except ImportError as exc:
                raise LoadCellError(f"{self.pan}: spidev is missing ({exc})") from exc
            factory = spidev.SpiDev
        spi = factory()
        spi.open(self.bus, self.device)
        spi.max_speed_hz = self.speed_hz
        spi.mode = 0
        self._spi = spi
        self._recover()

    def _attempts(self) -> list[ReadAttempt]:
        t = self.clock.now()
        if self._spi.xfer2([0x00])[0] != 0x00:
            return [ReadAttempt(t, "not_ready")]
        rx = self._spi.xfer2(list(self._read_bytes))
        code = decode_spi(rx)
        if not rx[6] & TRAILER_DOUT_MASK:
            return [ReadAttempt(t, "misaligned", code)]
        return [ReadAttempt(t, "ok", code)]

    def _recover(self) -> None:
        self._spi.xfer2(list(POWER_CYCLE))

    def _release(self) -> None:
        if self._spi is not None:
            self._spi.close()


# --------------------------------------------------------------------------------------------
# serial: a microcontroller streaming counts
# --------------------------------------------------------------------------------------------


def parse_line(line: str) -> tuple[str, int | None, int | None, str]:
    """Parse one line of the serial format: (kind, seq, code, text); kind is D, E, # or ?."""
    parts = line.strip().split()
    if not parts:
        return "?", None, None, line
    if parts[0] == "D" and len(parts) == 3 and len(parts[2]) == 6:
        try:
            seq, code = int(parts[1]), int(parts[2], 16)
        except ValueError:
            return "?", None, None, line
        if 0 <= seq < 65536:
            return "D", seq, code, ""
    if parts[0] == "E":
        return "E", None, None, " ".join(parts[1:])
    if parts[0].startswith("#"):
        return "#", None, None, line.strip()
    return "?", None, None, line


class SerialReader(LoadCellReader):
    """Counts streamed by a microcontroller that reads the HX711 itself.

    Line format, ASCII, one line per conversion, ended by LF (CR LF accepted)::

        D <seq> <hex6>   a conversion: seq is decimal 0..65535 and wraps (lost lines show as
                         gaps), hex6 the chip's raw 24-bit two's complement code, 6 hex digits
        E <reason>       the microcontroller saw a fault, e.g. "E timeout" (DOUT stayed high)
        # <text>         a comment, logged at debug level

    Anything else counts as an error. Rails, saturation and settling are checked here as for
    the other readers, cadence by sequence number. One port per pan.
    """

    kind = "serial"

    def __init__(self, pan: str, on_event: Callable[[ReaderEvent], Any], *,
                 port: str = "/dev/ttyACM0", baudrate: int = 115200,
                 serial_port: Any = None, **kw: Any) -> None:
        kw.setdefault("poll_s", 0.005)
        super().__init__(pan, on_event, **kw)
        self.port, self.baudrate = port, baudrate
        self._port: Any = serial_port
        self._own_port = serial_port is None
        self._buf = b""
        self._reopen_at = 0.0

    def _open(self) -> None:
        if self._port is None:
            self._port = self._open_port()

    def _open_port(self) -> Any:
        try:
            import serial  # noqa: PLC0415
        except ImportError as exc:
            raise LoadCellError(f"{self.pan}: pyserial is missing ({exc})") from exc
        return serial.serial_for_url(self.port, baudrate=self.baudrate, timeout=0)

    def _attempts(self) -> list[ReadAttempt]:
        t = self.clock.now()
        if self._port is None:
            if t < self._reopen_at:
                return [ReadAttempt(t, "not_ready")]
            self._port = self._open_port()
        waiting = self._port.in_waiting
        if waiting:
            self._buf += self._port.read(waiting)
        out: list[ReadAttempt] = []
        while b"\n" in self._buf:
            raw, self._buf = self._buf.split(b"\n", 1)
            kind, seq, code, text = parse_line(raw.decode("ascii", "replace"))
            if kind == "D":
                out.append(ReadAttempt(t, "ok", code, seq=seq))
            elif kind == "E":
                log.debug("%s: microcontroller: %s", self.pan, text)
                out.append(ReadAttempt(t, "not_ready", detail=text))
            elif kind == "#":
                log.debug("%s: microcontroller: %s", self.pan, text)
            else:
                out.append(ReadAttempt(t, "error", detail=f"bad line {raw[:40]!r}"))
        if len(self._buf) > 256:  # no newline in sight: garbage
            self._buf = b""
            out.append(ReadAttempt(t, "error", detail="line too long"))
        return out or [ReadAttempt(t, "not_ready")]

    def _wake_after(self, attempts: Sequence[ReadAttempt], now: float) -> float:
        return now + self.poll_s

    def _on_error(self, exc: Exception) -> None:
        if self._own_port and self._port is not None:
            try:
                self._port.close()
            except Exception:  # noqa: BLE001
                pass
            self._port = None
            self._reopen_at = self.clock.now() + 1.0

    def _release(self) -> None:
        if self._own_port and self._port is not None:
            self._port.close()
            self._port = None


# --------------------------------------------------------------------------------------------
# the factory
# --------------------------------------------------------------------------------------------


def make_reader(kind: str, pan: str, *, on_event: Callable[[ReaderEvent], Any],
                **settings: Any) -> LoadCellReader:
    """A reader of ``kind`` ("gpio", "spi", "serial" or "sim") for ``pan``.

    Settings are the reader's keyword arguments (pins, bus, port, rate, ...). "sim" builds a
    simulated cell (``cell=`` to pass one; ``seed``, ``rate``, ``clock``) read over
    ``transport="spi"`` (default) or ``"gpio"`` (needs ``gpio=FakeGpio`` installed with
    ``hx711_sim.fake_gpio``); the reader's ``cell`` attribute holds pan and chip.
    """
    if kind == "gpio":
        return GpioReader(pan, on_event, **settings)
    if kind == "spi":
        return SpiReader(pan, on_event, **settings)
    if kind == "serial":
        return SerialReader(pan, on_event, **settings)
    if kind == "sim":
        return _make_sim(pan, on_event, **settings)
    raise LoadCellError(f"unknown load cell reader {kind!r}")


def _make_sim(pan: str, on_event: Callable[[ReaderEvent], Any], *, cell: Any = None,
              clock: Any = None, rate: int = 10, seed: int = 0, transport: str = "spi",
              gpio: Any = None, dout_pin: int = 5, sck_pin: int = 6,
              **kw: Any) -> LoadCellReader:
    from . import hx711_sim as sim  # noqa: PLC0415 - the twin is not needed on the box

    if cell is None:
        cell = sim.make_cell(clock or sim.VirtualClock(), rate=rate, seed=seed)
    clock = cell.clock
    reader: LoadCellReader
    if transport == "spi":
        reader = SpiReader(pan, on_event, rate=rate, clock=clock,
                           spi_factory=lambda: sim.FakeSpiDev(cell.chip), **kw)
    elif transport == "gpio":
        if gpio is None:
            raise LoadCellError("a simulated gpio reader needs gpio=FakeGpio (installed)")
        gpio.attach(cell.chip, dout=dout_pin, sck=sck_pin)
        reader = GpioReader(pan, on_event, rate=rate, clock=clock, dout_pin=dout_pin,
                            sck_pin=sck_pin, **kw)
    else:
        raise LoadCellError(f"unknown simulated transport {transport!r}")
    reader.cell = cell  # type: ignore[attr-defined]
    return reader


__all__ = [
    "GpioReader", "Integrity", "LoadCellError", "LoadCellReader", "LoadCellSample",
    "LoadCellStatus", "MonotonicClock", "ReadAttempt", "ReaderEvent", "ReaderStats",
    "SerialReader", "SpiReader", "decode_spi", "make_reader", "parse_line", "pump",
]
