"""What a load-cell reader reports: samples, status changes, read attempts and counters.

A reader delivers ``LoadCellSample`` (timestamped signed counts) and ``LoadCellStatus``
(connected, disconnected, saturated) to a callback; ``ReadAttempt`` is what one bounded read
found before ``Integrity`` judged it; ``ReaderStats`` counts every rejection for selftest and logs.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Union

from ..exc import LoadCellError


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



__all__ = ["LoadCellError", "LoadCellSample", "LoadCellStatus", "ReadAttempt", "ReaderEvent",
           "ReaderStats"]
