"""The parts list (hardware/parts.toml) as data: loaded, checked, added up and rendered as the
README's bill of materials."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import HARDWARE, BoxmakerError

PARTS_FILE = HARDWARE / "parts.toml"
BEGIN = "<!-- parts: generated from parts.toml by `python scripts/hardware.py parts`; do not edit by hand -->"
END = "<!-- /parts -->"


@dataclass(frozen=True)
class Part:
    id: str
    qty: int
    name: str
    search: str
    eur: float
    notes: str = ""
    fit: dict[str, Any] = field(default_factory=dict)

    @property
    def line_eur(self) -> float:
        return round(self.qty * self.eur, 2)


@dataclass(frozen=True)
class PartsList:
    parts: tuple[Part, ...]
    currency: str
    as_of: str
    where: str

    @property
    def total(self) -> float:
        return round(sum(p.line_eur for p in self.parts), 2)

    def __getitem__(self, part_id: str) -> Part:
        for part in self.parts:
            if part.id == part_id:
                return part
        raise KeyError(part_id)

    def fit(self, part_id: str, key: str) -> Any:
        """A size the models need; a clear message when the list lacks it."""
        try:
            return self[part_id].fit[key]
        except KeyError:
            raise BoxmakerError(f"parts.toml: part {part_id!r} needs fit.{key}") from None


def load(path: Path = PARTS_FILE) -> PartsList:
    """Read and check the parts list; every problem is named with the part's id."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise BoxmakerError(f"{path}: {exc}") from None
    prices = raw.get("prices", {})
    problems = [f"[prices].{key}: missing" for key in ("currency", "as_of", "where")
                if not isinstance(prices.get(key), str) or not prices.get(key)]
    parts: list[Part] = []
    seen: set[str] = set()
    for number, item in enumerate(raw.get("part", []), start=1):
        where = f"part {item.get('id', number)!r}"
        qty, eur = item.get("qty"), item.get("eur")
        if not isinstance(item.get("id"), str) or item["id"] in seen:
            problems.append(f"{where}: needs an id of its own")
        if not isinstance(qty, int) or isinstance(qty, bool) or qty < 1:
            problems.append(f"{where}: qty {qty!r} (a whole number, 1 or more)")
        if not isinstance(eur, (int, float)) or isinstance(eur, bool) or eur < 0:
            problems.append(f"{where}: eur {eur!r} (the price of one, 0 or more)")
        for key in ("name", "search"):
            if not isinstance(item.get(key), str) or not item.get(key):
                problems.append(f"{where}: {key} missing")
        unknown = set(item) - {"id", "qty", "name", "search", "eur", "notes", "fit"}
        if unknown:
            problems.append(f"{where}: unknown keys {sorted(unknown)}")
        if problems:
            continue
        seen.add(item["id"])
        parts.append(Part(item["id"], qty, item["name"], item["search"], float(eur),
                          item.get("notes", ""), dict(item.get("fit", {}))))
    if not parts and not problems:
        problems.append("no [[part]] entries")
    if problems:
        raise BoxmakerError(f"{path}:\n  " + "\n  ".join(problems))
    return PartsList(tuple(parts), prices["currency"], prices["as_of"], prices["where"])


def _cell(text: str) -> str:
    return text.replace("|", "/").replace("\n", " ")


def render(parts: PartsList) -> str:
    """The README's bill of materials: one row a part, then the total."""
    lines = [f"Prices as of {parts.as_of} ({parts.where}; rough single-unit prices, "
             f"{parts.currency}). About {round(parts.total)} {parts.currency} in all.",
             "",
             f"| qty | part | search for | notes | {parts.currency} each | {parts.currency} |",
             "| ---: | --- | --- | --- | ---: | ---: |"]
    for p in parts.parts:
        lines.append(f"| {p.qty} | {_cell(p.name)} | {_cell(p.search)} | {_cell(p.notes)} "
                     f"| {p.eur:.2f} | {p.line_eur:.2f} |")
    lines.append(f"| | **total** | | | | **{parts.total:.2f}** |")
    return "\n".join(lines)


def block_in(text: str) -> str:
    return text[text.index(BEGIN) + len(BEGIN):text.index(END)].strip("\n")


def replace_block(text: str, block: str) -> str:
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return f"{text[:start]}\n{block}\n{text[end:]}"
