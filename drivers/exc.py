"""Every error a driver raises, in one place (as gpiozero keeps its own in ``exc``): one base,
``DriverError``, and each error also subclasses the builtin a caller would expect."""

from __future__ import annotations

from typing import Any


class DriverError(Exception):
    """Base of every error a driver raises (each also subclasses the matching builtin)."""


class DisplayError(DriverError, OSError):
    """The display did not answer (wiring, address, permissions)."""


class LoadCellError(DriverError, RuntimeError):
    """Base of the load-cell drivers' errors (a missing hardware module, a closed reader...)."""


class Worded:
    """A mixin, before its error's bases, for an error the box says in its own language. Like a
    game's refusal (``games.core.GameError``) the message is a template and its parameters:
    ``str(exc)`` is the English sentence (logs), and the box shows ``template`` translated and
    filled with ``params`` (``device.i18n.refusal``). Drivers know no gettext."""

    def __init__(self, template: str, /, **params: Any) -> None:
        self.template = template
        self.params: dict[str, Any] = params
        super().__init__(template.format(**params) if params else template)  # type: ignore[call-arg]

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.template, self.params))


class CalibrationError(Worded, LoadCellError, ValueError):
    """Calibration points that cannot define a scale, or a stored calibration that is broken
    (a template short enough for the OLED, see ``Worded``)."""


class ThermometerError(DriverError, RuntimeError):
    """No temperature: no sensor, a loose wire, a failed CRC or a reading no room can have."""


class StackError(DriverError, ValueError):
    """Unusable unit weights (no samples, a non-positive weight)."""


def _rebuild(cls: type, template: str, params: dict[str, Any]) -> Worded:
    made: Worded = cls(template, **params)
    return made


__all__ = ["CalibrationError", "DisplayError", "DriverError", "LoadCellError", "StackError",
           "ThermometerError", "Worded"]
