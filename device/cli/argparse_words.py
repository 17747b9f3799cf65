"""argparse's own words in the box's language: its usage line, the help's headings and its error
messages ("the following arguments are required") are asked of gettext by argparse itself; here
they are asked of the box's catalogue instead, which holds their German."""

from __future__ import annotations

import argparse

from .. import i18n
from ..i18n import N_, ngettext

# The texts argparse asks for (Python 3.11+), so the catalogue keeps them.
WORDS = (
    N_("usage: "), N_("positional arguments"), N_("options"),
    N_("show this help message and exit"), N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"), N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"), N_("expected one argument"),
    N_("expected at most one argument"), N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("%(prog)s: error: %(message)s\n"), N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"), N_("can't open '%(filename)s': %(error)s"),
)


def _plurals(n: int) -> tuple[str, ...]:
    """argparse's plural texts, for the catalogue (never called)."""
    return (ngettext("expected %s argument", "expected %s arguments", n),)


def install() -> None:
    """Make argparse say its words through the box's catalogue (in the current language)."""
    argparse._ = i18n._  # type: ignore[attr-defined]
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]


__all__ = ["WORDS", "install"]
