"""The documentation stands alone: a clone of the repository has everything it points at.

The rulebooks, the rulings and the design notes do not ship with the product, so README.md and
docs/ must not link or point at them (or at anything else outside the repository); and
docs/games.md explains every ruling by its id, so none may be missing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted(p for p in (ROOT / "docs").rglob("*") if p.is_file())
README = ROOT / "README.md"

# Files that live beside the repository during development, never inside it.
OUTSIDE = ("../shared", "shared/rules", "RULINGS.md", "DESIGN.md")
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")  # [text](target "title")
CODE_PATH = re.compile(r"`(\.\./[^`]*)`")                  # `../somewhere`
RULINGS = ([f"T{n}" for n in range(1, 8)] + [f"B{n}" for n in range(1, 8)]
           + [f"TT{n}" for n in range(1, 8)] + [f"C{n}" for n in range(1, 5)])


def pointers_in(text: str, folder: Path) -> list[str]:
    """Every place in ``text`` (a file in ``folder``) that names a file outside the repository,
    as "line N: what"."""
    found: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        for name in OUTSIDE:
            if name in line:
                found.append(f"line {number}: {name}")
        for target in LINK.findall(line) + CODE_PATH.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # a URL (https:, mailto:) or an anchor on the same page
            resolved = (folder / target.split("#")[0]).resolve()
            if resolved != ROOT and ROOT not in resolved.parents:
                found.append(f"line {number}: {target}")
    return found


def outside_pointers(path: Path) -> list[str]:
    """``pointers_in`` for a file; a binary file (a picture) names nothing."""
    data = path.read_bytes()
    if b"\0" in data:
        return []
    return pointers_in(data.decode("utf-8", errors="replace"), path.parent)


def test_docs_folder_holds_the_games_guide() -> None:
    assert ROOT / "docs" / "games.md" in DOCS


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_point_at_nothing_outside_the_repository(path: Path) -> None:
    assert outside_pointers(path) == [], f"{path.name} points outside the repository"


def test_readme_points_at_nothing_outside_the_repository() -> None:
    assert outside_pointers(README) == [], "README.md points outside the repository"


def test_the_check_catches_links_and_paths_that_leave_the_repository() -> None:
    """The check itself: it catches what the README once held and passes what stays inside."""
    docs = ROOT / "docs"
    bad = ("See [rules](../../shared/rules/x.txt).\n"
           "The rulings: `../shared/RULINGS.md`.\n"
           "Up and out: [x](../../elsewhere/notes.md).\n")
    found = pointers_in(bad, docs)
    assert {f.split(":")[0] for f in found} == {"line 1", "line 2", "line 3"}
    good = ("[link](link.md), [hardware](../hardware/README.md), [web](https://example.org),\n"
            "[top](#the-buttons), rule engines on a small shared core.\n")
    assert pointers_in(good, docs) == []


@pytest.mark.parametrize("ruling", RULINGS)
def test_games_guide_explains_every_ruling(ruling: str) -> None:
    text = (ROOT / "docs" / "games.md").read_text(encoding="utf-8")
    assert re.search(rf"(?<![A-Za-z0-9]){ruling}(?![0-9])", text), \
        f"docs/games.md does not mention ruling {ruling}"
