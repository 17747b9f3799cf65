"""The hardware tests import the generator beside the files it makes (hardware/boxmaker) and
render the models once a session, with few facets: seconds, not minutes."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
if str(HARDWARE) not in sys.path:
    sys.path.insert(0, str(HARDWARE))

from boxmaker import models  # noqa: E402

FACETS = 8           # enough for every hole's size to read true (a multiple of 4)


def needs_openscad() -> None:
    if shutil.which("openscad") is None:
        pytest.skip("openscad is not installed (Debian: apt-get install openscad; "
                    "scripts/dev.sh test installs it)")


@pytest.fixture(scope="session")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every model exported from the sources as they stand (a clean checkout's), into a folder."""
    needs_openscad()
    root = tmp_path_factory.mktemp("exported")
    # the SVG panels are the DXF panels' geometry again: the scripts' run makes them
    items = tuple(e for e in models.EXPORTS if not e.path.endswith(".svg")) + models.FIT_EXPORTS
    models.export_all(root, fn=FACETS, jobs=2, items=items)
    return root


@pytest.fixture(scope="session")
def report() -> dict[str, object]:
    needs_openscad()
    return models.report()


@pytest.fixture
def scad() -> None:
    """For a test that runs OpenSCAD itself."""
    needs_openscad()
