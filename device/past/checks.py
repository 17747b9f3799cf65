"""What a correction after the game may say: only fields the action has, a measurement only
within the range its game's rules measure (``Measurement.limits``), and a reason a screen can
show. Each refusal is a message in the box's language, steps counted from 1."""

from __future__ import annotations

import unicodedata
from typing import Any

from ...games import GAMES, GameError
from ..i18n import _, refusal
from ..journal.header import Header
from ..replay import start
from ..text import InputError

# General categories a reason may not hold: control, format (zero-width, direction overrides),
# private use, surrogates and unassigned code points. Spaces were folded before.
HIDDEN = ("Cc", "Cf", "Co", "Cs", "Cn")


def reason(why: Any, most: int) -> str:
    """``why`` with its spaces folded; InputError when empty, too long, or holding a character
    a screen cannot show as text (an escape, a zero-width space)."""
    text = " ".join(why.split()) if isinstance(why, str) else ""
    if any(unicodedata.category(ch) in HIDDEN for ch in text):
        raise InputError(_("The reason holds characters a screen cannot show."))
    if not text:
        raise InputError(_("Say why it is corrected."))
    if len(text) > most:
        raise InputError(_("The reason is too long."))
    return text


def fields(game: str, step: int, original: dict[str, Any], action: dict[str, Any] | None
           ) -> None:
    """InputError when ``action`` (the correction of step ``step``, from 1) names a field the
    played action does not have, or a measurement outside the range the rules measure."""
    if action is None:
        return
    extra = sorted(str(k) for k in action if k not in original)
    if extra:
        raise InputError(_("Step {n} has no field {field}.").format(n=step, field=extra[0]))
    info = GAMES.get(game)
    measurement = None if info is None else info.measurements.get(str(action.get("type")))
    if measurement is None or measurement.field not in action:
        return
    if not measurement.allows(action[measurement.field]):
        least, most = measurement.range
        raise InputError(_("{field} must be {least} to {most}.").format(
            field=measurement.field, least=f"{least:g}", most=f"{most:g}"))


def replays_to_end(header: Header, actions: list[dict[str, Any]]) -> None:
    """InputError naming the first step (from 1) the engine would refuse with the corrected
    ``actions``, or saying the game would not be over."""
    state = start(header)
    for index, action in enumerate(actions):
        try:
            state, _events = state.apply(action)
        except GameError as exc:
            raise InputError(_("Not possible: then step {n} would be refused ({why})."
                               ).format(n=index + 1, why=refusal(exc))) from None
        except Exception as exc:  # an engine given a shape it never expected
            raise InputError(_("Not possible: then step {n} would be refused ({why})."
                               ).format(n=index + 1, why=type(exc).__name__)) from None
    if not state.is_over:
        raise InputError(_("Not possible: then the game would not be over."))


__all__ = ["HIDDEN", "fields", "reason", "replays_to_end"]
