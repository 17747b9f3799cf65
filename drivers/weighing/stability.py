"""The two filters of a pan's chain: spike rejection and the motion-band stability detector."""

from __future__ import annotations

from collections import deque


class SpikeFilter:
    """Removes single-sample spikes without delaying a settled signal.

    A value within ``jump_g`` of the last accepted one passes at once. A bigger jump is held
    back one sample (the last accepted value is repeated) until the next sample shows what it
    was: close to the held value -> a real step, close to the old level -> a spike (dropped),
    far from both -> motion. So quiet signals have no delay, a step is delayed one sample and a
    spike never comes out; a running median of three does the same but delays everything.
    """

    def __init__(self, jump_g: float) -> None:
        self.jump_g = jump_g
        self._prev: float | None = None
        self._held: float | None = None
        self.spikes = 0

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
    ``band_g`` of each other: the motion band of a weighing indicator. Once stable, it stays
    stable until a value strays more than twice the band from the window's mean (hysteresis:
    noise at the band's edge does not flicker). A jump bigger than ``step_g`` empties the window at once, so
    old samples never vouch for a new load."""

    def __init__(self, window: int, band_g: float, step_g: float, smooth: int = 1) -> None:
        self.window, self.band_g, self.step_g, self.smooth = window, band_g, step_g, smooth
        self._ma: deque[float] = deque(maxlen=smooth)
        self._win: deque[float] = deque(maxlen=window)
        self._anchor = 0.0
        self.stable = False
        self.resets = 0

    def push(self, g: float, may_settle: bool = True) -> bool:
        """Add a value; ``may_settle=False`` keeps an unstable detector unstable (the value is
        in doubt, e.g. a possible spike is pending)."""
        if self._ma and abs(g - sum(self._ma) / len(self._ma)) > self.step_g:
            self.reset()
            self.resets += 1
        self._ma.append(g)
        if len(self._ma) < self.smooth:
            return self.stable
        v = sum(self._ma) / self.smooth
        if self.stable and abs(v - self._anchor) > 2 * self.band_g:
            self.stable = False
        win = self._win
        win.append(v)
        if not self.stable:
            self.stable = (may_settle and len(win) == self.window
                           and max(win) - min(win) <= self.band_g)
        if self.stable:
            self._anchor = sum(win) / len(win)
        return self.stable

    def shift(self, delta: float) -> None:
        self._ma = deque((v + delta for v in self._ma), maxlen=self.smooth)
        self._win = deque((v + delta for v in self._win), maxlen=self.window)
        self._anchor += delta

    def reset(self) -> None:
        self._ma.clear()
        self._win.clear()
        self.stable = False


__all__ = ["SpikeFilter", "StabilityDetector"]
