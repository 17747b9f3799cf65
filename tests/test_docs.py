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


# -- every command in the docs, as written --------------------------------------------------------
SHELL_BLOCK = re.compile(r"^```(?:sh|bash|shell)\n(.*?)^```", re.S | re.M)
ANY_BLOCK = re.compile(r"^```\n(.*?)^```", re.S | re.M)
# Commands the docs test cannot run here, each with why (everything else runs as written).
NOT_HERE = {
    "sudo ": "changes this machine (the installer, systemd): the installer tests run it on a "
             "scratch root",
    "systemctl ": "a running systemd service on the box",
    "journalctl ": "the box's journald",
    "spielleiter sim": "interactive: a person at a terminal (the sim tests drive it headless)",
    "spielleiter watch": "follows a live serial link",
    "spielleiter games show": "reads the box's journal (the games tests run it on recorded ones)",
    "spielleiter room": "needs an MQTT broker",
    "spielleiter uplink": "needs an MQTT broker",
    "export PATH": "",  # applied to every command below
}


def doc_commands() -> list[tuple[str, str]]:
    """Every command line of the docs' shell blocks, as (file, command) with its comment off."""
    out = []
    for path in [p for p in DOCS if p.suffix == ".md"] + [README]:
        text = path.read_text(encoding="utf-8")
        for block in SHELL_BLOCK.findall(text):
            for line in block.splitlines():
                command = line.split("  #", 1)[0].strip()
                if command and not command.startswith("#"):
                    out.append((path.name, command))
        for block in ANY_BLOCK.findall(text):                # a session shown with its prompt
            out += [(path.name, line[2:].strip()) for line in block.splitlines()
                    if line.startswith("$ ")]
    return out


def why_not_here(command: str) -> str | None:
    return next((why for start, why in NOT_HERE.items() if command.startswith(start)), None)


def test_the_docs_commands_are_found() -> None:
    commands = [c for _, c in doc_commands()]
    assert "spielleiter config check" in commands
    assert any(c.startswith("spielleiter sim") for c in commands)


@pytest.mark.parametrize("where, command", doc_commands(), ids=lambda x: x)
def test_every_command_in_the_docs_works_as_written(where: str, command: str, tmp_path) -> None:
    import shlex
    import subprocess
    import sys

    from spielleiter.device.cli import build_parser

    words = shlex.split(command)
    if words[0] == "spielleiter":                       # its command and options exist as written
        try:
            build_parser().parse_args(words[1:])
        except SystemExit as exc:
            pytest.fail(f"{where}: {command!r} is not a command as written (exit {exc.code})")
    reason = why_not_here(command)
    if reason is not None:
        pytest.skip(reason or "sets up the commands below")
    if words[0] in ("bash",) and words[1:2] == ["scripts/dev.sh"]:
        pytest.skip("sets up a venv: the dev-script tests run it")
    bin_dir = Path(sys.executable).parent                 # the venv's spielleiter, as on PATH
    assert (bin_dir / "spielleiter").exists()
    done = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True,
                          timeout=60, env={"PATH": f"{bin_dir}:/usr/bin:/bin",
                                           "HOME": str(tmp_path), "LANG": "C.UTF-8"})
    assert done.returncode == 0, f"{where}: {command}\n{done.stdout}{done.stderr}"
    assert "Traceback" not in done.stderr
