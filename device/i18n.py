"""All text people read goes through gettext: ``_("...")`` here, catalogues in ``locale/``.

The language is a setting (``[ui] language``, the Settings mode, ``--lang``): ``use(lang)`` switches
every later ``_()`` at once. Engines stay free of text choices: their event texts are English for
logs; screens build their words from the events' data through ``_``.
"""

from __future__ import annotations

import gettext
from pathlib import Path

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


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it yet: texts kept in tables made at
    import (set-up labels, mode names) are passed through ``_`` where they are shown."""
    return message
