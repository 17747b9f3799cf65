"""Type-check the product with mypy as it is installed: ``spielleiter.games``, ``.drivers`` and
``.device``.

The three top-level folders install under the ``spielleiter`` namespace (pyproject.toml's
package-dir), which an editable install maps with a runtime hook mypy cannot follow. So this
lays out a tree of links, ``spielleiter/{games,drivers,device}`` -> the folders, in a temporary
directory and checks the package there with the settings in pyproject.toml's ``[tool.mypy]``.

    python scripts/typecheck.py [mypy arguments]
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP = ("games", "drivers", "device")


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="spielleiter-types-") as tmp:
        package = Path(tmp) / "spielleiter"
        package.mkdir()
        for top in TOP:
            (package / top).symlink_to(ROOT / top, target_is_directory=True)
        command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                   "--cache-dir", str(ROOT / ".mypy_cache"), "-p", "spielleiter", *argv]
        return subprocess.run(command, cwd=tmp).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
