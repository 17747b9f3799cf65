"""A simulator left running must not grow. gpiozero's
``MockPin`` appends every state change to ``states`` (for ``assert_states`` in its own tests);
the headless simulator trims it with ``MockPin.clear_states`` after every command."""

from __future__ import annotations

import io

from spielleiter.device.cli.headless import Headless
from support import build_box


def test_the_mock_pins_keep_no_growing_history_over_many_commands(tmp_path):
    with build_box(tmp_path / "state", pans=False) as box:
        script = Headless(box, io.StringIO())
        for _ in range(300):
            script.line("tap host.next")
        pins = list(box.pin_factory.pins.values())
        assert max(len(pin.states) for pin in pins) <= 3
        assert box.app.mode == "home"  # the commands still did what they say
