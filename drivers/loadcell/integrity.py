"""Integrity: which raw reads of an HX711 become samples, and when the chip counts as gone.

Pure apart from its counters (no clock, no I/O): every read attempt carries its own time.
"""

from __future__ import annotations

import logging

from .chip import RAIL_HIGH, RAIL_LOW, RAILS, from_code
from .events import LoadCellSample, LoadCellStatus, ReadAttempt, ReaderEvent, ReaderStats

log = logging.getLogger(__name__)

RECOVER_AFTER = frozenset({"stretched", "misaligned", "deadline"})


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


__all__ = ["Integrity", "RECOVER_AFTER"]
