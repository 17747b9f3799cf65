"""Hardware behind small interfaces, each part with a simulated twin; no driver knows a game."""

if __name__ != "spielleiter.drivers":  # pragma: no cover - a second copy of the package
    raise ImportError(f"import spielleiter.drivers, not {__name__!r} (install the project: "
                      "bash scripts/dev.sh test)")

from .exc import DriverError  # noqa: E402 - after the guard above

__all__ = ["DriverError"]
