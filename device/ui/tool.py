"""A tool from the home menu (the learning station, the Scale, Settings) as a screen: its mode
gets the presses and weights; what it leaves (BACK from its first screen) closes it."""

from __future__ import annotations

from ..inputs import Press, Weight
from ..modes.base import Mode
from ..screen.render import View
from .screen import Screen, Shell


class ToolScreen(Screen):
    name = "tool"

    def __init__(self, shell: Shell, mode: Mode) -> None:
        super().__init__(shell)
        self.mode = mode

    def on_press(self, press: Press) -> None:
        if not self.mode.on_press(press):
            self.shell.pop()
        else:  # a tool's long keys may change with its screen (the letter wheel)
            self.shell.set_holds()

    def on_weight(self, weight: Weight) -> bool:
        return self.mode.on_weight(weight)

    def holds(self) -> frozenset[str]:
        return self.mode.holds()

    def private(self) -> bool:
        return self.mode.private()

    def view(self) -> View:
        return self.mode.view()

    @property
    def cursor(self) -> int | None:  # type: ignore[override]
        return getattr(self.mode, "cursor", None)

    def close(self) -> None:
        self.mode.close()


__all__ = ["ToolScreen"]
