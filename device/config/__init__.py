"""The box's configuration: the shipped defaults with a site file over them.

The sections and their checks (``core``, with ``[loadcells]`` in ``cells`` and ``[fleet]`` in
``fleet``), where the config and the state directory are found (``paths``), the Raspberry Pi
under the box (``board``), and the pin map as the builder reads it: a table (``pinout``) and a
picture of the header (``wiring``).
"""

from __future__ import annotations

from .core import Config, ConfigError, load

__all__ = ["Config", "ConfigError", "load"]
