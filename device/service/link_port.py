"""Is the link's port the UART on the header's GPIO 14/15, and free? The self-test's verdict.

Opening a port proves little on a Pi: ``/dev/serial0`` opens on a Pi 5 too, where it is the debug
connector; ``/dev/ttyAMA0`` opens on a Pi 4, where it talks to the Bluetooth chip; and a port the
kernel's console or a login prompt writes to opens as well. ``problem`` names such a case and its
fix; a USB serial adapter configured on purpose (``/dev/ttyUSB0``) is accepted as it is. A port
named by a label (``fe201000.serial``, ``drivers.uart``) is judged as the device it names.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...drivers.uart import UartNotFound, find_uart, is_label
from ..config.board import HEADER, PI5_DEBUG_UART, PI5_HEADER_UART, PRIMARY_UART, USB_SERIAL, Board
from ..i18n import N_, _

INSTALL = N_("sudo bash scripts/install.sh (from the checkout) sets it")
USE_HEADER = N_('set link.port = "{header}" in /etc/spielleiter/config.toml')


def _install() -> str:
    return _(INSTALL)


def _use_header() -> str:
    return _(USE_HEADER).format(header=HEADER)


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
    if is_label(device):  # a UART named by its device (drivers.uart)
        try:
            device = find_uart(device, board.root).path
        except UartNotFound as exc:
            return Verdict(device, str(exc), str(exc), N_("no UART"))
    shown = port if port == device else f"{port} ({device})"
    if not device.startswith("/dev/"):
        return Verdict(device, _("{port}: not a device, not checked against the header").format(
            port=shown))
    if not board.is_pi():
        return Verdict(device, _("{port}: not a Raspberry Pi (no device-tree model), not checked "
                                 "against the header").format(port=shown))
    real = board.resolve(device)
    seen = shown if real == device else f"{shown} -> {real}"
    if USB_SERIAL.match(real):
        return Verdict(device, _("{port}: a USB serial adapter, not the header's UART (as "
                                 "configured)").format(port=seen))
    wrong = _wrong_device(board, device, real, seen)
    if wrong is not None:
        return Verdict(device, seen, wrong, N_("wrong UART"))
    busy = _owner(board, real)
    if busy is not None:
        return Verdict(device, seen, busy, N_("console on it"))
    return Verdict(device, _("{port}: the UART on GPIO 14/15").format(port=seen))


def _wrong_device(board: Board, device: str, real: str, seen: str) -> str | None:
    if board.is_pi5():
        if real == PI5_DEBUG_UART:
            return _("{port} is the debug connector's UART on a Pi 5, not GPIO 14/15: {use} "
                     "({uart}, with dtparam=uart0=on in config.txt: {install}; then "
                     "reboot)").format(port=seen, use=_use_header(), uart=PI5_HEADER_UART,
                                       install=_install())
        if real != PI5_HEADER_UART:
            return _("{port} is not the header's UART ({uart} on a Pi 5): {use}").format(
                port=seen, uart=PI5_HEADER_UART, use=_use_header())
        if not board.exists(PI5_HEADER_UART):
            return _("no {uart}: the header's UART is off: dtparam=uart0=on in config.txt "
                     "({install}), then reboot").format(uart=PI5_HEADER_UART, install=_install())
        return None
    if not board.exists(PRIMARY_UART):
        return _("no {uart}: the UART on GPIO 14/15 is off: enable_uart=1 in config.txt "
                 "({install}), then reboot").format(uart=PRIMARY_UART, install=_install())
    header = board.resolve(PRIMARY_UART)
    if real == header:
        return None
    if real == "/dev/ttyAMA0":
        return _("{port} serves Bluetooth on this board; the header has {header}: {use} (or "
                 "dtoverlay=disable-bt in config.txt for the full UART on the header, then "
                 "reboot)").format(port=seen, header=header, use=_use_header())
    return _("{port} is not the header's UART ({uart} -> {header}): {use}").format(
        port=seen, uart=PRIMARY_UART, header=header, use=_use_header())


def _owner(board: Board, real: str) -> str | None:
    """A console or a login prompt on the port: it would read the link's lines as a login and
    write boot messages into it."""
    if real in board.consoles():
        names = [real.removeprefix("/dev/")] + [alias for alias in ("serial0", "serial1")
                                                 if board.resolve(f"/dev/{alias}") == real]
        cmdline = (board.boot_cmdline() or "").split()
        if not any(word.split(",")[0] == f"console={name}" for word in cmdline
                   for name in names):
            return _("the serial console is still on {port}: cmdline.txt no longer has it, "
                     "reboot (sudo reboot)").format(port=real)
        return _("the serial console is on {port}: sudo raspi-config nonint do_serial_cons 1 (or "
                 "remove console=serial0,115200 from /boot/firmware/cmdline.txt), then "
                 "reboot").format(port=real)
    if board.login_prompt_on(real):
        name = real.removeprefix("/dev/")
        return _("a login prompt is on {port}: sudo systemctl disable --now "
                 "serial-getty@{name}.service").format(port=real, name=name)
    return None


__all__ = ["Verdict", "check"]
