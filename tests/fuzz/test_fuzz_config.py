"""Fuzz: any config file, read by ``config check`` and by what ``sim``/``run`` load, is either
fine, a list of problems (exit 1), or unreadable (exit 2): never a traceback.

Files are the shipped defaults with values bent (huge integers, deep arrays, odd text, wrong
types, unknown keys and sections), sometimes written as bytes that are not UTF-8, sometimes plain
garbage.
"""

from __future__ import annotations

import math
import tomllib
from pathlib import Path
from typing import Any

from fuzz_strategies import fuzz_settings
from hypothesis import example, given
from hypothesis import strategies as st

from spielleiter.device.cli import main
from spielleiter.device.config.core import ConfigError
from spielleiter.device.config.paths import load_config

DEFAULTS = tomllib.loads((Path(__file__).parents[2] / "device" / "data" /
                          "default_config.toml").read_text(encoding="utf-8"))
SECTIONS = sorted(DEFAULTS)

TEXT = st.text(st.one_of(st.characters(), st.sampled_from("\x00\n\"\\é€😀\ud800")), max_size=10)
class Big(str):
    """An integer literal of this many digits, written as is (Python refuses past 4300)."""


SCALARS = st.one_of(st.integers(), st.integers(4290, 4400).map(lambda n: Big("9" * n)),
                    st.floats(), st.booleans(), TEXT, st.sampled_from([-1, 0, 2, 3, 40, 10**9]),
                    st.sampled_from(["spi", "gpio", "serial", "none", "left", "de"]))
# Keys a table may hold where a value belongs: a pan's keys make the loader take it for a pan.
TABLE_KEYS = st.sampled_from(["reader", "bus", "device", "rate", "port", "baud", "dout_pin",
                              "sck_pin", "speed_hz", "x"])


class Table(dict):
    """An inline table ``{k = v}`` where a value belongs."""


VALUES = st.recursive(
    SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                     st.dictionaries(TABLE_KEYS, inner, max_size=3).map(Table)),
    max_leaves=6)


def literal(value: Any) -> str:
    """``value`` as a TOML literal (integers of any length; nan/inf as TOML writes them)."""
    if isinstance(value, Big):
        return str.__str__(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return ("nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
                if math.isinf(value) else repr(value))
    if isinstance(value, Table):
        return "{" + ", ".join(f"{k} = {literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, str):
        escaped = "".join(ch if ch.isprintable() and ch not in '"\\' else f"\\u{ord(ch):04x}"
                          if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}" for ch in value)
        return f'"{escaped}"'
    return "[" + ", ".join(literal(v) for v in value) + "]"


@st.composite
def config_files(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["bent", "bent", "bent", "deep", "garbage"]))
    if kind == "garbage":
        return draw(st.binary(max_size=200))
    if kind == "deep":
        depth = draw(st.integers(900, 3000))
        return f"[display]\nrotate = {'[' * depth}{']' * depth}\n".encode()
    lines = []
    for section in draw(st.lists(st.sampled_from(SECTIONS + ["nonsense"]), max_size=4,
                                 unique=True)):
        shipped = DEFAULTS.get(section, {})
        keys = sorted(shipped) if isinstance(shipped, dict) else ["name", "a"]
        header = f"[[{section}]]" if isinstance(shipped, list) else f"[{section}]"
        lines.append(header)
        tables = []
        for key in draw(st.lists(st.sampled_from(keys + ["bogus"]), max_size=3, unique=True)):
            if isinstance(shipped, dict) and isinstance(shipped.get(key), dict):
                sub = shipped[key]  # a pan such as [loadcells.left]: its keys bent
                names = st.sampled_from(sorted(sub) + ["reader", "port", "dout_pin", "bogus"])
                tables.append((key, draw(st.dictionaries(names, VALUES, max_size=3))))
            elif draw(st.booleans()) and draw(st.booleans()):
                tables.append((key, draw(st.dictionaries(TABLE_KEYS, VALUES, max_size=3))))
            else:
                lines.append(f"{key} = {literal(draw(VALUES))}")
        for key, table in tables:  # a table where a value belongs, or a pan: [section.key]
            if not isinstance(shipped, dict):
                continue
            lines.append(f"[{section}.{key}]")
            lines += [f"{k} = {literal(v)}" for k, v in table.items()]
    text = "\n".join(lines) + "\n"
    # a lone surrogate escape is valid TOML text; a raw one makes the file not UTF-8
    return text.encode("utf-8", "surrogatepass")


@fuzz_settings()
@given(config_files())
@example(b"[loadcells]\ntie_band_g = 1" + b"9" * 400 + b"\n")  # found by the large budget
@example(b"[loadcells.tie_band_g]\nreader = \"gpio\"\n")
def test_any_config_is_checked_with_a_documented_status_and_never_a_traceback(tmp_path_factory,
                                                                            capsys, data):
    path = tmp_path_factory.mktemp("cfg") / "config.toml"
    path.write_bytes(data)
    code = main(["config", "check", "--config", str(path)])
    out, err = capsys.readouterr()
    assert code in (0, 1, 2), (code, out, err)
    assert "Traceback" not in out + err
    if code:
        assert (out + err).strip(), "a refusal says why"
    try:                                                     # what sim, run and calibrate load
        load_config(path)
    except ConfigError as exc:
        assert code != 0 and exc.problems
    else:
        assert code == 0
