"""``python scripts/hardware.py STEP``: make the box's files from parts.toml and the pin map.

Steps: ``parts`` (the README's bill of materials and models/from_parts.scad), ``schematic``
(schematic.svg and .pdf), ``models`` (print/*.stl, cut/*.dxf and *.svg), ``renders``
(renders/*.png for the assembly guide), ``all`` (each of these), ``check`` (exit 1 when a
generated file is not what its sources make now; nothing is written).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

from . import HARDWARE, BoxmakerError, models, netlist, parts, pinmap

README = HARDWARE / "README.md"
GUIDE = HARDWARE / "assembly.md"
SCHEMATIC = HARDWARE / "schematic.svg"


def titles(bom: parts.PartsList) -> dict[str, str]:
    """Each part's short name for the schematic's labels: its name up to the first comma."""
    return {p.id: p.name.split(",")[0].split(" (")[0] for p in bom.parts}


def schematic_title(config: Path | None) -> str:
    where = "the shipped config" if config is None else str(config)
    return f"Spielleiter: the whole circuit, as {where} wires it"


def draw_schematic(bom: parts.PartsList, cfg: pinmap.Config, config: Path | None) -> bytes:
    from . import schematic
    return schematic.draw(netlist.build(cfg, titles(bom)),
                          schematic_title(config)).get_imagedata("svg")


def check(bom: parts.PartsList, cfg: pinmap.Config, config: Path | None) -> list[str]:
    """What is stale, each with the step that brings it up to date."""
    stale = []
    text = README.read_text(encoding="utf-8")
    if parts.block_in(text) != parts.render(bom):
        stale.append("hardware/README.md's bill of materials: run `parts`")
    if models.PARAMS.read_text(encoding="utf-8") != models.params_scad(bom, [s.name for s in cfg.stations]):
        stale.append("hardware/models/from_parts.scad: run `parts`")
    if not SCHEMATIC.exists() or SCHEMATIC.read_bytes() != draw_schematic(bom, cfg, config):
        stale.append("hardware/schematic.svg: run `schematic`")
    try:
        manifest = json.loads(models.MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        manifest = {}
    if manifest.get("sources") != models.sources_digest():
        stale.append("hardware/print, cut and renders: run `models` and `renders`")
    elif _block(GUIDE.read_text(encoding="utf-8")) != models.files_table():
        stale.append("hardware/assembly.md's list of files: run `models`")
    return stale


def _block(text: str) -> str:
    start = text.index(models.FILES_BEGIN) + len(models.FILES_BEGIN)
    return text[start:text.index(models.FILES_END)].strip("\n")


def _write_files_table() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(models.FILES_BEGIN) + len(models.FILES_BEGIN)
    GUIDE.write_text(f"{text[:start]}\n{models.files_table()}\n"
                     f"{text[text.index(models.FILES_END):]}", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python scripts/hardware.py",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("step", choices=("parts", "schematic", "models", "renders", "all",
                                         "check"))
    parser.add_argument("--config", type=Path, default=None,
                        help="a config.toml over the shipped defaults (its stations and pins)")
    parser.add_argument("--fn", type=int, default=48, help="facets of a circle (default 48)")
    parser.add_argument("--jobs", type=int, default=2, help="OpenSCAD runs at once (default 2)")
    args = parser.parse_args(argv)
    try:
        bom = parts.load()
        cfg = pinmap.load(args.config)
        if args.step == "check":
            stale = check(bom, cfg, args.config)
            for line in stale:
                print(f"stale: {line}", file=sys.stderr)
            return 1 if stale else 0
        if args.step in ("parts", "all"):
            README.write_text(parts.replace_block(README.read_text(encoding="utf-8"),
                                                  parts.render(bom)), encoding="utf-8")
            models.PARAMS.write_text(models.params_scad(bom, [s.name for s in cfg.stations]),
                                     encoding="utf-8")
            print(f"parts: {len(bom.parts)} lines, {bom.total:.2f} {bom.currency}")
        if args.step in ("schematic", "all"):
            from . import schematic
            drawing = netlist.build(cfg, titles(bom))
            schematic.write(drawing, schematic_title(args.config), SCHEMATIC,
                            SCHEMATIC.with_suffix(".pdf"))
            print(f"schematic: {SCHEMATIC.name}, {SCHEMATIC.with_suffix('.pdf').name}")
        if args.step in ("models", "all"):
            for path in models.export_all(fn=args.fn, jobs=args.jobs):
                print(f"models: {path.relative_to(HARDWARE)} ({path.stat().st_size} bytes)")
            _write_files_table()
        if args.step in ("renders", "all"):
            for path in models.render_all(fn=args.fn, jobs=args.jobs):
                print(f"renders: {path.relative_to(HARDWARE)}")
        if args.step in ("models", "renders", "all"):
            models.write_manifest()
    except BoxmakerError as exc:
        print(f"hardware: {exc}", file=sys.stderr)
        return 2
    except ImportError as exc:   # schemdraw, or matplotlib for the PDF
        print(f"hardware: {exc.name or exc} is not installed: pip install -e '.[hardware]'",
              file=sys.stderr)
        return 2
    return 0
