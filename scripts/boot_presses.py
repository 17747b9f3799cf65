"""The presses of a game, for the booted check (scripts/boot-check.sh).

Plays a game's demo on a simulated box (gpiozero's MockFactory, a manual clock) with the
players, the config and the seed the booted box will have, and writes what the fingers did as
JSON: each press (button, BCM pin, how long held) and each pause, and the number of actions the
journal must hold at the end. The guest presses the same buttons through a gpio-sim chip's lines
in real time.

    python scripts/boot_presses.py CONFIG.toml SEED > presses.json
    python scripts/boot_presses.py --until-basket CONFIG.toml SEED > troedel.json

The first is a whole Tatort Tonne game (with its winners). ``--until-basket`` is Tante Trudels
Trödel up to its first basket on a pan: set up, the Purchase of the Day's three rolls, and then
the pan the demo puts the basket on, where the guest's stand-in microcontroller puts a real one.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from spielleiter.device.config import core as config_mod
from spielleiter.device.box import Box
from spielleiter.device.cli.demo import play
from spielleiter.device.modes.tante_trudels_troedel.demo import DEMOS as TROEDEL
from spielleiter.device.modes.tatort_tonne.demo import DEMOS
from spielleiter.device.runtime import ManualClock
from spielleiter.drivers.buttons import mock_factory
from spielleiter.drivers.display import open_device


def presses(config: config_mod.Config, seed: int, *, until_basket: bool = False) -> dict[str, Any]:
    steps: list[list[Any]] = []
    pins = config.button_pins()
    with tempfile.TemporaryDirectory(prefix="spielleiter-presses-") as state_dir:
        with Box.build(config, Path(state_dir), pin_factory=mock_factory(),
                       display_device=open_device("dummy"), clock=ManualClock(),
                       seed_source=lambda: seed, simulated_scales=until_basket) as box:
            hold, idle = box.hold, box.idle

            def record_hold(name: str, seconds: float) -> None:
                steps.append(["press", name, pins[name], round(seconds, 3)])
                hold(name, seconds)

            def record_idle(seconds: float) -> None:
                if steps and steps[-1][0] == "idle":
                    steps[-1][1] = round(steps[-1][1] + seconds, 3)
                else:
                    steps.append(["idle", round(seconds, 3)])
                idle(seconds)

            box.hold, box.idle = record_hold, record_idle  # type: ignore[method-assign]
            if until_basket:
                return basket_plan(box, steps)
            play(box, DEMOS["tatort-tonne"].script())
            session = box.app.session
            assert session is not None and session.state.is_over, "the demo did not end the game"
            return {"game": "tatort-tonne", "seed": seed, "steps": steps,
                    "actions": len(session.actions), "winners": list(session.state.winners())}


def basket_plan(box: Box, steps: list[list[Any]]) -> dict[str, Any]:
    """Trödel's demo up to its first ``put``: the pan it names and the press after it (the
    station's "all on"), which the guest makes once the stand-in has put the basket down."""
    script = TROEDEL["tante-trudels-troedel"].script()
    before = []
    for step in script:
        if step[0] == "put":
            pan = step[1]
            break
        before.append(step)
    else:
        raise AssertionError("the demo puts nothing on a pan")
    play(box, iter(before))
    after = next(step for step in script if step[0] == "tap")
    session = box.app.session
    assert session is not None and not session.state.is_over
    name = after[1]
    return {"game": "tante-trudels-troedel", "steps": steps, "actions": len(session.actions),
            "pan": pan, "all_on": ["press", name, box.config.button_pins()[name], 0.08]}


def main(argv: list[str]) -> int:
    until_basket = argv[:1] == ["--until-basket"]
    argv = argv[1:] if until_basket else argv
    config = config_mod.load(Path(argv[0]))
    json.dump(presses(config, int(argv[1]), until_basket=until_basket), sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
