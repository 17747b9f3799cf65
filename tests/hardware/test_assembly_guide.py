"""hardware/assembly.md is a guide a builder can follow: a picture for every step (each one the
models render), the self-test row that proves each step, the first calibration, the checks
before a child plays, and a list of the files that is what the models export."""

from __future__ import annotations

import re

from boxmaker import cli, models

ROWS = ("config", "OLED", "left pan", "right pan", "thermo", "buttons", "link")


def guide() -> str:
    return cli.GUIDE.read_text(encoding="utf-8")


def steps() -> list[str]:
    return re.split(r"^## Step \d", guide(), flags=re.MULTILINE)[1:]


def test_every_step_has_its_picture_and_the_self_test_row_that_proves_it():
    assert len(steps()) == 6
    for number, text in enumerate(steps(), start=1):
        assert f"renders/step{number}-" in text, number
        assert "**Proves it:**" in text, number
        proof = text[text.index("**Proves it:**"):]
        assert any(f"**{row}**" in proof for row in ROWS), number
    for row in ROWS:
        assert f"**{row}**" in guide(), row


def test_every_picture_the_models_render_is_shown_and_exists():
    for render in models.RENDERS:
        assert f"]({render.path})" in guide(), render.path
        assert (models.HARDWARE / render.path).stat().st_size > 5_000


def test_every_link_of_the_guide_reaches_a_file():
    for target in re.findall(r"\]\(([^)#\s]+)", guide()):
        if not target.startswith("http"):
            assert (cli.GUIDE.parent / target).exists(), target


def test_the_first_calibration_and_the_checks_before_a_child_plays_are_there():
    text = guide()
    assert "spielleiter calibrate" in text
    checks = text[text.index("## Before a child touches it"):]
    for words in ("2 kg", "sharp edges", "pinch", "finger or a pencil", "0.3 mm"):
        assert words in checks, words


def test_the_list_of_files_is_what_the_models_exported():
    start = guide().index(models.FILES_BEGIN) + len(models.FILES_BEGIN)
    block = guide()[start:guide().index(models.FILES_END)].strip("\n")
    assert block == models.files_table(), "python scripts/hardware.py models"
    for item in models.EXPORTS:
        if not item.path.endswith(".svg"):
            assert f"[{item.path}]({item.path})" in block
