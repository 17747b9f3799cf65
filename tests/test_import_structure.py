"""The product's imports flow one way and never in a circle.

``games`` import only ``games``; ``drivers`` know no game and nothing of the device; inside
``device`` each part may import only parts of its own layer or below (the layers below). An
import is any ``import`` statement, inside a function too (a late import is still an arrow);
imports under ``TYPE_CHECKING`` are types only and left aside.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOPS = {"games": "spielleiter.games", "drivers": "spielleiter.drivers",
        "device": "spielleiter.device"}

# device/'s parts, from the bottom up: a part imports its own layer and the layers below.
LAYERS: tuple[frozenset[str], ...] = tuple(frozenset(layer.split()) for layer in (
    "device exc text i18n fleet runtime",        # the foundation: errors, words, input checks
    "config screen glossary inputs",             # what the box is, how a screen is drawn
    "journal",                                   # everything kept
    "replay",                                    # the one replay loop
    "past pans session",                         # past games, the pans, the game in progress
    "ui modes broadcast link",                   # the App's states, the modes, the serial link
    "app",
    "box",                                       # the composition root
    "service uplink room",                       # systemd, the room
    "cli",
))


def modules() -> dict[str, Path]:
    found = {}
    for top, package in TOPS.items():
        for path in (ROOT / top).rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            parts = [package, *path.relative_to(ROOT / top).parts]
            parts = parts[:-1] if parts[-1] == "__init__.py" else [*parts[:-1], parts[-1][:-3]]
            found[".".join(parts)] = path
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The product modules that ``name`` imports (a package's name for a name it defines)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                for other in child.orelse:
                    visit_one(other)
            else:
                visit_one(child)

    def visit_one(node: ast.AST) -> None:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                if f"{source}.{alias.name}" in known:
                    found.add(f"{source}.{alias.name}")
                elif source in known:
                    found.add(source)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        visit(node)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    found.discard(name)
    return found


@cache
def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    part.append(top)
                    if top == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


def layer_of(module: str) -> int | None:
    parts = module.split(".")
    if parts[1] != "device":
        return None
    part = parts[2] if len(parts) > 2 else "device"
    for number, layer in enumerate(LAYERS):
        if part in layer:
            return number
    raise AssertionError(f"{module}: device/{part} has no layer in this test's LAYERS")


def test_no_module_of_the_product_imports_itself_in_a_circle():
    assert cycles(graph()) == []


def test_games_import_only_games():
    wrong = [(a, b) for a, bs in graph().items() if a.startswith("spielleiter.games")
             for b in bs if not b.startswith("spielleiter.games")]
    assert wrong == []


def test_drivers_know_no_game_and_nothing_of_the_device():
    wrong = [(a, b) for a, bs in graph().items() if a.startswith("spielleiter.drivers")
             for b in bs if not b.startswith("spielleiter.drivers")]
    assert wrong == []


def test_the_device_imports_only_its_own_layer_and_the_layers_below():
    upward = []
    for a, bs in graph().items():
        mine = layer_of(a)
        if mine is None:
            continue
        for b in bs:
            theirs = layer_of(b)
            if theirs is not None and theirs > mine:
                upward.append(f"{a} -> {b}")
    assert upward == []


def test_the_checker_sees_a_circle_a_late_import_and_not_a_type_only_one(tmp_path):
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    path = tmp_path / "a.py"
    path.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import y\n"
                    "def f():\n    from .b import x\n")
    known = {"pkg.a": path, "pkg.b": path, "pkg.c": path}
    assert imports("pkg.a", path, known) == {"pkg.b"}
