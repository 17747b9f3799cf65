"""What a tool from the home menu shares (Past games, Statistics, Settings, the Scale): it is
worked at the host panel, so a station key is refused with the reason; no key has a long
meaning, nothing on it is private, and weights pass it by unless it says otherwise."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...inputs import Press, Weight

if TYPE_CHECKING:
    from ...ui.screen import Shell


class HostTool:
    """The ``Mode`` protocol for a host-panel tool: a subclass says what a host key does
    (``on_host``: False on BACK from its first screen, which goes home) and shows ``view``."""

    app: "Shell"

    def holds(self) -> frozenset[str]:
        return frozenset()

    def on_press(self, press: Press) -> bool:
        if press.station is not None:
            self.app.refuse_station()
            return True
        return self.on_host(press.key)

    def on_host(self, key: str) -> bool:
        raise NotImplementedError

    def on_weight(self, weight: Weight) -> bool:
        return False

    def private(self) -> bool:
        return False

    def close(self) -> None:
        pass


__all__ = ["HostTool"]
