"""The pictures in docs/type/: the words a family misread, drawn by the old renderer (its
``device/screen/render.py`` from the history, written to a temporary file) and by today's, side by
side at four times the OLED's size.

    python scripts/type_shots.py
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

from spielleiter.device.screen import render as screens

ROOT = Path(__file__).resolve().parent.parent
OLD_RENDERER = "9f4f7c1^:device/screen/render.py"  # the commit that brought Terminus, before it
WORDS = (("Runde 1:", "wählt!"), ("The winner is", None), ("Tonne", None), ("Münzen", None),
         ("Anna", None), ("Beginnt", None), ("gewinnt", None))
SCALE = 4


def old_screens():
    path = Path(tempfile.mkdtemp()) / "old_screens.py"
    path.write_bytes(subprocess.run(["git", "show", OLD_RENDERER], cwd=ROOT, check=True,
                                    capture_output=True).stdout)
    spec = importlib.util.spec_from_file_location("old_screens", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["old_screens"] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def main() -> None:
    old = old_screens()
    size = (128 * SCALE, 64 * SCALE)
    for i, (big, line) in enumerate(WORDS, 1):
        lines = (line,) if line else ()
        before = old.render(old.View("Tatort Tonne", lines, big=big)).convert("L")
        after = screens.render(screens.View("Tatort Tonne", lines, big=big)).convert("L")
        out = Image.new("L", (size[0] * 2 + 16, size[1]), 128)
        out.paste(before.resize(size, Image.Resampling.NEAREST), (0, 0))
        out.paste(after.resize(size, Image.Resampling.NEAREST), (size[0] + 16, 0))
        stem = big.split()[0].rstrip(":").lower().replace("ü", "ue")
        name = ROOT / "docs" / "type" / f"{i}-{stem}.png"
        out.save(name, optimize=True)
        print(name.relative_to(ROOT))


if __name__ == "__main__":
    main()
