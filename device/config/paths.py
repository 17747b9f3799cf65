"""Where the device keeps things: the config file it reads and the state directory (the journal).

One place for every default, so ``run``, ``sim`` and the maintenance commands agree:

- the config: ``--config``, else ``$CONFIGURATION_DIRECTORY/config.toml`` (systemd's
  ``ConfigurationDirectory=``), else ``/etc/spielleiter/config.toml`` when present, else the
  shipped defaults alone (None);
- the state directory: ``--state-dir``, else ``$STATE_DIRECTORY`` (systemd's ``StateDirectory=``),
  else ``/var/lib/spielleiter`` on the box. A simulation on a developer's machine never touches
  the appliance's journal: ``spielleiter sim`` (and ``calibrate``/``scale --sim``) use
  ``$XDG_STATE_HOME/spielleiter-sim``, ``spielleiter run --sim`` uses
  ``$XDG_STATE_HOME/spielleiter-run-sim`` (``~/.local/state`` when ``XDG_STATE_HOME`` is unset);
- the journal: ``JOURNAL_NAME`` inside the state directory.

``read_config`` and ``load_config`` read the config found there; a file the TOML parser itself
chokes on (values nested too deeply, an integer too long to convert) is a ``ConfigError`` like any
other unreadable file.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Mapping

from . import core as config_mod
from .core import Config, ConfigError

JOURNAL_NAME = "journal.sqlite3"
STATE_DIR = Path("/var/lib/spielleiter")
CONFIG_NAME = "config.toml"
SIM_STATE = "spielleiter-sim"  # spielleiter sim; calibrate and scale with --sim
RUN_SIM_STATE = "spielleiter-run-sim"  # spielleiter run --sim


def first_dir(value: str | None) -> Path | None:
    """systemd passes ``StateDirectory=a b`` as ``/var/lib/a:/var/lib/b``; ours is the first."""
    for part in (value or "").split(":"):
        if part:
            return Path(part)
    return None


def user_state_dir(name: str, env: Mapping[str, str]) -> Path:
    """``$XDG_STATE_HOME/name`` (``~/.local/state/name`` when unset)."""
    base = env.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / name


def sim_state_dir(state_dir: Path | None, env: Mapping[str, str]) -> Path:
    """The state directory of ``spielleiter sim`` (and of ``calibrate``/``scale --sim``)."""
    return Path(state_dir) if state_dir is not None else user_state_dir(SIM_STATE, env)


def find_state_dir(state_dir: Path | None, env: Mapping[str, str], sim: bool = False) -> Path:
    """The state directory of ``spielleiter run`` (``sim``: ``run --sim``)."""
    if state_dir is not None:
        return Path(state_dir)
    from_systemd = first_dir(env.get("STATE_DIRECTORY"))
    if from_systemd is not None:
        return from_systemd
    if sim:  # a developer's machine: never the appliance's journal
        return user_state_dir(RUN_SIM_STATE, env)
    return STATE_DIR


def find_config(config_path: Path | None, env: Mapping[str, str]) -> Path | None:
    """The site config to read over the defaults, or None for the defaults alone."""
    if config_path is not None:
        return Path(config_path)
    directory = first_dir(env.get("CONFIGURATION_DIRECTORY"))
    for candidate in ([directory / CONFIG_NAME] if directory else []) + [config_mod.SITE_CONFIG]:
        if candidate.is_file():
            return candidate
    return None


def read_config(path: Path | None) -> dict[str, Any]:
    """``config.read`` (the defaults with the file over them), with one clear line instead of a
    traceback for what the TOML parser itself raises on values nested too deeply or an integer
    too long to convert. ConfigError: the file cannot be read."""
    try:
        return config_mod.read(path)
    except RecursionError:
        raise ConfigError([f"{path}: cannot be read: values nested too deeply"]) from None
    except ValueError as exc:
        if isinstance(exc, ConfigError) or "integer string conversion" not in str(exc):
            raise
        raise ConfigError([f"{path}: cannot be read: an integer longer than "
                           f"{sys.get_int_max_str_digits()} digits"]) from None


def load_config(path: Path | None) -> Config:
    """The validated config (ConfigError lists every problem, or says the file cannot be read)."""
    return config_mod.validate(read_config(path))
