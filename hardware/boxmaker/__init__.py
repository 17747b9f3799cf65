"""Build the box from files: the parts list, the schematic and the printable models.

``python scripts/hardware.py`` runs it (``--help`` lists the steps). Everything here reads two
sources only: ``hardware/parts.toml`` (what to buy, with the sizes the models cut holes for) and
the box's pin map (the config the box runs with), so a changed part or pin redraws the files.
"""

from __future__ import annotations

from pathlib import Path

HARDWARE = Path(__file__).resolve().parent.parent
ROOT = HARDWARE.parent


class BoxmakerError(ValueError):
    """Bad input (a broken parts list, a missing tool): the message says what to fix."""
