"""The two filters of a pan's chain: spike rejection and the motion-band stability detector
(which asks ``settle.SettleRule`` how much proof a level needs)."""

from __future__ import annotations

from collections import deque

from .settle import SettleRule

LEVEL_KEEP = 64  # values of a stable level kept for a settled value that begins late


class SpikeFilter:
    """Removes single-sample spikes without delaying a settled signal.

    A value within ``jump_g`` of the last accepted one passes at once. A bigger jump is held
    back one sample (the last accepted value is repeated) until the next sample shows what it
    was: close to the held value -> a real step, close to the old level -> a spike (dropped),
    far from both -> motion. So quiet signals have no delay, a step is delayed one sample and a
    spike never comes out; a running median of three does the same but delays everything.
    ``push`` gives the value to show now (the last accepted one while a jump waits); ``accept``
    gives the values accepted now, so the stability detector never counts a repeat as news.
    """

    def __init__(self, jump_g: float) -> None:
        self.jump_g = jump_g
        self._prev: float | None = None
        self._held: float | None = None
        self.spikes = 0
        self.dropped = False  # the latest ``accept`` dropped the held value as a spike

    def accept(self, x: float) -> tuple[float, ...]:
        """The values accepted by this sample, oldest first: () while a jump waits, the held
        jump and ``x`` when the jump proved real, ``x`` alone after a dropped spike (see
        ``dropped``)."""
        held, spikes = self._held, self.spikes
        self.push(x)
        self.dropped = self.spikes > spikes
        if self._held is not None:
            return ()
        if held is not None and not self.dropped:
            return (held, x)
        return (x,)

    @property
    def value(self) -> float | None:
        """The last accepted value (what to show while a jump waits)."""
        return self._prev

    def push(self, x: float) -> float:
        prev, held, jump = self._prev, self._held, self.jump_g
        if prev is None:
            self._prev = x
            return x
        if held is None:
            if abs(x - prev) <= jump:
                self._prev = x
                return x
            self._held = x
            return prev
        self._held = None
        if abs(x - held) > jump and abs(x - prev) <= jump:
            self.spikes += 1
        self._prev = x
        return x

    @property
    def holding(self) -> bool:
        """A jump is waiting for the next sample to show whether it was a spike."""
        return self._held is not None

    def shift(self, delta: float) -> None:
        if self._prev is not None:
            self._prev += delta
        if self._held is not None:
            self._held += delta

    def reset(self) -> None:
        self._prev = self._held = None



class StabilityDetector:
    """Stable when the last ``window`` values (each the mean of ``smooth`` samples) lie within
    ``band_g`` of each other: the motion band of a weighing indicator; or, by ``rule``
    (``settle.SettleRule``), sooner after a clean step and later after a hand's path. Once
    stable, it stays stable until a value strays more than twice the band from the mean of the
    values that proved it (hysteresis: noise at the band's edge does not flicker). A jump bigger
    than ``step_g`` empties the window at once, so old samples never vouch for a new load."""

    def __init__(self, window: int, band_g: float, step_g: float, smooth: int = 1,
                 rule: SettleRule | None = None, raw_band_g: float | None = None) -> None:
        self.window, self.band_g, self.step_g, self.smooth = window, band_g, step_g, smooth
        self.rule = rule or SettleRule()
        self.raw_band_g = raw_band_g  # with smooth > 1: the samples under the window, too
        self._raw: deque[float] = deque(maxlen=window + smooth - 1)
        self._ma: deque[float] = deque(maxlen=smooth)
        self._win: deque[float] = deque(maxlen=max(window, self.rule.long))
        self._proof: list[float] = []  # the values that made it stable
        self._level: deque[float] = deque(maxlen=LEVEL_KEEP)  # the proof and values since
        self._anchor = 0.0
        self._before: float | None = None  # the level last left (None: not known)
        self._path: list[float] | None = None  # the values since, while followed
        self.stable = False
        self.resets = 0
        self.fast = 0  # levels proved by a clean step's few samples (for the benchmarks)

    @property
    def proof(self) -> list[float]:
        """The values that made the level stable (the settled value starts from them)."""
        return list(self._proof)

    @property
    def level(self) -> list[float]:
        """While stable: the proof and every value since, oldest first (at most
        ``LEVEL_KEEP``): what a settled value starts from when it begins later than the proof
        (the channel held stability back a while: a plateau's doubt, a jump's wait)."""
        return list(self._level) if self.stable else []

    def push(self, g: float, may_settle: bool = True) -> bool:
        """Add a value; ``may_settle=False`` keeps an unstable detector unstable (the value is
        in doubt)."""
        if self._ma and abs(g - sum(self._ma) / len(self._ma)) > self.step_g:
            if self.stable:
                self._before, self._path = self._anchor, []
            self._ma.clear()
            self._win.clear()
            self._raw.clear()
            self.stable = False
            self.resets += 1
        self._ma.append(g)
        self._raw.append(g)
        if len(self._ma) < self.smooth:
            return self.stable
        v = sum(self._ma) / self.smooth
        if self.stable and abs(v - self._anchor) > 2 * self.band_g:
            self.stable = False
            self._before, self._path = self._anchor, []
        if not self.stable and self._path is not None:
            self._path.append(v)
            if len(self._path) > self.rule.max_path:
                self._path = None
        win = self._win
        win.append(v)
        raw = self._raw
        if self.raw_band_g is not None and len(raw) == raw.maxlen and \
                max(raw) - min(raw) > self.raw_band_g:
            may_settle = False  # a wobble the means average away (aliased near the rate)
        if not self.stable and may_settle:
            values = list(win)
            for n, band in self.rule.proofs(self._before, self._path, self.window, self.band_g):
                last = values[-n:]
                if len(last) == n and max(last) - min(last) <= band:
                    # a clean step's older proof value may be the filter's last partial one
                    # (inside the band, but on the old level's side): it is no part of the value
                    self.stable, self._proof = True, last if n >= self.window else last[-1:]
                    self.fast += n < self.window
                    win.clear()
                    win.extend(last)
                    self._path = None
                    self._level.clear()
                    self._level.extend(self._proof)
                    break
        elif self.stable:
            self._level.append(v)
        if self.stable:
            self._anchor = sum(win) / len(win) if len(win) <= self.window else \
                sum(list(win)[-self.window:]) / self.window
        return self.stable

    def gap(self) -> None:
        """A value was dropped (a spike): an unstable detector's window and path restart, so a
        level must be proved by values in a row, and the hand's proof is asked for."""
        if not self.stable:
            self._ma.clear()
            self._win.clear()
            self._raw.clear()
            self._path = None

    def shift(self, delta: float) -> None:
        self._ma = deque((v + delta for v in self._ma), maxlen=self.smooth)
        self._raw = deque((v + delta for v in self._raw), maxlen=self._raw.maxlen)
        self._win = deque((v + delta for v in self._win), maxlen=self._win.maxlen)
        self._proof = [v + delta for v in self._proof]
        self._level = deque((v + delta for v in self._level), maxlen=LEVEL_KEEP)
        self._anchor += delta
        if self._before is not None:
            self._before += delta
        if self._path is not None:
            self._path = [v + delta for v in self._path]

    def reset(self) -> None:
        """Forget everything (a reconnect): the next level needs the full window."""
        self._raw.clear()
        self._ma.clear()
        self._win.clear()
        self._proof = []
        self._before, self._path = None, None
        self.stable = False


__all__ = ["SpikeFilter", "StabilityDetector"]
