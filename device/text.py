"""Text that enters the box (link lines, replay documents, journal rows): checked once, here.

JSON may spell a lone UTF-16 surrogate (``"\\ud800"``); Python decodes it into a ``str`` that can
never be encoded as UTF-8 again, so a name holding one would break every later message, print and
journal write. Integer literals longer than Python's conversion limit (4300 digits) raise a bare
``ValueError``; ``NaN`` and ``Infinity`` are not JSON at all. ``loads`` refuses all of these with
one line, and ``problem`` finds such text in a value built some other way.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from .exc import InputError

_SURROGATE = re.compile("[\ud800-\udfff]")


def bad_char(text: str) -> str | None:
    """A description of the first character that is not valid Unicode text, or None."""
    if text.isascii():
        return None
    found = _SURROGATE.search(text)
    if found is None:
        return None
    return f"a lone surrogate \\u{ord(found[0]):04x} at character {found.start()}"


def problem(value: Any) -> str | None:
    """Where a JSON value holds text that cannot be UTF-8 (in a string or a key), or None.

    Walks iteratively, so a deeply nested value cannot exhaust the stack; a value whose every
    text encodes (the JSON encoder, in C, says so at once) is not walked at all.
    """
    if isinstance(value, (dict, list)):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
            return None
        except (UnicodeEncodeError, TypeError, ValueError, RecursionError):
            pass  # walk it, to say where
    todo: list[tuple[Any, str]] = [(value, "")]
    while todo:
        item, where = todo.pop()
        if isinstance(item, str):
            found = bad_char(item)
            if found:
                return f"{found} in {where or 'the text'}"
        elif isinstance(item, dict):
            for key, inner in item.items():
                path = f"{where}.{key}" if where else str(key)
                if isinstance(key, str) and bad_char(key):
                    return f"{bad_char(key)} in a key"
                todo.append((inner, path))
        elif isinstance(item, (list, tuple)):
            todo.extend((inner, f"{where}[{i}]") for i, inner in enumerate(item))
    return None


def check(value: Any, what: str = "text") -> Any:
    """``value`` unchanged, or InputError when it holds text that is not valid Unicode."""
    found = problem(value)
    if found:
        raise InputError(f"{what} is not valid Unicode: {_printable(found)}")
    return value


def _printable(text: str) -> str:
    """``text`` with anything unencodable escaped, so an error message can always be sent."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _no_constant(name: str) -> Any:
    raise InputError(f"malformed JSON: {name} is not a JSON number")


def _finite(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):  # 1e999 parses as inf, which no JSON can carry back out
        raise InputError(f"malformed JSON: the number {literal[:20]} is out of range")
    return value


def loads(text: str, what: str = "text", *, constants: bool = False) -> Any:
    """JSON from ``text`` with every problem above as an InputError (one line); ``constants``
    lets NaN and Infinity through (measurements the box itself wrote)."""
    if not isinstance(text, str):
        raise InputError(f"{what} is not text")
    found = bad_char(text)
    if found:
        raise InputError(f"{what} is not valid Unicode: {found}")
    try:
        value = (json.loads(text) if constants else
                 json.loads(text, parse_constant=_no_constant, parse_float=_finite))
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
                         ) from None
    except RecursionError:
        raise InputError("malformed JSON: nested too deeply") from None
    except InputError:
        raise
    except ValueError as exc:  # "Exceeds the limit (4300 digits) for integer string conversion"
        raise InputError(f"malformed JSON: {_short(exc)}") from None
    if text.isascii() and "\\ud" not in text and "\\uD" not in text:
        return value  # no character and no escape can have made a surrogate: nothing to walk
    return check(value, what)


def shown(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to fit an error line (a sender may put anything of any length there)."""
    text = _printable(repr(value))
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _short(exc: Exception) -> str:
    text = str(exc).split(";")[0]
    return text if len(text) <= 80 else text[:77] + "..."


def dumps(value: Any) -> str:
    """One line of compact JSON that always encodes as UTF-8 (unencodable characters escaped)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8", "backslashreplace").decode("utf-8")
