"""The package list is found, never written: every folder with an ``__init__.py`` under games/,
drivers/ and device/ installs as ``spielleiter.<path>`` (pyproject.toml's package-dir maps the
three top-level folders), so a new game's mode folder needs no line here or in pyproject.toml.
Data-only folders (``device/data``) come from pyproject.toml's package-data."""

import tomllib
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
TOP = ("games", "drivers", "device")

code = {"spielleiter." + ".".join(init.parent.relative_to(ROOT).parts)
        for top in TOP for init in (ROOT / top).rglob("__init__.py")
        if "__pycache__" not in init.parts}
data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
setup(packages=sorted(code | set(data)))
