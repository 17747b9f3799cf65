"""The appliance: composition root, runtime loop, referees, screens, journal, link, CLI."""


class DeviceError(Exception):
    """Base of every error the device layer raises (each also subclasses the matching builtin)."""
