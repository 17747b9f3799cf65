"""The OpenSCAD models: their sizes from the parts list and the config, and their exports (STL to
print, DXF and SVG to cut, PNG pictures for the assembly guide).

OpenSCAD (Debian's ``openscad``) does the geometry; this module only writes
``models/from_parts.scad``, runs ``openscad`` once a file (two at a time) and converts its ASCII
STL to binary STL (a fifth of the size, what slicers prefer).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import struct
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from . import HARDWARE, BoxmakerError, pinmap
from . import shapes
from .parts import PartsList

MODELS = HARDWARE / "models"
PARAMS = MODELS / "from_parts.scad"
MANIFEST = MODELS / "exported.json"
PLYWOOD = 6.0          # the laser-cut case's sheet: its panels are cut with wall = 6


@dataclass(frozen=True)
class Export:
    """One file made from one model: ``part`` chooses what the model draws."""
    path: str          # relative to hardware/
    scad: str          # in hardware/models/
    part: str
    defines: tuple[tuple[str, str], ...] = ()
    what: str = ""


def _ply(*more: tuple[str, str]) -> tuple[tuple[str, str], ...]:
    return (("wall", str(PLYWOOD)),) + more


EXPORTS: tuple[Export, ...] = (
    Export("print/case_tray.stl", "case.scad", "tray", what="base, walls, the Pi's standoffs, the lid's corner posts"),
    Export("print/case_lid.stl", "case.scad", "lid_print", what="the lid, top face down"),
    Export("print/cradle.stl", "pan_carrier.scad", "cradle",
           what="the fixed end's block and the stop's boss (x2)"),
    Export("print/post.stl", "pan_carrier.scad", "post", what="the pan's post on the loaded end (x2)"),
    Export("print/pan.stl", "pan_carrier.scad", "pan", what="a pan (x2)"),
    Export("print/station_body.stl", "station_box.scad", "body",
           what="a station box, top down (x stations)"),
    Export("print/station_bottom.stl", "station_box.scad", "bottom",
           what="its bottom plate (x stations)"),
    Export("cut/base.dxf", "case.scad", "base_2d", _ply(), "6 mm plywood"),
    Export("cut/lid.dxf", "case.scad", "lid_2d", _ply(), "6 mm plywood"),
    Export("cut/back.dxf", "case.scad", "back_2d", _ply(), "6 mm plywood, seen from behind"),
    Export("cut/front.dxf", "case.scad", "front_2d", _ply(), "6 mm plywood"),
    Export("cut/side.dxf", "case.scad", "side_2d", _ply(), "6 mm plywood (x2)"),
    Export("cut/pan.dxf", "pan_carrier.scad", "pan_2d", what="3 mm acrylic (x2)"),
    Export("cut/station_top.dxf", "station_box.scad", "top_2d",
           what="drilling template for a bought box's lid"),
)
EXPORTS += tuple(Export(e.path[:-4] + ".svg", e.scad, e.part, e.defines, e.what)
                 for e in EXPORTS if e.path.endswith(".dxf"))
# Not shipped: the footprints the tests measure the parts by (the holes where they meet).
FIT_EXPORTS = (
    Export("fits/cradle_plan.dxf", "pan_carrier.scad", "cradle_plan"),
    Export("fits/post_plan.dxf", "pan_carrier.scad", "post_plan"),
)


@dataclass(frozen=True)
class Render:
    path: str
    defines: tuple[tuple[str, str], ...]
    camera: str        # OpenSCAD's gimbal camera: translate x,y,z, rotate x,y,z, distance
    projection: str = "p"                  # p: perspective, o: orthographic
    size: str = "1200,900"


OVERVIEW = "0,0,0,58,0,28,600"
RENDERS = (
    Render("renders/step1-pi.png", (("step", "1"),), OVERVIEW),
    Render("renders/step2-cells.png", (("step", "2"),), OVERVIEW),
    Render("renders/step3-sockets.png", (("step", "3"),), "0,0,0,62,0,200,600"),
    Render("renders/step4-lid.png", (("step", "4"), ("explode", "45")), OVERVIEW),
    Render("renders/step5-pans.png", (("step", "5"), ("explode", "35")), OVERVIEW),
    Render("renders/step6-stations.png", (("step", "6"),), OVERVIEW),
    Render("renders/printed-parts.png", (("step", '"parts"'),), "0,0,0,50,0,20,600"),
    Render("renders/section-stop.png", (("step", '"section"'),), "0,0,0,0,0,0,300", "o",
           "1200,700"),
)


def params_scad(parts: PartsList, stations: list[str]) -> str:
    """``models/from_parts.scad``: every size the models take from the parts list, and the
    stations (their count and colours) from the config."""
    def v(part: str, key: str) -> str:
        value = parts.fit(part, key)
        return f'"{value}"' if isinstance(value, str) else f"{value:g}"

    def vec(part: str, *keys: str) -> str:
        return "[" + ", ".join(v(part, k) for k in keys) + "]"

    if not stations:
        raise BoxmakerError("the config has no stations: the case needs at least one socket")
    colours = ", ".join(f'"{pinmap.SEAT_COLOURS.get(name.lower(), "#7f7f7f")}"'
                        for name in stations)
    lines = [
        "// Generated from parts.toml and the config by `python scripts/hardware.py parts`;",
        "// do not edit by hand (change parts.toml, then run it).",
        f"station_count = {len(stations)};",
        f"station_colours = [{colours}];",
        f"pi_model = {v('pi', 'model')};",
        f"button_hole_d = {v('button', 'hole_d')};",
        f"button_depth = {v('button', 'depth')};",
        f"button_nut_d = {v('button', 'nut_d')};",
        f"gx12_hole_d = {v('gx12', 'hole_d')};",
        f"gx12_nut_d = {v('gx12', 'nut_d')};",
        f"gx12_depth = {v('gx12', 'depth')};",
        f"buzzer_d = {v('buzzer', 'diameter')};",
        f"buzzer_h = {v('buzzer', 'height')};",
        f"oled_board = {vec('oled', 'board_w', 'board_h')};",
        f"oled_hole_d = {v('oled', 'hole_d')};",
        f"oled_hole_pitch = {vec('oled', 'hole_dx', 'hole_dy')};",
        f"oled_window = {vec('oled', 'window_w', 'window_h')};",
        f"oled_window_dy = {v('oled', 'window_dy')};",
        f"cell_size = {vec('cell', 'length', 'width', 'height')};",
        f"cell_hole_inset = {v('cell', 'hole_inset')};",
        f"cell_hole_pitch = {v('cell', 'hole_pitch')};",
        f"cell_thread_fixed_d = {v('cell', 'thread_fixed_d')};",
        f"cell_thread_loaded_d = {v('cell', 'thread_loaded_d')};",
        f"pan_diameter = {v('pan', 'diameter')};",
        f"pan_floor = {v('pan', 'floor')};",
        f"pan_rim = {v('pan', 'rim')};",
        f"stop_screw_d = {v('stop', 'screw_d')};",
        f"stop_screw_len = {v('stop', 'length')};",
        f"stop_nut_af = {v('stop', 'nut_af')};",
        f"stop_nut_h = {v('stop', 'nut_h')};",
        f"stop_gap = {v('stop', 'gap')};",
        f"station_box_size = {vec('station', 'length', 'width', 'height')};",
    ]
    return "\n".join(lines) + "\n"


def openscad() -> str:
    found = shutil.which("openscad")
    if found is None:
        raise BoxmakerError("openscad is not installed (Debian: sudo apt-get install openscad)")
    return found


def _define(name: str, value: str) -> list[str]:
    return ["-D", f"{name}={value}"]


def run_openscad(scad: Path, out: Path, defines: tuple[tuple[str, str], ...],
                 extra: tuple[str, ...] = ()) -> str:
    """Run OpenSCAD once; its messages (ECHO lines, warnings) are returned, a failure raised."""
    command = [openscad(), "-o", str(out)]
    for name, value in defines:
        command += _define(name, value)
    command += [*extra, str(scad)]
    if out.suffix == ".png" and not os.environ.get("DISPLAY"):
        runner = shutil.which("xvfb-run")
        if runner is None:
            raise BoxmakerError("PNG pictures need a display: install xvfb (xvfb-run)")
        command = [runner, "-a", *command]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if done.returncode != 0 or "WARNING:" in done.stderr or "ERROR:" in done.stderr:
        problems = [line for line in done.stderr.splitlines()
                    if "WARNING" in line or "ERROR" in line] or done.stderr.splitlines()[-3:]
        raise BoxmakerError(f"openscad {scad.name} -> {out.name}: " + "; ".join(problems))
    return done.stderr


def ascii_to_binary_stl(path: Path) -> None:
    """Rewrite OpenSCAD's ASCII STL as binary STL (the same triangles, in a fixed order)."""
    triangles = []
    normal: tuple[float, ...] = (0.0, 0.0, 0.0)
    corners: list[tuple[float, ...]] = []
    with path.open(encoding="ascii") as text:
        for line in text:
            words = line.split()
            if words[:2] == ["facet", "normal"]:
                normal, corners = tuple(float(w) for w in words[2:5]), []
            elif words and words[0] == "vertex":
                corners.append(tuple(float(w) for w in words[1:4]))
            elif words and words[0] == "endfacet":
                triangles.append(struct.pack("<12fH", *normal, *corners[0], *corners[1],
                                             *corners[2], 0))
    header = b"Spielleiter: made by python scripts/hardware.py models".ljust(80, b" ")
    # CGAL hands the same triangles out in a different order from run to run: sorted, the same
    # model gives the same bytes, and a commit shows only what changed
    path.write_bytes(header + struct.pack("<I", len(triangles)) + b"".join(sorted(triangles)))


def export(item: Export, root: Path, fn: int, params: Path | None = None) -> Path:
    out = root / item.path
    out.parent.mkdir(parents=True, exist_ok=True)
    defines = (("part", f'"{item.part}"'), ("fn", str(fn))) + item.defines
    run_openscad(MODELS / item.scad, out, defines)
    if out.suffix == ".stl":
        ascii_to_binary_stl(out)
    return out


def export_all(root: Path = HARDWARE, fn: int = 48, jobs: int = 2,
               items: tuple[Export, ...] = EXPORTS) -> list[Path]:
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda item: export(item, root, fn), items))


def render_all(root: Path = HARDWARE, fn: int = 48, jobs: int = 2) -> list[Path]:
    def one(r: Render) -> Path:
        out = root / r.path
        out.parent.mkdir(parents=True, exist_ok=True)
        run_openscad(MODELS / "assembly.scad", out, r.defines + (("fn", str(fn)),),
                     (f"--imgsize={r.size}", f"--camera={r.camera}", "--viewall",
                      "--autocenter", "--colorscheme=Tomorrow", f"--projection={r.projection}"))
        return out
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(one, RENDERS))


def report(defines: tuple[tuple[str, str], ...] = ()) -> dict[str, object]:
    """The sizes ``models/report.scad`` echoes, as Python values."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "report.echo"       # OpenSCAD writes the ECHO lines there
        run_openscad(MODELS / "report.scad", out, defines)
        text = out.read_text(encoding="utf-8")
    found: dict[str, object] = {}
    for line in text.splitlines():
        if line.startswith("ECHO: "):
            found.update(_echo_pairs(line[len("ECHO: "):]))
    return found


def _echo_pairs(text: str) -> dict[str, object]:
    """``a = 1, b = [1, 2]`` -> {"a": 1, "b": [1, 2]} (OpenSCAD's numbers and vectors are JSON)."""
    pairs, depth, start = {}, 0, 0
    for i, ch in enumerate(text + ","):
        depth += (ch == "[") - (ch == "]")
        if ch == "," and depth == 0:
            name, _, value = text[start:i].partition(" = ")
            pairs[name.strip()] = json.loads(value.strip())
            start = i + 1
    return pairs


def sources_digest() -> str:
    """What the exports were made from: every .scad file of models/, in name order."""
    digest = hashlib.sha256()
    for path in sorted(MODELS.glob("*.scad")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def write_manifest(root: Path = HARDWARE) -> dict[str, object]:
    files = {e.path: (root / e.path).stat().st_size for e in EXPORTS}
    files.update({r.path: (root / r.path).stat().st_size for r in RENDERS
                  if (root / r.path).exists()})
    manifest: dict[str, object] = {"sources": sources_digest(), "files": files}
    MANIFEST.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return manifest


FILES_BEGIN = ("<!-- files: generated by `python scripts/hardware.py models`; "
               "do not edit by hand -->")
FILES_END = "<!-- /files -->"


def files_table(root: Path = HARDWARE) -> str:
    """The assembly guide's list of the exported files: what each is, its size, its extent."""
    lines = ["| file | what | extent (mm) | size |", "| --- | --- | --- | ---: |"]
    for item in EXPORTS:
        if item.path.endswith(".svg"):
            continue
        path = root / item.path
        if path.suffix == ".stl":
            lo, hi = shapes.stl_extent(path)
            extent = " x ".join(f"{round(h - low, 1):g}" for low, h in zip(lo, hi))
        else:
            outline = shapes.dxf_loops(path)[0]
            extent = f"{round(outline.size[0], 1):g} x {round(outline.size[1], 1):g}"
        lines.append(f"| [{item.path}]({item.path}) | {item.what} | {extent} "
                     f"| {path.stat().st_size / 1000:.1f} kB |")
    return "\n".join(lines)
