"""Modes read the pans through the seam (``PanSnapshot``, the judgement, ``TableScales``): no
mode reaches into a channel or subscribes behind the judge's back."""

from __future__ import annotations

import ast
from pathlib import Path

import spielleiter.device.modes as modes_pkg

FORBIDDEN = {"channel", "channels", "verdict_listeners", "judge"}


def test_no_mode_reaches_into_a_channel_or_the_judge():
    root = Path(modes_pkg.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in FORBIDDEN:
                found.append(f"{path.relative_to(root)}:{node.lineno} .{node.attr}")
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "getattr" \
                    and any(isinstance(a, ast.Constant) and a.value in FORBIDDEN
                            for a in node.args):
                found.append(f"{path.relative_to(root)}:{node.lineno} getattr")
    assert not found, found
