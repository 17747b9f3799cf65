"""The Scale mode: every pan live, tare, and calibration with a known mass on the host panel."""

from __future__ import annotations

from typing import Any

from ..inputs import Press, Weight
from ..scale_ui import ScaleTool
from ..screens import View
from .base import ModeInfo


class ScaleMode:
    def __init__(self, app: Any) -> None:
        self.tool = ScaleTool(app, app.scales)

    def holds(self) -> frozenset[str]:
        return frozenset()

    def on_press(self, press: Press) -> bool:
        return True if press.station is not None else self.tool.on_host(press.key)

    def on_weight(self, weight: Weight) -> bool:
        if weight.kind == "stable":
            self.tool.try_capture()
        return True

    def view(self) -> View:
        return self.tool.view()

    def private(self) -> bool:
        return False

    def close(self) -> None:
        pass


MODE = ModeInfo("scale", "Scale", open=ScaleMode)
