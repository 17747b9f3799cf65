"""hardware/README.md's bill of materials adds up: each line is its quantity times its unit
price, the total row is their sum, and the text above the table quotes that total. (The table is
rendered from hardware/parts.toml; tests/hardware/test_parts_list.py checks that.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.shipped_language
README = Path(__file__).resolve().parents[2] / "hardware" / "README.md"


def section() -> str:
    text = README.read_text(encoding="utf-8")
    return text[text.index("## Bill of materials"):text.index("## Pinout")]


def rows() -> list[tuple[int, float, float]]:
    found = []
    for line in section().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0].isdigit():   # qty, part, search for, notes, each, line
            found.append((int(cells[0]), float(cells[4]), float(cells[5])))
    return found


def test_every_line_is_quantity_times_unit_price():
    assert len(rows()) >= 15
    for qty, unit, line in rows():
        assert round(qty * unit, 2) == line, (qty, unit, line)


def test_the_total_and_the_text_agree_with_the_lines():
    total = round(sum(line for _, _, line in rows()), 2)
    [stated] = re.findall(r"\*\*total\*\* \| \| \| \| \*\*([\d.]+)\*\*", section())
    assert float(stated) == total
    [about] = re.findall(r"About (\d+) EUR in all", section())
    assert int(about) == round(total)
