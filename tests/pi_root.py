"""A Raspberry Pi's files in a folder, for scripts/install.sh --root and the board checks.

``make_root`` lays out what the installer and ``device.board`` read: the device-tree model, the
/proc/cpuinfo revision (raspi-config's way to tell a Pi 5), os-release, config.txt and cmdline.txt
as Raspberry Pi OS ships them, groups and users. ``effective`` reads a config.txt the way the
firmware does for one board (only the sections that apply to it), so two files that differ only
in order compare equal.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "install.sh"
STANDIN = ROOT / "tests" / "standins" / "raspi-config"
SKIPPED = "[scratch root, skipped] "


@dataclass(frozen=True)
class Board:
    key: str
    model: str
    revision: str  # /proc/cpuinfo: the processor nibble tells the SoC (4: BCM2712, the Pi 5)
    filter: str    # config.txt's conditional filter that matches it

    @property
    def is_pi5(self) -> bool:
        return self.filter == "pi5"


BOARDS = {
    "zero2w": Board("zero2w", "Raspberry Pi Zero 2 W Rev 1.0", "902120", "pi02"),
    "pi3": Board("pi3", "Raspberry Pi 3 Model B Plus Rev 1.3", "a020d3", "pi3+"),
    "pi4": Board("pi4", "Raspberry Pi 4 Model B Rev 1.4", "c03114", "pi4"),
    "pi5": Board("pi5", "Raspberry Pi 5 Model B Rev 1.0", "c04170", "pi5"),
}
OS_RELEASE = {"bookworm": "12", "trixie": "13"}


def stock_config_txt(bits: int = 64) -> str:
    """config.txt as Raspberry Pi OS (bookworm and trixie) ships it; 32-bit images have no
    arm_64bit line."""
    return (
        "# For more options and information see\n"
        "# http://rptl.io/configtxt\n"
        "# Some settings may impact device functionality. See link above for details\n\n"
        "# Uncomment some or all of these to enable the optional hardware interfaces\n"
        "#dtparam=i2c_arm=on\n#dtparam=i2s=on\n#dtparam=spi=on\n\n"
        "# Enable audio (loads snd_bcm2835)\ndtparam=audio=on\n\n"
        "# Automatically load overlays for detected cameras\ncamera_auto_detect=1\n\n"
        "# Automatically load overlays for detected DSI displays\ndisplay_auto_detect=1\n\n"
        "# Automatically load initramfs files, if found\nauto_initramfs=1\n\n"
        "# Enable DRM VC4 V3D driver\ndtoverlay=vc4-kms-v3d\nmax_framebuffers=2\n\n"
        "# Don't have the firmware create an initial video= setting in cmdline.txt.\n"
        "# Use the kernel's default instead.\ndisable_fw_kms_setup=1\n\n"
        + ("# Run in 64-bit mode\narm_64bit=1\n\n" if bits == 64 else "")
        + "# Disable compensation for displays with overscan\ndisable_overscan=1\n\n"
        "# Run as fast as firmware / board allows\narm_boost=1\n\n"
        "[cm4]\n# Enable host mode on the 2711 built-in XHCI USB controller.\notg_mode=1\n\n"
        "[cm5]\ndtoverlay=dwc2,dr_mode=host\n\n[all]\n")


STOCK_CMDLINE = ("console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 "
                 "fsck.repair=yes rootwait\n")


def make_root(base: Path, board: Board | None = BOARDS["pi5"], os_name: str = "bookworm",
              bits: int = 64, config_txt: str | None = None, boot: str = "boot/firmware",
              cmdline: str | None = STOCK_CMDLINE,
              groups: tuple[str, ...] = ("dialout", "gpio")) -> Path:
    """A scratch root for ``install.sh --root``; ``config_txt`` None: the stock file."""
    root = base / "root"
    (root / "etc").mkdir(parents=True)
    if board is not None:
        (root / "proc" / "device-tree").mkdir(parents=True)
        (root / "proc" / "device-tree" / "model").write_bytes(board.model.encode() + b"\0")
        (root / "proc" / "cpuinfo").write_text(
            f"Hardware\t: BCM2835\nRevision\t: {board.revision}\n")
    version = OS_RELEASE.get(os_name, os_name)
    (root / "etc" / "os-release").write_text(f'PRETTY_NAME="Debian"\nVERSION_ID="{version}"\n')
    (root / "etc" / "group").write_text(
        "root:x:0:\n" + "".join(f"{g}:x:{900 + i}:\n" for i, g in enumerate(groups)))
    (root / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (root / boot).mkdir(parents=True)
    (root / boot / "config.txt").write_text(stock_config_txt(bits) if config_txt is None
                                            else config_txt)
    if cmdline is not None:
        (root / boot / "cmdline.txt").write_text(cmdline)
    return root


def install(root: Path, *args: str, check: bool = True, standin: bool = False,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``install.sh --root ROOT ARGS``; ``standin``: with raspi-config's stand-in."""
    extra = ["--raspi-config", str(STANDIN)] if standin else []
    result = subprocess.run(["bash", str(SCRIPT), "--root", str(root), *extra, *args],
                            env={**os.environ, "PYTHON": sys.executable, **(env or {})},
                            capture_output=True, text=True, timeout=60)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def skipped(result: subprocess.CompletedProcess) -> list[str]:
    return [line.split(SKIPPED, 1)[1] for line in result.stdout.splitlines() if SKIPPED in line]


def effective(text: str, board: Board) -> dict[str, object]:
    """What the firmware takes from config.txt on ``board``: the dtparams (name -> value), the
    overlays in order and the other settings, from the sections that apply to it."""
    applies, params, overlays, settings = True, {}, [], {}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            applies = line[1:-1].strip() in ("all", board.filter)
            continue
        if not applies:
            continue
        key, _, value = line.partition("=")
        if key == "dtparam":
            for item in value.split(","):
                name, has, v = item.partition("=")
                params[name] = v if has else "on"
        elif key == "dtoverlay":
            overlays.append(value)
        else:
            settings[key] = value
    return {"dtparam": params, "dtoverlay": overlays, "settings": settings}


class Installs:
    """One ``install`` per distinct scratch root and arguments in a test module (its
    ``installs`` fixture): the tests that only read what a first install left share it, and a
    test that goes on to change the root (a second install, an uninstall) does so on its own
    copy. Each install runs the installer on a root of its own; no file it leaves names the
    root's path (the unit links are root-relative), so a copy is the root it was copied from."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.done: dict[tuple, tuple[Path, subprocess.CompletedProcess]] = {}

    def get(self, *args: str, standin: bool = False, board: Board | None = BOARDS["pi5"],
            os_name: str = "bookworm", bits: int = 64) -> tuple[Path, subprocess.CompletedProcess]:
        """The root after ``install(make_root(board, os_name, bits), *args)`` and its result:
        only to read."""
        key = (args, standin, board, OS_RELEASE.get(os_name, os_name), bits)
        if key not in self.done:
            root = make_root(self.base / f"install-{len(self.done)}", board, os_name, bits)
            self.done[key] = root, install(root, *args, standin=standin)
        return self.done[key]

    def copy(self, dest: Path, *args: str, **kwargs) -> tuple[Path, subprocess.CompletedProcess]:
        """``get``'s root copied to ``dest``/root (to change), with the first install's result
        (its paths are those of the shared root)."""
        root, result = self.get(*args, **kwargs)
        copied = dest / "root"
        shutil.copytree(root, copied, symlinks=True)
        return copied, result

