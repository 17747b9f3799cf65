"""The OpenSCAD models render from the sources as they stand, and the parts fit: measured on the
exported files (the holes of the cut panels and the parts' footprints) and on the sizes the
models compute (models/report.scad)."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest
from boxmaker import models, parts, pinmap, shapes

CLEAR = 0.2          # the models' clearance on a bought part's hole
BED = (220, 220, 250)


def fit(part: str, key: str) -> float:
    return float(parts.load().fit(part, key))


def close(a: tuple[float, float], b: tuple[float, float], within: float = 0.05) -> bool:
    return abs(a[0] - b[0]) <= within and abs(a[1] - b[1]) <= within


def test_every_model_renders_and_every_printed_part_fits_a_220_mm_bed(exported: Path):
    for item in models.EXPORTS:
        if item.path.endswith(".svg"):
            continue
        out = exported / item.path
        assert out.stat().st_size > 200, item.path
        if out.suffix == ".stl":
            lo, hi = shapes.stl_extent(out)
            size = [h - low for low, h in zip(lo, hi)]
            assert all(s <= b for s, b in zip(size, BED)), (item.path, size)
            assert lo[2] == pytest.approx(0, abs=0.01), item.path    # flat on the bed
        elif out.suffix == ".dxf":
            assert shapes.dxf_loops(out), item.path


def test_the_pi_sits_on_its_four_mounting_holes(exported: Path, report: dict):
    holes = shapes.holes(exported / "cut/base.dxf", 2.7 + CLEAR)
    assert len(holes) == 4
    assert sorted(holes) == sorted(tuple(p) for p in report["pi_holes"])
    xs, ys = sorted({round(x, 2) for x, _ in holes}), sorted({round(y, 2) for _, y in holes})
    assert (xs[1] - xs[0], ys[1] - ys[0]) == (58.0, 49.0)       # the Pi 4/5's pattern


def test_a_zero_2_w_gets_its_own_hole_pattern(scad: None):
    report = models.report((("pi_model", '"zero2w"'),))
    xs = sorted({x for x, _ in report["pi_holes"]})
    ys = sorted({y for _, y in report["pi_holes"]})
    assert (xs[1] - xs[0], ys[1] - ys[0]) == (58.0, 23.0)


def test_each_cell_meets_its_cradle_and_the_base_on_the_cells_own_hole_pitch(
        exported: Path, report: dict):
    pitch, inset = fit("cell", "hole_pitch"), fit("cell", "hole_inset")
    fixed_y, span = report["fixed_pair"]
    assert span == fit("cell", "length") - 2 * (inset + pitch / 2)
    base = shapes.holes(exported / "cut/base.dxf", fit("cell", "thread_fixed_d") + 0.3 + CLEAR)
    cradle = shapes.holes(exported / "fits/cradle_plan.dxf", fit("cell", "thread_fixed_d") + 0.5)
    assert len(base) == 4 and len(cradle) == 2
    for sx in (-1, 1):
        mine = sorted(p for p in base if p[0] * sx > 0)
        assert [round(y, 2) for _, y in mine] == [fixed_y - pitch / 2, fixed_y + pitch / 2]
        for (x, y), (cx, cy) in zip(mine, sorted(cradle, key=lambda p: p[1])):
            # the cradle lies with its origin under the pan's centre (the stop)
            assert close((x, y), (cx + sx * report["pan_x"], cy + report["pan_y"]))
    post = shapes.holes(exported / "fits/post_plan.dxf", fit("cell", "thread_loaded_d") + 0.4)
    assert sorted(y for _, y in post) == [-pitch / 2, pitch / 2]


def test_the_buttons_and_sockets_get_the_holes_the_parts_list_gives(exported: Path):
    button, socket = fit("button", "hole_d") + CLEAR, fit("gx12", "hole_d") + CLEAR
    assert len(shapes.holes(exported / "cut/lid.dxf", button)) == 3
    stations = len(pinmap.load(None).stations)
    assert len(shapes.holes(exported / "cut/back.dxf", socket)) == stations
    assert len(shapes.holes(exported / "cut/station_top.dxf", button)) == 3
    for path in ("cut/lid.dxf", "cut/back.dxf"):   # a nut beside a nut, never over one
        found = shapes.holes(exported / path, button if "lid" in path else socket)
        nut = fit("button", "nut_d") if "lid" in path else fit("gx12", "nut_d")
        for a, b in combinations(found, 2):
            assert ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 >= nut, path


@pytest.mark.parametrize("wall", ["3", "6"], ids=["printed", "plywood"])
def test_the_stop_can_be_set_to_its_gap_and_its_screw_stays_inside(wall: str, scad: None):
    report = models.report((("wall", wall),))
    gap = fit("stop", "gap")
    assert report["stop_gap"] == gap
    assert report["stop_set"] == pytest.approx(report["cell_under"] - gap)
    # room to turn it either way from its setting: down to lower it, up to close the gap
    assert report["stop_lowest"] + 0.5 <= report["stop_set"] <= report["stop_highest"] - 0.5
    assert report["stop_tip"] >= report["base_bottom"]           # no screw end under the box
    assert report["stop_tip"] <= report["stop_nut_bottom"]       # engaged through the whole nut
    assert report["stop_relief_d"] > fit("stop", "screw_d")      # a hex key reaches it from below


@pytest.mark.parametrize("wall", ["3", "6"], ids=["printed", "plywood"])
def test_the_pan_clears_the_lid_and_the_other_pan(wall: str, scad: None):
    report = models.report((("wall", wall),))
    assert report["seat_under"] - report["lid_top"] >= 3
    hole, post = report["post_hole"], report["post_size"]
    assert all((h - p) / 2 >= 2.5 for h, p in zip(hole, post))
    assert 2 * report["pan_x"] - report["pan_diameter"] >= 30
    assert report["cell_under"] > 0 and report["cell_top"] < report["lid_under"]
    assert report["socket_z"] + fit("gx12", "nut_d") / 2 <= report["wall_h"]   # under the lid


def test_the_case_has_a_socket_per_station_of_the_config(tmp_path: Path, scad: None):
    text = models.params_scad(parts.load(), ["Red", "Blue"])
    assert "station_count = 2;" in text and '"#d62728", "#1f77b4"' in text
    out = tmp_path / "back.dxf"
    models.run_openscad(models.MODELS / "case.scad", out,
                        (("part", '"back_2d"'), ("station_count", "2"), ("fn", "12")))
    assert len(shapes.holes(out, fit("gx12", "hole_d") + CLEAR)) == 2


def test_the_generated_sizes_and_the_shipped_files_are_current():
    names = [s.name for s in pinmap.load(None).stations]
    assert models.PARAMS.read_text(encoding="utf-8") == models.params_scad(parts.load(), names), (
        "models/from_parts.scad is stale: python scripts/hardware.py parts")
    manifest = json.loads(models.MANIFEST.read_text(encoding="utf-8"))
    assert manifest["sources"] == models.sources_digest(), (
        "the exports are older than the models: python scripts/hardware.py models renders")
    for path, size in manifest["files"].items():
        assert (models.HARDWARE / path).stat().st_size == size, path
    assert set(manifest["files"]) >= {e.path for e in models.EXPORTS} | {
        r.path for r in models.RENDERS}


def test_a_missing_openscad_is_a_clear_message(monkeypatch):
    monkeypatch.setattr(models.shutil, "which", lambda name: None)
    with pytest.raises(models.BoxmakerError, match="apt-get install openscad"):
        models.openscad()


def test_the_committed_files_are_byte_for_byte_what_the_models_make(tmp_path: Path, scad: None):
    for path in ("print/cradle.stl", "cut/lid.dxf"):     # two quick ones, with the full facets
        [item] = [e for e in models.EXPORTS if e.path == path]
        made = models.export(item, tmp_path, fn=48)
        assert made.read_bytes() == (models.HARDWARE / path).read_bytes(), path
