"""The OLED's screens: what one screen says (``view``) and how it is drawn on 128x64 pixels
(``render``, in the bitmap type of ``fonts``); what lies over the top screen for a moment
(``overlay``) and screen sleep (``saver``). A game's own screens live in its mode folder.
"""

from __future__ import annotations

from .render import View

__all__ = ["View"]
