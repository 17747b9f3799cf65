"""Hardware behind small interfaces, each part with a simulated twin; no driver knows a game."""


class DriverError(Exception):
    """Base of every error a driver raises (each also subclasses the matching builtin)."""
