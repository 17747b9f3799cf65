#!/usr/bin/env python3
"""Edit a Raspberry Pi's config.txt and cmdline.txt the way scripts/install.sh needs, idempotently.

    boot_config.py config FILE OP... [--cmdline FILE --drop-console DEVICE[,DEVICE...]]
                                         OP: dtparam:NAME=VALUE   overlay:NAME   set:KEY=VALUE
    boot_config.py cmdline FILE --drop-console DEVICE[,DEVICE...]
    boot_config.py setting DEFAULTS SITE SECTION.KEY

``config`` changes only lines that apply to every board: before the first ``[filter]`` or in an
``[all]`` section; ``[pi4]``, ``[cm5]``... sections are the owner's business. A setting that is
already there is left alone, one that is switched off or commented out is changed in place, a
missing one is appended (after an ``[all]`` line if the file ends in a conditional section).
Parameters come before overlays in what is appended: a ``dtparam=`` line after a ``dtoverlay=``
line would go to that overlay when it has a parameter of the same name.

``cmdline`` removes ``console=DEVICE[,BAUD]`` for the given devices from the one line;
``config ... --cmdline`` does both edits in one start of Python (the installer's way).

``setting`` prints a value of the shipped defaults with the site file over them (the installer
runs before the package is installed, so it reads the TOML itself).

Each change is printed as one line (``+ added``, ``~ old -> new``, ``- removed``); nothing is
printed when the file is already right. Standard library only: it runs on the Pi's own Python.
"""

from __future__ import annotations

import os
import re
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

ON = ("on", "true", "yes", "1")
OFF = ("off", "false", "no", "0")
ACTIVE_FOR_ALL = {None, "all"}


def _same(a: str, b: str) -> bool:
    """Two parameter values that mean the same (``on`` and ``yes``, ``400000`` and ``400000``)."""
    a, b = a.strip().lower(), b.strip().lower()
    return a == b or (a in ON and b in ON) or (a in OFF and b in OFF)


@dataclass
class Line:
    text: str
    section: str | None  # None: before the first filter

    @property
    def body(self) -> str:
        return self.text.split("#", 1)[0].strip() if not self.commented else ""

    @property
    def commented(self) -> bool:
        return self.text.lstrip().startswith("#")

    @property
    def for_all(self) -> bool:
        return self.section in ACTIVE_FOR_ALL


def parse(text: str) -> list[Line]:
    lines, section = [], None
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped[1:-1].strip().lower()
        lines.append(Line(raw, section))
    return lines


class ConfigTxt:
    """config.txt as lines, with the three edits the installer makes."""

    def __init__(self, text: str) -> None:
        self.lines = parse(text)
        self.changes: list[str] = []
        self._appended_params: list[str] = []
        self._appended_other: list[str] = []

    # -- dtparam=NAME=VALUE -------------------------------------------------------------------
    def dtparam(self, name: str, value: str) -> None:
        found = False
        for line in self.lines:
            if not line.for_all or line.commented:
                continue
            key, sep, params = line.body.partition("=")
            if not sep or key.strip() not in ("dtparam", "device_tree_param"):
                continue
            items = params.split(",")
            for i, item in enumerate(items):
                pname, has, pvalue = item.partition("=")
                if pname.strip() != name:
                    continue
                found = True
                if _same(pvalue if has else "on", value):
                    continue
                items[i] = f"{name}={value}"
                self._replace(line, f"{key.strip()}={','.join(items)}")
        if not found:
            self._uncomment_or_append(rf"dtparam={re.escape(name)}(=[^,\s]*)?",
                                      f"dtparam={name}={value}")

    # -- dtoverlay=NAME -------------------------------------------------------------------------
    def overlay(self, name: str) -> None:
        """``name`` may carry its parameters (``i2c-sensor,tmp102``): any line of the same
        overlay counts as done (the owner may have chosen another sensor on it)."""
        base = name.split(",")[0]
        for line in self.lines:
            key, sep, rest = line.body.partition("=")
            if line.for_all and sep and key.strip() == "dtoverlay" and \
                    rest.split(",")[0].strip() == base:
                return
        self._appended_other.append(f"dtoverlay={name}")

    # -- KEY=VALUE (enable_uart=1, ...) ---------------------------------------------------------
    def setting(self, key: str, value: str) -> None:
        found = False
        for line in self.lines:
            k, sep, v = line.body.partition("=")
            if line.for_all and sep and k.strip() == key:
                found = True
                if not _same(v, value):
                    self._replace(line, f"{key}={value}")
        if not found:
            self._uncomment_or_append(rf"{re.escape(key)}=\S*", f"{key}={value}")

    def _replace(self, line: Line, new: str) -> None:
        self.changes.append(f"~ {line.text.strip()} -> {new}")
        line.text = new

    def _uncomment_or_append(self, commented: str, new: str) -> None:
        """A commented-out line for every board matching ``commented`` becomes ``new``; with
        none, ``new`` is appended (with the parameters, before any overlay)."""
        pattern = re.compile(rf"^\s*#\s*{commented}\s*$")
        for line in self.lines:
            if line.for_all and pattern.match(line.text):
                self._replace(line, new)
                return
        self._appended_params.append(new)

    def text(self) -> str:
        out = [line.text for line in self.lines]
        added = self._appended_params + self._appended_other
        if added:
            last = self.lines[-1].section if self.lines else None
            if last not in ACTIVE_FOR_ALL:
                out.append("[all]")
            out += added
            self.changes += [f"+ {line}" for line in added]
        return "\n".join(out) + "\n"


def edit_config(path: Path, ops: list[str]) -> list[str]:
    doc = ConfigTxt(path.read_text(encoding="utf-8"))
    for op in ops:
        kind, _, arg = op.partition(":")
        name, _, value = arg.partition("=")
        if kind == "dtparam" and name and value:
            doc.dtparam(name, value)
        elif kind == "overlay" and name and not value:
            doc.overlay(name)
        elif kind == "set" and name and value:
            doc.setting(name, value)
        else:
            raise SystemExit(f"boot_config.py: bad operation {op!r} "
                             "(dtparam:NAME=VALUE, overlay:NAME or set:KEY=VALUE)")
    new = doc.text()
    if doc.changes:
        write(path, new)
    return doc.changes


def edit_cmdline(path: Path, devices: list[str]) -> list[str]:
    text = path.read_text(encoding="utf-8")
    words = text.split()
    pattern = re.compile(r"console=(%s)(,\S*)?" % "|".join(map(re.escape, devices)))
    kept = [w for w in words if not pattern.fullmatch(w)]
    removed = [w for w in words if pattern.fullmatch(w)]
    if removed:
        write(path, " ".join(kept) + "\n")  # cmdline.txt is one line
    return [f"- {w}" for w in removed]


def write(path: Path, text: str) -> None:
    """Replace ``path`` atomically, keeping its mode (a FAT boot partition keeps none)."""
    tmp = path.with_name(path.name + ".spielleiter-tmp")
    tmp.write_text(text, encoding="utf-8")
    try:
        os.chmod(tmp, path.stat().st_mode & 0o7777)
    except OSError:
        pass
    os.replace(tmp, path)


def setting(defaults: Path, site: Path, dotted: str) -> str:
    section, _, key = dotted.partition(".")
    value = tomllib.loads(defaults.read_text(encoding="utf-8"))[section][key]
    if site.is_file():
        try:
            table = tomllib.loads(site.read_text(encoding="utf-8")).get(section, {})
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as exc:
            print(f"{site}: cannot be read ({exc}); using the default {dotted} = {value}",
                  file=sys.stderr)
            return str(value)
        if isinstance(table, dict) and key in table:
            value = table[key]
    return str(value)


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "config":
        ops, cmdline = argv[2:], None
        if len(ops) >= 4 and ops[-4] == "--cmdline" and ops[-2] == "--drop-console":
            ops, cmdline = ops[:-4], (Path(ops[-3]), ops[-1].split(","))
        changes = edit_config(Path(argv[1]), ops)
        if cmdline is not None:
            changes += edit_cmdline(*cmdline)
    elif len(argv) == 4 and argv[0] == "cmdline" and argv[2] == "--drop-console":
        changes = edit_cmdline(Path(argv[1]), argv[3].split(","))
    elif len(argv) == 4 and argv[0] == "setting":
        print(setting(Path(argv[1]), Path(argv[2]), argv[3]))
        return 0
    else:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    for change in changes:
        print(change)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
