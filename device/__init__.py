"""The appliance: composition root, runtime loop, modes, screens, journal, link, CLI."""

if __name__ != "spielleiter.device":  # pragma: no cover - a second copy of the package
    raise ImportError(f"import spielleiter.device, not {__name__!r} (install the project: "
                      "bash scripts/dev.sh test)")


from importlib import metadata

try:
    __version__ = metadata.version("spielleiter")
except metadata.PackageNotFoundError:  # pragma: no cover - running from an uninstalled tree
    __version__ = "0+unknown"

from .exc import DeviceError  # noqa: E402 - after the guard above

__all__ = ["DeviceError", "__version__"]
