"""Pan Dice played from the home menu: Anna and Ben, a roll, an aim, a weighing, a pass."""

from __future__ import annotations

from typing import Iterator

from ..base import Demo, DemoStep


def script() -> Iterator[DemoStep]:
    yield ("open", "pan-dice")
    for _ in range(4):
        yield ("tap", "host.ok")                 # players, the goal, the die, the summary
    yield ("tap", "s1.B")                        # Anna rolls
    yield ("idle", 2.0)
    yield ("tap", "s1.B")                        # aims
    yield ("tap", "host.ok")                     # the aim page, read
    yield ("put", "left", 30.0)
    yield ("idle", 2.0)
    yield ("tap", "s1.B")                        # weighs


DEMOS = {"pan-dice": Demo(("Anna", "Ben"), script)}
