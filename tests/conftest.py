"""Shared fixtures: a simulated box on a ManualClock, and reference frames (PNG) to compare with."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image

from spielleiter.device import config
from spielleiter.device.box import Box
from spielleiter.device.runtime import ManualClock
from spielleiter.drivers.buttons import mock_factory
from spielleiter.drivers.display import open_device

REFERENCE = Path(__file__).parent / "device" / "reference"
REGEN = os.environ.get("SPIELLEITER_REGEN") == "1"


def build_box(state_dir: Path, names: list[str] | None = None, **kwargs) -> Box:
    """A whole device on MockFactory pins, luma's dummy display and a ManualClock."""
    raw = config.read(None)
    if names:
        raw["players"]["names"] = names + [n for n in raw["players"]["names"]
                                           if n not in names][: 10 - len(names)]
    return Box.build(config.validate(raw), state_dir, pin_factory=mock_factory(),
                     display_device=open_device("dummy"), clock=ManualClock(),
                     seed_source=lambda: 7, **kwargs)


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


def assert_frame(image: Image.Image, name: str) -> None:
    """Compare a frame pixel for pixel with ``reference/<name>.png``.

    References are written only on purpose: ``SPIELLEITER_REGEN=1 pytest``. A mismatch saves the
    frame as ``<name>.actual.png`` beside the reference to look at.
    """
    path = REFERENCE / f"{name}.png"
    frame = image.convert("1")
    if REGEN or not path.exists():
        if not REGEN:
            pytest.fail(f"no reference frame {path.name}; run with SPIELLEITER_REGEN=1 and look at it")
        path.parent.mkdir(parents=True, exist_ok=True)
        frame.save(path)
        return
    expected = Image.open(path).convert("1")
    actual_path = path.with_name(f"{name}.actual.png")
    if expected.size != frame.size or expected.tobytes() != frame.tobytes():
        frame.save(actual_path)
        pytest.fail(f"frame differs from {path.name}; see {actual_path.name}")
    actual_path.unlink(missing_ok=True)
