"""Shared fixtures: a simulated box on a ManualClock (helpers live in ``support.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spielleiter.device.box import Box
from support import build_box


@pytest.fixture
def box_factory(tmp_path):
    boxes: list[Box] = []

    def make(names: list[str] | None = None, state_dir: Path | None = None, **kwargs) -> Box:
        box = build_box(state_dir or tmp_path / "state", names, **kwargs)
        box.runtime.pump()
        boxes.append(box)
        return box

    yield make
    for box in boxes:
        box.close()
