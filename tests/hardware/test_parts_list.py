"""hardware/parts.toml is the parts list: it adds up, it names where to buy each part and when
its price was taken, and the README's bill of materials is what it renders."""

from __future__ import annotations

import re

import pytest
from boxmaker import BoxmakerError, cli, parts


def test_each_line_is_its_quantity_times_its_price_and_the_total_is_their_sum():
    bom = parts.load()
    assert len(bom.parts) >= 15
    for part in bom.parts:
        assert part.line_eur == round(part.qty * part.eur, 2)
    assert bom.total == round(sum(p.qty * p.eur for p in bom.parts), 2)
    assert 100 < bom.total < 300


def test_every_part_says_what_to_search_for_and_the_prices_have_a_date():
    bom = parts.load()
    assert re.fullmatch(r"20\d\d(-\d\d)?", bom.as_of)   # a year, or a year and month
    assert all(p.search.strip() for p in bom.parts)
    ids = [p.id for p in bom.parts]
    assert len(ids) == len(set(ids))


def test_the_readme_table_is_what_the_parts_list_renders():
    text = cli.README.read_text(encoding="utf-8")
    assert parts.block_in(text) == parts.render(parts.load()), (
        "hardware/README.md's bill of materials is stale: python scripts/hardware.py parts")


def test_the_rendered_table_adds_up_as_printed():
    block = parts.render(parts.load())
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in block.splitlines() if re.match(r"\| \d", line)]
    for row in rows:
        assert round(int(row[0]) * float(row[4]), 2) == float(row[5])
    [total] = re.findall(r"\*\*([\d.]+)\*\*", block)
    assert float(total) == round(sum(float(r[5]) for r in rows), 2)
    [about] = re.findall(r"About (\d+) EUR in all", block)
    assert int(about) == round(float(total))


def test_a_broken_parts_list_is_refused_with_each_problem_named(tmp_path):
    broken = tmp_path / "parts.toml"
    broken.write_text('[prices]\ncurrency = "EUR"\nas_of = "2024-11"\nwhere = "shops"\n'
                      '[[part]]\nid = "pi"\nqty = "two"\nname = "Pi"\nsearch = "Pi"\neur = 50\n'
                      '[[part]]\nid = "sd"\nqty = 1\nname = "SD"\nsearch = "SD"\neur = -1\n')
    with pytest.raises(BoxmakerError) as caught:
        parts.load(broken)
    assert "part 'pi': qty 'two'" in str(caught.value)
    assert "part 'sd': eur -1" in str(caught.value)


def test_a_size_the_models_need_but_the_list_lacks_is_named():
    with pytest.raises(BoxmakerError, match="part 'sd' needs fit.hole_d"):
        parts.load().fit("sd", "hole_d")
