"""Shared fixtures: a simulated box on a ManualClock (helpers live in ``support.py``)."""

from __future__ import annotations

import itertools
import os
from dataclasses import replace
from pathlib import Path

import pytest

import spielleiter.device.modes as modes
import spielleiter.games as games
from spielleiter.device.config import core as config
from spielleiter.device import i18n
from spielleiter.device.box import Box
from support import build_box, english

SHIPPED_DEFAULTS = config.defaults

# A fifth game, written by docs/adding-a-game.md under tests/fixture_game/ (a die, a choice, a
# weighing), is on the registries' search paths for the whole run: every shared game and screen
# test meets it beside the shipped games, and no test may freeze the list of games.
FIXTURE_GAME = Path(__file__).resolve().parent / "fixture_game"
games.__path__.append(str(FIXTURE_GAME / "games"))
modes.__path__.append(str(FIXTURE_GAME / "modes"))
games.refresh()
modes.refresh()


@pytest.fixture(autouse=True)
def english_unless_asked(request, monkeypatch):
    """The box ships in German with German seat colours (its first users); a test reads its
    screens, names and stations in English unless it is marked ``shipped_language``."""
    if "shipped_language" not in request.keywords:
        monkeypatch.setattr(config, "defaults", lambda: english(SHIPPED_DEFAULTS()))
    i18n.use("en" if "shipped_language" not in request.keywords else "de")
    yield
    i18n.use("en")


_HOMES = itertools.count(1)


@pytest.fixture(autouse=True)
def own_state_home(tmp_path_factory, monkeypatch):
    """Commands run without --state-dir keep their journal under ``$XDG_STATE_HOME``: each test
    gets its own, so nothing the user (or another test) left in ~/.local/state is read. A name
    under the run's temporary folder that no other test gets (a worker has a folder of its own),
    made only if the test writes there: a ``tmp_path`` for every test, most of which never write
    a file, cost more than all the rest of this file's per-test work."""
    home = tmp_path_factory.getbasetemp() / "xdg-state" / str(next(_HOMES))
    monkeypatch.setenv("XDG_STATE_HOME", str(home))


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


@pytest.fixture
def fast_game_box_factory(box_factory):
    """Boxes for following a game that weighs nothing: no load cells (ten times faster without
    the bit-level HX711 twins) and the table's "fast" pace, so pages after a move turn by
    themselves (the default, waiting for OK, is proven in test_platform.py)."""
    def make(*args, **kwargs):
        box = box_factory(*args, pans=False, **kwargs)
        box.app.settings = replace(box.app.settings, pace="fast")
        return box
    return make


@pytest.fixture
def pty():
    """A real terminal device (a pty's slave end) for a serial port that should open."""
    master, slave = os.openpty()
    yield os.ttyname(slave)
    os.close(master)
    os.close(slave)
