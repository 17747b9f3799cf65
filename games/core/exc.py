"""Every error a rule engine raises, in one place: ``GameError`` and its kinds, each a template
with its parameters so an engine needs no language, and a ``ValueError`` for any caller."""

from __future__ import annotations

from typing import Any, Mapping


class GameError(ValueError):
    """Base of every error a rule engine raises: a short message fit for the OLED (3 x 21 chars).

    The message is a template and its parameters, ``IllegalAction("{turn}'s turn, not {name}'s",
    turn="Anna", name="Ben")``, so an engine needs no language: ``str(exc)`` is the English
    sentence (logs, the serial link), and the device shows ``template`` translated, filled with
    ``params``. A template is a string literal (the catalogue tools collect it from the source),
    filled by ``str.format`` only when there are parameters. Parameters named ``colour``,
    ``shape`` or ``kind`` hold an engine's English word for a thing, which the device translates
    too; ``{value!r}`` shows a value as it was given (bad input) and is never translated.
    """

    def __init__(self, template: str, /, **params: Any) -> None:
        self.template = template
        self.params: dict[str, Any] = params
        super().__init__(fill(template, params))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and copy rebuild the error from its template, not from the English sentence."""
        return (_rebuild, (type(self), self.template, self.params))


class IllegalAction(GameError):
    """The action breaks a rule; the state it was offered to is unchanged."""


class SetupError(GameError):
    """The players or options cannot start a game."""


def fill(template: str, params: Mapping[str, Any]) -> str:
    """``template`` filled with ``params`` (as it stands without any, or if they do not fit)."""
    if not params:
        return template
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError, AttributeError, TypeError):
        return template


def _rebuild(cls: type[GameError], template: str, params: dict[str, Any]) -> GameError:
    return cls(template, **params)


__all__ = ["GameError", "IllegalAction", "SetupError", "fill"]
