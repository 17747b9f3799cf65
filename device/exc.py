"""The device's errors, in one place (as gpiozero keeps its own in ``exc``): one base,
``DeviceError``, and each error also subclasses the builtin a caller would expect."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..games import GameError


class DeviceError(Exception):
    """Base of every error the device layer raises (each also subclasses the matching builtin)."""


class InputError(DeviceError, ValueError):
    """Text or JSON that the box refuses; the message is one line fit for a reply or the OLED."""


class ConfigError(DeviceError, ValueError):
    """The configuration has problems; ``problems`` lists every one."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


class SessionError(DeviceError, RuntimeError):
    """The journal's actions cannot be replayed any more (undo found the game changed)."""


class ReplayError(InputError):
    """The document cannot be replayed; the message is one line for stderr (a DeviceError and a
    ValueError, like every InputError). ``refused``: the engine's own refusal behind it, for a
    caller that says it in the table's language."""

    refused: GameError | None = None


class JournalError(DeviceError, RuntimeError):
    """The journal cannot be opened or written."""


class StateDirInUse(DeviceError, RuntimeError):
    """Another box runs on this state directory."""


__all__ = ["ConfigError", "DeviceError", "InputError", "JournalError", "ReplayError", "SessionError",
           "StateDirInUse"]
