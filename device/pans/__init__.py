"""The device's pans: the drivers' readers and weighing pipeline, as the table meets them.

``Scales`` builds a channel per configured pan and sends modes ``Weight`` events (``scales``);
the same pipeline runs on simulated cells in virtual time for the CLI tools (``simulated``).
Around it: the warm-up notice (``warm_up``), the thermometer a box's cells have
(``thermometer``), whether a saved calibration is plausible (``checks``) and the words for a
reading (``words``).
"""

from __future__ import annotations

from .scales import Scales, TableScales

__all__ = ["Scales", "TableScales"]
