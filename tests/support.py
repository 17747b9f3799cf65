"""Test helpers shared by every folder: a simulated box on a ManualClock, reference frames (PNG),
the headless sim in a subprocess and replay through the CLI. (Not ``conftest``: each test folder
may have a conftest of its own, and ``from conftest import`` would find the wrong one.)"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from spielleiter.device.config import core as config
from spielleiter.device.box import Box
from spielleiter.device.runtime import ManualClock
from spielleiter.drivers.buttons import mock_factory
from spielleiter.drivers.display import open_device

REFERENCE = Path(__file__).parent / "device" / "reference"
REGEN = os.environ.get("SPIELLEITER_REGEN") == "1"


ENGLISH_NAMES = ["Red", "Blue", "Green", "Yellow", "Purple", "Orange", "Pink", "Brown", "Grey",
                 "White"]


def english(raw: dict) -> dict:
    """The shipped configuration in English: the box ships in German (its first users), the
    tests read and assert English screens, names and stations unless they say otherwise."""
    raw.setdefault("ui", {})["language"] = "en"
    raw["players"]["names"] = list(ENGLISH_NAMES)
    for station, name in zip(raw.get("stations", []), ENGLISH_NAMES):
        station["name"] = name
    return raw


def english_config(folder: Path) -> Path:
    """A config.toml over the shipped defaults that makes the box English as ``english`` does,
    for the commands the tests start as a person would (``sim``, ``selftest``, ``service``)."""
    raw = english(config.defaults())
    lines = ["[ui]", 'language = "en"', "[players]",
             f"names = {json.dumps(raw['players']['names'])}"]
    for station in raw["stations"]:
        lines += ["[[stations]]"] + [f"{key} = {json.dumps(value)}" for key, value in station.items()]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "english.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def build_box(state_dir: Path, names: list[str] | None = None, pans: bool = True,
              **kwargs) -> Box:
    """A whole device on MockFactory pins, luma's dummy display and a ManualClock; with
    ``pans=False`` no load cells (games that weigh nothing run ten times faster without the
    bit-level HX711 twins)."""
    raw = english(config.read(None))
    if not pans:
        loadcells = raw["loadcells"]
        for name, cell in loadcells.items():
            if isinstance(cell, dict):
                loadcells[name] = {"reader": "none"}
    if names:
        raw["players"]["names"] = names + [n for n in raw["players"]["names"]
                                           if n not in names][: 10 - len(names)]
    return Box.build(config.validate(raw), state_dir, pin_factory=mock_factory(),
                     display_device=open_device("dummy"), clock=ManualClock(),
                     seed_source=lambda: 7, **kwargs)


def assert_frame(image: Image.Image, name: str) -> None:
    """Compare a frame pixel for pixel with ``reference/<name>.png`` (``name`` may hold a folder).

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
    actual_path = path.parent / f"{path.stem}.actual.png"
    if expected.size != frame.size or expected.tobytes() != frame.tobytes():
        frame.save(actual_path)
        pytest.fail(f"frame differs from {path.name}; see {actual_path.name}")
    actual_path.unlink(missing_ok=True)


class HeadlessSim:
    """``spielleiter sim --headless`` in a subprocess, one command and one JSON reply at a time."""

    def __init__(self, state_dir: Path, cells: str = "ideal") -> None:
        # ideal cells: these tests prove the journal through power cuts, to the exact gram
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "spielleiter.device.cli", "sim", "--headless", "--cells", cells,
             "--state-dir", str(state_dir), "--config", str(english_config(state_dir))],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ, PYTHONUNBUFFERED="1"))
        self.last = self._read()

    def _read(self) -> dict:
        line = self.proc.stdout.readline()
        assert line, self.proc.stderr.read()
        return json.loads(line)

    def send(self, command: str) -> dict:
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        self.last = self._read()
        return self.last

    def kill(self) -> None:
        """Power cut: SIGKILL, no chance to clean up."""
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            stream.close()

    def close(self) -> None:
        self.proc.stdin.close()
        assert self.proc.wait(timeout=10) == 0
        self.proc.stdout.close()
        self.proc.stderr.close()


def run_replay(capsys, doc) -> tuple[int, dict | None, str]:
    """Run ``spielleiter replay -`` on ``doc`` (text or JSON value): exit status, the printed
    state (None when nothing was printed) and stderr."""
    from spielleiter.device.cli import main

    text = doc if isinstance(doc, str) else json.dumps(doc)
    saved = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        code = main(["replay", "-"])
    finally:
        sys.stdin = saved
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


def open_game(box, name: str) -> None:
    """From the home menu to ``name``'s set-up: the home menu, then the game's own menu's
    "New game" (a tool opens at once)."""
    from spielleiter.device.modes import MODES

    assert box.app.mode == "home", box.last_view.as_text()
    while MODES[box.app.cursor].name != name:
        box.tap("host.next")
    box.tap("host.ok")
    if box.app.mode == "start":
        assert box.last_view.lines[box.last_view.cursor] == "New game", box.last_view.as_text()
        box.tap("host.ok")


def i18n_script():
    """scripts/i18n.py as a module (it is a script, not part of the package)."""
    import importlib.util

    root = Path(__file__).resolve().parents[1]
    if "i18n_script" not in sys.modules:
        spec = importlib.util.spec_from_file_location("i18n_script", root / "scripts" / "i18n.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["i18n_script"] = module  # dataclasses look their module up
        spec.loader.exec_module(module)
    return sys.modules["i18n_script"]


def type_name(box, name: str) -> int:
    """Type ``name`` on the letter wheel as a practised hand would (station 1's keys near);
    returns the presses used."""
    from spielleiter.device.modes.wheel import presses

    keys = presses(name)
    for key in keys:
        if key == "ok-hold":
            box.hold("host.ok", 1.2)
            box.idle(0.5)
        elif key in ("A", "C"):
            box.tap(f"s1.{key}")
        else:
            box.tap(f"host.{key}")
    return len(keys)


def start_header(box, game: str, players, options: dict, seed: int = 7,
                 table: dict | None = None) -> None:
    """Start a game as the link's "new" does (the set-up screens are walked elsewhere)."""
    from spielleiter.device.journal.header import Header

    header = Header(game, tuple(players), options, seed, table or {})
    box.runtime.post(lambda: box.app.start_game(header))
    box.runtime.pump()
    box.idle(0.5)


def act(box, **action) -> None:
    """Apply an action as the link does, then past the guard of the new screen, as a person
    reads it."""
    box.runtime.post(lambda: box.app.external_action(action))
    box.runtime.pump()
    box.idle(0.5)


def one_pan_box(tmp_path: Path) -> Box:
    """A box whose right pan is switched off (``reader = "none"``): one pan alone, English."""
    raw = english(config.read(None))
    raw["loadcells"]["right"] = {"reader": "none"}
    box = Box.build(config.validate(raw), tmp_path / "one", pin_factory=mock_factory(),
                    display_device=open_device("dummy"), clock=ManualClock(),
                    seed_source=lambda: 7)
    box.runtime.pump()
    return box


def trudel_turns_to_row_8(box) -> None:
    """Tante Trudels Trödel after the Purchase: Anna takes an item and ends, Ben moves one, and
    Anna moves on to row 8 (a scales row), her turn still open."""
    for player, roll, take in (("Anna", 5, True), ("Ben", 1, False), ("Anna", 3, None)):
        act(box, type="roll", player=player, value=roll)
        act(box, type="move", player=player, direction="forward")
        if take:
            act(box, type="take", player=player, coupon=False)
        if take is not None:
            act(box, type="end_turn", player=player)
