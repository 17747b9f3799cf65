"""Buttons: gpiozero input devices from a pin map, and the debounce / long-press logic we own.

gpiozero's mock pins ignore ``bounce_time``, and its ``Button`` starts a hold thread per button that
wakes ten times a second even when nobody touches anything. So each button is a plain
``DigitalInputDevice`` (edges only, no polling), and debouncing and holding are decided here by a
pure state machine fed with timestamped edges: the same logic on real pins, on ``MockFactory`` and
on a virtual clock in tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from gpiozero import DigitalInputDevice


@dataclass(frozen=True)
class Edge:
    """A raw contact change as gpiozero reported it, stamped with the runtime's clock."""

    name: str
    pressed: bool
    t: float


@dataclass(frozen=True)
class ButtonPress:
    """A debounced press of the button ``name``; ``long`` only for buttons given a hold meaning."""

    name: str
    t: float
    long: bool = False


class ButtonBank:
    """One gpiozero input per named pin; every edge goes to ``on_edge`` (which only enqueues).

    Pins are BCM numbers wired to ground (internal pull-up), so a press drives the pin low.
    ``pin_factory`` is gpiozero's: ``MockFactory`` in tests and simulation, the default on a Pi.
    """

    def __init__(self, pins: Mapping[str, int], on_edge: Callable[[Edge], None],
                 clock: Callable[[], float], pin_factory: object | None = None) -> None:
        self._on_edge = on_edge
        self._clock = clock
        self.buttons: dict[str, DigitalInputDevice] = {}
        try:
            for name, pin in pins.items():
                button = DigitalInputDevice(pin, pull_up=True, bounce_time=None,
                                            pin_factory=pin_factory)
                button.when_activated = self._edge(name, True)
                button.when_deactivated = self._edge(name, False)
                self.buttons[name] = button
        except Exception:
            self.close()
            raise

    def _edge(self, name: str, pressed: bool) -> Callable[[], None]:
        return lambda: self._on_edge(Edge(name, pressed, self._clock()))

    def held(self) -> list[str]:
        """Names of the buttons that read as pressed right now (a stuck button shows here)."""
        return [name for name, b in self.buttons.items() if b.is_active]

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()

    def __enter__(self) -> "ButtonBank":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class _Contact:
    raw: bool = False
    accepted: bool = False
    locked_until: float = float("-inf")
    pressed_at: float = 0.0
    long_sent: bool = False
    deferred: bool = False  # the press edge found a hold meaning: the release reports it


@dataclass
class PressDetector:
    """Edges in, presses out: leading-edge debounce with a lock-out, and long presses.

    The first edge of a change is taken at once (no added latency); edges in the next ``debounce_s``
    are contact bounce. When the lock-out ends, the last raw level is checked again so a quick tap
    whose release fell inside the lock-out is not lost. Buttons in ``hold_buttons`` report a short
    press on release, or a long press once held ``hold_s``; all others report on the press edge.
    """

    debounce_s: float = 0.03
    hold_s: float = 1.0
    hold_buttons: frozenset[str] = frozenset()
    _contacts: dict[str, _Contact] = field(default_factory=dict)

    def edge(self, edge: Edge) -> list[ButtonPress]:
        contact = self._contacts.setdefault(edge.name, _Contact())
        contact.raw = edge.pressed
        if edge.t < contact.locked_until:
            return []
        return self._settle(edge.name, contact, edge.t)

    def wake(self, t: float) -> list[ButtonPress]:
        """Call at (or after) ``next_wake()``: ends lock-outs and fires long presses."""
        presses: list[ButtonPress] = []
        for name, contact in self._contacts.items():
            if t >= contact.locked_until:
                presses += self._settle(name, contact, t)
            if (contact.deferred and contact.accepted and not contact.long_sent
                    and t >= contact.pressed_at + self.hold_s):
                contact.long_sent = True
                presses.append(ButtonPress(name, t, long=True))
        return presses

    def next_wake(self) -> float | None:
        times = []
        for name, contact in self._contacts.items():
            if contact.raw != contact.accepted or contact.locked_until != float("-inf"):
                times.append(contact.locked_until)
            if contact.deferred and contact.accepted and not contact.long_sent:
                times.append(contact.pressed_at + self.hold_s)
        return min(times) if times else None

    def _settle(self, name: str, contact: _Contact, t: float) -> list[ButtonPress]:
        if contact.raw == contact.accepted:
            contact.locked_until = float("-inf")
            return []
        contact.accepted = contact.raw
        contact.locked_until = t + self.debounce_s
        if contact.accepted:
            contact.pressed_at = t
            contact.long_sent = False
            contact.deferred = name in self.hold_buttons
            return [] if contact.deferred else [ButtonPress(name, t)]
        if contact.deferred and not contact.long_sent:  # a key that acted on its press edge
            contact.deferred = False                    # (its hold meaning came after) is done
            return [ButtonPress(name, t)]
        return []

    def pressed(self) -> list[str]:
        return [name for name, c in self._contacts.items() if c.accepted]


def mock_factory() -> object:
    """gpiozero's own ``MockFactory`` (imported lazily: only tests and simulation need it)."""
    from gpiozero.pins.mock import MockFactory

    return MockFactory()


__all__ = ["ButtonBank", "ButtonPress", "Edge", "PressDetector", "mock_factory"]
