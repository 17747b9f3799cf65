"""What modes receive: ``Press`` for every button and ``Weight`` for every named pan.

Raw button edges are debounced here (the pure ``PressDetector`` from the drivers, woken by runtime
timers), and each debounced press is named by where it came from: the host panel or a station.
Which buttons have a hold meaning is the active mode's choice (BACK on the host panel always does:
undo), so a key without one acts on the press edge, at once, and a key with one acts on release or
as a long press once held. Load-cell steps from ``Scales`` arrive as ``Weight``s, each with every
pan's snapshot and the judgement as they stand after it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from ..drivers.buttons import ButtonPress, Edge, PressDetector
from ..drivers.weighing import Judgement, PanSnapshot

if TYPE_CHECKING:
    from .pans.holds import Hold

HOST = "host"
ANYONE = "*"  # a screen opened by a press that no press should be guarded against
ALWAYS_HELD = frozenset({"host.back"})  # a long BACK: undo in a game, else the screen's BACK


@dataclass(frozen=True)
class Press:
    """A debounced press: ``source`` is ``"host"`` or a station's number (1-based, as labelled);
    ``key`` is ``back``/``ok``/``next`` on the host panel, ``A``/``B``/``C`` at a station;
    ``hold`` marks a long press (only keys the mode gave a hold meaning)."""

    source: str | int
    key: str
    hold: bool = False
    t: float = 0.0

    @property
    def name(self) -> str:
        """The button's pin-map name: ``host.ok``, ``s2.B``."""
        return f"host.{self.key}" if self.source == HOST else f"s{self.source}.{self.key}"

    @property
    def station(self) -> int | None:
        """The 0-based station index, or None for the host panel."""
        return None if self.source == HOST else int(self.source) - 1

    @classmethod
    def parse(cls, name: str, hold: bool = False, t: float = 0.0) -> "Press":
        """``host.ok`` / ``s2.B`` to a Press (ValueError for a name that is neither)."""
        part, dot, key = name.partition(".")
        if dot and part == HOST and key in ("back", "ok", "next"):
            return cls(HOST, key, hold, t)
        if dot and part[:1] == "s" and part[1:].isdigit() and int(part[1:]) > 0 \
                and key in ("A", "B", "C"):
            return cls(int(part[1:]), key, hold, t)
        raise ValueError(f"not a button: {name!r}")


@dataclass(frozen=True)
class Weight:
    """A pan's news: ``kind`` is ``moving``, ``stable``, ``placed``, ``removed``,
    ``disconnected``, ``judged`` (the verdict of two pans changed without other news),
    ``state`` (the pan's state changed without a step: its zero taken, its signal back, at its
    stop, far below zero), ``reading`` (a new reading while the pan moves), ``held`` (a
    ``hold`` a mode asked for matured: ``Scales.hold``) or ``now`` (the pans as they are, asked
    for with ``Scales.news``). ``grams`` is the settled total for ``stable`` and ``held``, the
    step's size for ``placed``/``removed``, the change so far for ``moving``, the reading for
    ``reading``, and None otherwise.

    ``pans`` is every pan's ``PanSnapshot`` after this update and ``judgement`` the judge's
    verdict on the first two pans, already brought up to date with the same sample: a mode
    reads both and never reaches into a channel."""

    pan: str
    kind: str
    grams: float | None = None
    t: float = 0.0
    pans: Mapping[str, PanSnapshot] = field(default_factory=dict, compare=False)
    judgement: Judgement | None = field(default=None, compare=False)
    hold: "Hold | None" = field(default=None, compare=False)


class Inputs:
    """Turns button edges into ``Press``es on the loop thread, with wake-up timers for lock-outs
    and long presses, and keeps the guard: after the screen changes by itself, short presses are
    ignored for ``guard_s``, so a press meant for the old screen never acts on the new one. A
    screen that a press opened does not guard against the next press from the same place: the
    player who pressed is looking at it."""

    def __init__(self, detector: PressDetector, call_at: Callable[[float, Callable[[], None]], Any],
                 cancel: Callable[[Any], None], clock: Callable[[], float],
                 deliver: Callable[[Press], None], guard_s: float = 0.4) -> None:
        self.detector = detector
        self._call_at, self._cancel, self._clock = call_at, cancel, clock
        self._deliver = deliver
        self._timer: Any = None
        self.guard_s = guard_s
        self._screen: tuple[Any, ...] = ()
        self._screen_at = float("-inf")
        self._opened_by: str | int | None = None
        self.set_holds(())

    def shown(self, screen: tuple[Any, ...], opened_by: str | int | None = None) -> None:
        """The screen now shown, as what tells screens apart (a moved cursor or a changed count
        is the same screen); a different one starts the guard, except for presses from
        ``opened_by`` (the source whose press opened it; None: it changed by itself)."""
        if screen != self._screen:
            if self._screen:  # the first screen follows no other: nothing to guard against
                self._screen_at = self._clock()
                self._opened_by = opened_by
            self._screen = screen

    def guard_left(self) -> float:
        """Seconds until short presses count again after the last screen change (0: now)."""
        return max(0.0, self.guard_s - (self._clock() - self._screen_at))

    def guarded(self, press: Press) -> bool:
        """True for a short press that came within ``guard_s`` of a screen change it did not
        cause (a long press is deliberate and always counts)."""
        return (not press.hold and self._opened_by not in (press.source, ANYONE)
                and press.t - self._screen_at < self.guard_s)

    def set_holds(self, names: Iterable[str]) -> None:
        """The buttons (pin-map names) that have a hold meaning now, besides BACK."""
        self.detector.hold_buttons = ALWAYS_HELD | frozenset(names)

    def on_edge(self, edge: Edge) -> None:
        self._emit(self.detector.edge(edge))

    def _wake(self) -> None:
        self._emit(self.detector.wake(self._clock()))

    def _emit(self, presses: list[ButtonPress]) -> None:
        self._cancel(self._timer)
        wake = self.detector.next_wake()
        self._timer = None if wake is None else self._call_at(wake, self._wake)
        for raw in presses:
            try:
                press = Press.parse(raw.name, raw.long, raw.t)
            except ValueError:  # a pin the config names that is no button of ours
                continue
            self._deliver(press)
