"""Is the link's port the UART on the header's GPIO 14/15, and free? The self-test's verdict.

Opening a port proves little on a Pi: ``/dev/serial0`` opens on a Pi 5 too, where it is the debug
connector; ``/dev/ttyAMA0`` opens on a Pi 4, where it talks to the Bluetooth chip; and a port the
kernel's console or a login prompt writes to opens as well. ``problem`` names such a case and its
fix; a USB serial adapter configured on purpose (``/dev/ttyUSB0``) is accepted as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..config.board import HEADER, PI5_DEBUG_UART, PI5_HEADER_UART, PRIMARY_UART, USB_SERIAL, Board

INSTALL = "sudo bash scripts/install.sh (from the checkout) sets it"
USE_HEADER = f'set link.port = "{HEADER}" in /etc/spielleiter/config.toml'


@dataclass(frozen=True)
class Verdict:
    """``detail`` says what the port is; ``problem`` (None: fine) what is wrong and the fix,
    ``short`` the few words for the OLED."""

    device: str
    detail: str
    problem: str | None = None
    short: str = ""


def check(board: Board, port: str) -> Verdict:
    """The verdict on ``link.port`` (a path, a pyserial URL or ``header``) on ``board``."""
    device = board.device(port)
    shown = port if port == device else f"{port} ({device})"
    if not device.startswith("/dev/"):
        return Verdict(device, f"{shown}: not a device, not checked against the header")
    if not board.is_pi():
        return Verdict(device, f"{shown}: not a Raspberry Pi (no device-tree model), not checked "
                       "against the header")
    real = board.resolve(device)
    seen = shown if real == device else f"{shown} -> {real}"
    if USB_SERIAL.match(real):
        return Verdict(device, f"{seen}: a USB serial adapter, not the header's UART (as "
                       "configured)")
    wrong = _wrong_device(board, device, real, seen)
    if wrong is not None:
        return Verdict(device, seen, wrong, "wrong UART")
    busy = _owner(board, real)
    if busy is not None:
        return Verdict(device, seen, busy, "console on it")
    return Verdict(device, f"{seen}: the UART on GPIO 14/15")


def _wrong_device(board: Board, device: str, real: str, seen: str) -> str | None:
    if board.is_pi5():
        if real == PI5_DEBUG_UART:
            return (f"{seen} is the debug connector's UART on a Pi 5, not GPIO 14/15: "
                    f"{USE_HEADER} ({PI5_HEADER_UART}, with dtparam=uart0=on in config.txt: "
                    f"{INSTALL}; then reboot)")
        if real != PI5_HEADER_UART:
            return (f"{seen} is not the header's UART ({PI5_HEADER_UART} on a Pi 5): "
                    f"{USE_HEADER}")
        if not board.exists(PI5_HEADER_UART):
            return (f"no {PI5_HEADER_UART}: the header's UART is off: dtparam=uart0=on in "
                    f"config.txt ({INSTALL}), then reboot")
        return None
    if not board.exists(PRIMARY_UART):
        return (f"no {PRIMARY_UART}: the UART on GPIO 14/15 is off: enable_uart=1 in config.txt "
                f"({INSTALL}), then reboot")
    header = board.resolve(PRIMARY_UART)
    if real == header:
        return None
    if real == "/dev/ttyAMA0":
        return (f"{seen} serves Bluetooth on this board; the header has {header}: "
                f"{USE_HEADER} (or dtoverlay=disable-bt in config.txt for the full UART on the "
                "header, then reboot)")
    return f"{seen} is not the header's UART ({PRIMARY_UART} -> {header}): {USE_HEADER}"


def _owner(board: Board, real: str) -> str | None:
    """A console or a login prompt on the port: it would read the link's lines as a login and
    write boot messages into it."""
    if real in board.consoles():
        names = [real.removeprefix("/dev/")] + [alias for alias in ("serial0", "serial1")
                                                 if board.resolve(f"/dev/{alias}") == real]
        cmdline = (board.boot_cmdline() or "").split()
        if not any(word.split(",")[0] == f"console={name}" for word in cmdline
                   for name in names):
            return (f"the serial console is still on {real}: cmdline.txt no longer has it, "
                    "reboot (sudo reboot)")
        return (f"the serial console is on {real}: sudo raspi-config nonint do_serial_cons 1 "
                "(or remove console=serial0,115200 from /boot/firmware/cmdline.txt), then reboot")
    if board.login_prompt_on(real):
        name = real.removeprefix("/dev/")
        return (f"a login prompt is on {real}: sudo systemctl disable --now "
                f"serial-getty@{name}.service")
    return None


__all__ = ["Verdict", "check"]
