"""All text people read goes through gettext: ``_("...")`` here, catalogues in ``locale/``.

The language is a setting (``[ui] language``, the Settings mode, ``--lang``): ``use(lang)`` switches
every later ``_()`` at once. Engines stay free of text choices: their event texts are English for
logs; screens build their words from the events' data through ``_``. An engine's refusal is a
template and its parameters (``games.core.GameError``); ``refusal(exc)`` says it in the current
language.
"""

from __future__ import annotations

import gettext
import string
from pathlib import Path
from typing import Any

DOMAIN = "spielleiter"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("de", "en")
DEFAULT = "en"

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = DEFAULT


def use(language: str) -> None:
    """Make ``language`` the one every ``_()`` answers in (unknown: English)."""
    global _current, _language
    _language = language if language in LANGUAGES else DEFAULT
    _current = gettext.translation(DOMAIN, LOCALE_DIR, languages=[_language], fallback=True)


def language() -> str:
    return _language


def _(message: str) -> str:
    """``message`` in the current language."""
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The right form for ``n`` ("1 coin", "2 coins") in the current language."""
    return _current.ngettext(singular, plural, n)


def decimal(value: float, places: int, width: int = 0) -> str:
    """``value`` with ``places`` decimals as the language writes it ("13.10", German "13,10")."""
    text = f"{round(value, places) + 0.0:{width}.{places}f}"  # + 0.0: never "-0.00"
    return text.replace(".", ",") if _language == "de" else text


def signed(value: float, places: int) -> str:
    """``value`` with its sign always shown ("+0.050", German "+0,050")."""
    return ("+" if round(value, places) >= 0 else "") + decimal(value, places)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it yet: texts kept in tables made at
    import (set-up labels, mode names) are passed through ``_`` where they are shown."""
    return message


# The seat colours a shipped config names stations after, German and English, each with its
# English word (what the catalogue translates): a station called "Rot" is "Red" in English.
_COLOURS = (("Rot", "Red"), ("Blau", "Blue"), ("Grün", "Green"), ("Gelb", "Yellow"),
            ("Lila", "Purple"), ("Orange", "Orange"), ("Rosa", "Pink"), ("Braun", "Brown"),
            ("Grau", "Grey"), ("Weiß", "White"))
_COLOUR_WORDS = (N_("Red"), N_("Blue"), N_("Green"), N_("Yellow"), N_("Purple"), N_("Orange"),
                 N_("Pink"), N_("Brown"), N_("Grey"), N_("White"))
_SEAT_COLOUR = {name: english for pair in _COLOURS for name, english in
                ((pair[0], pair[1]), (pair[1], pair[1]))}


def seat_name(name: str) -> str:
    """A station's name in the current language when it is a seat colour ("Rot" -> "Red"); any
    other name (a family's own) as it is."""
    english = _SEAT_COLOUR.get(name)
    return name if english is None else _(english)


# The parameters of a refusal that hold an engine's English word for a thing (games.core.GameError)
# and are said in the current language too; player names and values shown as given ({x!r}) never.
WORD_FIELDS = frozenset({"colour", "shape", "kind"})
# The words engines put there are declared in their GameInfo (``words``): the catalogue tool
# collects them.


class _Word(str):
    """A word parameter of a refusal: translated where shown plainly, as given in ``{x!r}``."""


class _Filler(string.Formatter):
    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion is None and isinstance(value, _Word):
            return _(str(value))
        return super().convert_field(value, conversion)


def refusal(exc: BaseException) -> str:
    """An engine's refusal in the current language: ``_(exc.template)`` filled with
    ``exc.params`` (words among them translated too). The English ``str(exc)`` when the error
    carries no template or its translation does not fit the parameters."""
    template, params = getattr(exc, "template", None), getattr(exc, "params", None)
    if not isinstance(template, str) or not isinstance(params, dict):
        return str(exc)
    text = _(template)
    if not params:  # a template without parameters is never formatted (games.core.fill)
        return text
    words = {k: _Word(v) if k in WORD_FIELDS and isinstance(v, str) else v
             for k, v in params.items()}
    try:
        return _Filler().vformat(text, (), words)
    except (KeyError, IndexError, ValueError, AttributeError, TypeError):
        return str(exc)
