"""Reading the exported files back: the outline and holes of a DXF panel, the extent of an STL.
The fit checks measure what a builder gets, not only the parameters that made it."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Loop:
    """A closed outline of a flat panel: its bounding box."""
    xmin: float
    ymin: float
    xmax: float
    ymax: float

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.xmin + self.xmax) / 2, (self.ymin + self.ymax) / 2)

    @property
    def size(self) -> tuple[float, float]:
        return (self.xmax - self.xmin, self.ymax - self.ymin)

    def is_round(self, tolerance: float = 0.05) -> bool:
        return abs(self.size[0] - self.size[1]) <= tolerance


def dxf_segments(path: Path) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The LINE entities of a DXF file (OpenSCAD writes every outline as lines)."""
    lines = path.read_text(encoding="ascii").splitlines()
    pairs = [(lines[i].strip(), lines[i + 1].strip()) for i in range(0, len(lines) - 1, 2)]
    segments: list[tuple[tuple[float, float], tuple[float, float]]] = []
    current: dict[str, float] | None = None
    for code, value in pairs + [("0", "EOF")]:
        if code == "0":
            if current is not None and len(current) == 4:
                segments.append(((current["10"], current["20"]), (current["11"], current["21"])))
            current = {} if value == "LINE" else None
        elif current is not None and code in ("10", "20", "11", "21"):
            current[code] = float(value)
    return segments


def dxf_loops(path: Path) -> list[Loop]:
    """Each closed outline of the panel (the sheet's edge and every hole), largest first."""
    def key(p: tuple[float, float]) -> tuple[int, int]:
        return (round(p[0] * 1000), round(p[1] * 1000))

    following: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for start, end in dxf_segments(path):
        following.setdefault(key(start), []).append(end)
        following.setdefault(key(end), []).append(start)
    seen: set[tuple[int, int]] = set()
    loops = []
    for first in list(following):
        if first in seen:
            continue
        stack, points = [first], []
        while stack:
            k = stack.pop()
            if k in seen:
                continue
            seen.add(k)
            points.append(k)
            stack.extend(key(p) for p in following[k] if key(p) not in seen)
        xs, ys = [p[0] / 1000 for p in points], [p[1] / 1000 for p in points]
        loops.append(Loop(min(xs), min(ys), max(xs), max(ys)))
    return sorted(loops, key=lambda lp: -(lp.size[0] * lp.size[1]))


def holes(path: Path, diameter: float, tolerance: float = 0.05) -> list[tuple[float, float]]:
    """Centres of the round holes of ``diameter`` in a DXF panel."""
    return sorted(lp.centre for lp in dxf_loops(path)
                  if lp.is_round(tolerance) and abs(lp.size[0] - diameter) <= tolerance)


def stl_extent(path: Path) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """The smallest and largest corner of a binary STL's triangles."""
    data = path.read_bytes()
    (count,) = struct.unpack_from("<I", data, 80)
    if count == 0 or len(data) != 84 + 50 * count:
        raise ValueError(f"{path}: not a binary STL with triangles")
    lo, hi = [float("inf")] * 3, [float("-inf")] * 3
    for i in range(count):
        values = struct.unpack_from("<9f", data, 84 + 50 * i + 12)
        for axis in range(3):
            for v in values[axis::3]:
                lo[axis], hi[axis] = min(lo[axis], v), max(hi[axis], v)
    return (lo[0], lo[1], lo[2]), (hi[0], hi[1], hi[2])
