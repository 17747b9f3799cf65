"""scripts/install.sh against a scratch root (``--root DIR``): files land under DIR, commands that
would change this machine (apt-get, useradd, pip, systemctl, raspi-config) are only printed."""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from spielleiter.device.config import core as config_mod

from pi_root import (BOARDS, STOCK_CMDLINE, Installs, install, make_root, skipped,
                     stock_config_txt)

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "install.sh"
UNIT = ROOT / "systemd" / "spielleiter.service"
DEFAULTS = ROOT / "device" / "data" / "default_config.toml"
PI5, PI4, PI3 = BOARDS["pi5"], BOARDS["pi4"], BOARDS["pi3"]
STOCK_CONFIG_TXT = stock_config_txt(64)


@pytest.fixture(scope="module")
def installs(tmp_path_factory) -> Installs:
    return Installs(tmp_path_factory.mktemp("installs"))


def tree(root: Path) -> dict[str, str]:
    """Every path under root with its type, mode and content (or link target)."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        st = path.lstat()
        if stat.S_ISLNK(st.st_mode):
            out[rel] = "link " + os.readlink(path)
        elif stat.S_ISDIR(st.st_mode):
            out[rel] = f"dir {st.st_mode & 0o7777:o}"
        else:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            out[rel] = f"file {st.st_mode & 0o7777:o} {digest}"
    return out


def test_install_on_a_pi5(installs):
    root, result = installs.get(board=PI5)
    commands = skipped(result)
    # The unit as shipped, enabled for multi-user.target.
    unit = root / "etc/systemd/system/spielleiter.service"
    assert unit.read_text() == UNIT.read_text()
    assert stat.S_IMODE(unit.stat().st_mode) == 0o644
    assert not (root / "etc/systemd/system/spielleiter.service.d").exists()
    if shutil.which("systemctl"):
        link = root / "etc/systemd/system/multi-user.target.wants/spielleiter.service"
        assert os.readlink(link) == "/etc/systemd/system/spielleiter.service"
    # The user and the groups the hardware needs (only the missing ones are created).
    assert "groupadd --system i2c" in commands
    assert "groupadd --system spi" in commands
    assert "groupadd --system gpio" not in commands
    assert any(c.startswith("useradd --system --gid spielleiter --groups gpio,i2c,spi,dialout")
               and c.endswith(" spielleiter") and "--shell /usr/sbin/nologin" in c
               for c in commands), commands
    # A venv under /opt with the lgpio backend of the Pi 5.
    venv = f"{root}/opt/spielleiter/venv"
    assert f"{sys.executable} -m venv --clear {venv}" in commands
    assert f"env PYPI=1 {venv}/bin/python -m pip install --disable-pip-version-check -q " \
           f"--upgrade '{ROOT}[pi,hx711]'" in commands
    assert "[pi] lgpio + rpi-lgpio" in result.stdout
    # I2C and SPI switched on where the stock file has them commented out, the rest appended
    # (no raspi-config in a scratch root: the files are edited directly), the console gone.
    config_txt = (root / "boot/firmware/config.txt").read_text()
    assert config_txt == STOCK_CONFIG_TXT.replace("#dtparam=i2c_arm=on", "dtparam=i2c_arm=on") \
                                         .replace("#dtparam=spi=on", "dtparam=spi=on") \
        + "dtparam=i2c_arm_baudrate=400000\ndtparam=uart0=on\ndtoverlay=spi1-1cs\n" \
        + "dtoverlay=i2c-sensor,tmp102\n"
    assert (root / "boot/firmware/cmdline.txt").read_text() == \
        STOCK_CMDLINE.replace("console=serial0,115200 ", "")
    assert "reboot needed" in result.stdout
    assert (root / "etc/modules-load.d/spielleiter.conf").read_text().endswith("i2c-dev\n")
    # Started, after a daemon-reload.
    assert commands[-2:] == ["systemctl daemon-reload", "systemctl restart spielleiter"]
    assert (root / "opt/spielleiter/docs/install.md").exists()


@pytest.mark.shipped_language
def test_the_site_config_is_the_defaults_commented_out(installs):
    root, _ = installs.get()
    site = root / "etc/spielleiter/config.toml"
    assert config_mod.read(site) == config_mod.defaults()  # nothing active
    text = site.read_text()
    for line in DEFAULTS.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            assert f"#{line}" in text.splitlines()
    # Uncommenting every setting gives the shipped defaults back.
    shipped = set(DEFAULTS.read_text().splitlines())
    uncommented = [ln[1:] if ln.startswith("#") and ln[1:] in shipped else ln
                   for ln in text.splitlines()]
    assert tomllib.loads("\n".join(uncommented)) == config_mod.defaults()


def test_running_twice_changes_nothing(tmp_path, installs):
    root, _ = installs.copy(tmp_path)
    before = tree(root)
    second = install(root)
    assert tree(root) == before
    assert "installed:" not in second.stdout
    assert "boot settings: unchanged (/boot/firmware/config.txt, /boot/firmware/cmdline.txt)" \
        in second.stdout and "no reboot needed" in second.stdout
    assert "unchanged: /etc/systemd/system/spielleiter.service" in second.stdout
    assert "kept: /etc/spielleiter/config.toml" in second.stdout
    assert "systemctl daemon-reload" not in skipped(second)


def test_an_existing_site_config_is_never_touched(tmp_path):
    root = make_root(tmp_path)
    site = root / "etc/spielleiter/config.toml"
    site.parent.mkdir(parents=True)
    site.write_text("[buzzer]\nenabled = false\n")
    install(root)
    assert site.read_text() == "[buzzer]\nenabled = false\n"


@pytest.mark.parametrize("board, version, extra", [
    (PI5, "12", "pi"), (PI5, "11", "pi"), (PI4, "12", "pi"), (PI4, "13", "pi"),
    (PI3, "11", "pi-legacy"), (None, "12", "pi")])
def test_the_gpio_backend_follows_board_and_os(installs, board, version, extra):
    root, result = installs.get(board=board, os_name=version)
    assert any(c.endswith(f"[{extra},hx711]'") for c in skipped(result)), result.stdout
    dropin = root / "etc/systemd/system/spielleiter.service.d/gpio-legacy.conf"
    assert dropin.exists() == (extra == "pi-legacy")


def test_moving_the_card_to_a_pi5_drops_the_legacy_backend(tmp_path, installs):
    root, _ = installs.copy(tmp_path, board=PI3, os_name="11")
    dropin = root / "etc/systemd/system/spielleiter.service.d/gpio-legacy.conf"
    assert "ProtectKernelTunables=no" in dropin.read_text()
    (root / "proc/device-tree/model").write_bytes(PI5.model.encode() + b"\0")
    result = install(root)
    assert not dropin.parent.exists()
    assert "pip uninstall -y -q RPi.GPIO" in " ".join(skipped(result))
    assert "systemctl daemon-reload" in skipped(result)


def test_extra_can_be_chosen(tmp_path):
    root = make_root(tmp_path)
    result = install(root, "--extra", "pi-legacy")
    assert any(c.endswith("[pi-legacy,hx711]'") for c in skipped(result))
    assert install(root, "--extra", "gpio", check=False).returncode != 0


def test_old_config_txt_location_and_conditional_sections(tmp_path):
    text = "dtoverlay=vc4-kms-v3d\n[pi4]\ndtparam=spi=off\n[cm4]\notg_mode=1\n"
    root = make_root(tmp_path, PI4, config_txt=text, boot="boot")
    install(root)
    result = (root / "boot/config.txt").read_text()
    # The [pi4] line is that board's business; ours go into an [all] section at the end,
    # parameters before the overlay (a dtparam after a dtoverlay can go to that overlay).
    assert result == text + "[all]\ndtparam=i2c_arm=on\ndtparam=spi=on\n" \
        "dtparam=i2c_arm_baudrate=400000\nenable_uart=1\ndtoverlay=spi1-1cs\n" \
        "dtoverlay=i2c-sensor,tmp102\n"
    install(root)
    assert (root / "boot/config.txt").read_text() == result


def test_an_off_setting_is_switched_on_in_place(tmp_path):
    text = "dtparam=i2c_arm=off,i2c_arm_baudrate=100000\ndtparam=spi=on\nenable_uart=0\n"
    root = make_root(tmp_path, PI4, config_txt=text)
    install(root)
    assert (root / "boot/firmware/config.txt").read_text() == \
        "dtparam=i2c_arm=on,i2c_arm_baudrate=400000\ndtparam=spi=on\nenable_uart=1\n" \
        "dtoverlay=spi1-1cs\ndtoverlay=i2c-sensor,tmp102\n"


def test_no_start(tmp_path):
    root = make_root(tmp_path)
    commands = skipped(install(root, "--no-start"))
    assert not any(c.startswith(("systemctl start", "systemctl restart")) for c in commands)


def test_uninstall_keeps_the_journal_and_purge_removes_it(tmp_path, installs):
    root, _ = installs.copy(tmp_path)
    journal = root / "var/lib/spielleiter/journal.sqlite3"
    journal.parent.mkdir(parents=True)
    journal.write_bytes(b"games")
    (root / "opt/spielleiter/venv/bin").mkdir(parents=True)  # as a real install leaves it
    with open(root / "etc/passwd", "a") as fh:
        fh.write("spielleiter:x:990:990::/var/lib/spielleiter:/usr/sbin/nologin\n")
    result = install(root, "--uninstall")
    assert not (root / "etc/systemd/system/spielleiter.service").exists()
    assert not (root / "etc/systemd/system/multi-user.target.wants/spielleiter.service").exists()
    assert not (root / "opt/spielleiter").exists()
    assert not (root / "etc/modules-load.d/spielleiter.conf").exists()
    assert "userdel spielleiter" in skipped(result)
    assert journal.read_bytes() == b"games"
    assert (root / "etc/spielleiter/config.toml").exists()
    assert "dtparam=i2c_arm=on" in (root / "boot/firmware/config.txt").read_text()
    install(root, "--uninstall", "--purge")
    assert not (root / "var/lib/spielleiter").exists()
    assert not (root / "etc/spielleiter").exists()


def test_usage_errors(tmp_path):
    assert "--uninstall" in install(tmp_path, "--help").stdout
    assert install(tmp_path, "--bogus", check=False).returncode != 0
    assert install(tmp_path, "--purge", check=False).returncode != 0
    missing = subprocess.run(["bash", str(SCRIPT), "--root", str(tmp_path / "nope")],
                             capture_output=True, text=True, timeout=30)
    assert missing.returncode != 0 and "no such directory" in missing.stderr


def test_a_real_install_needs_root():
    # The script comes on stdin: "nobody" may not be allowed into the directory that holds the
    # checkout (a clone in a root-only mktemp -d), and the check must not depend on where it is.
    command = ["bash", "-s"]
    if os.geteuid() == 0:  # try it as nobody
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: cannot try as another user")
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    result = subprocess.run(command, input=SCRIPT.read_text(), capture_output=True, text=True,
                            timeout=30, cwd="/")
    assert result.returncode != 0
    assert "sudo bash scripts/install.sh" in result.stderr


def test_docs_give_the_one_command():
    assert "sudo bash scripts/install.sh" in (ROOT / "docs" / "install.md").read_text()


@pytest.mark.parametrize("script", ["scripts/install.sh", "scripts/install-board.sh",
                                    "scripts/pi-check.sh", "scripts/boot-check.sh",
                                    "tests/standins/raspi-config"])
def test_shellcheck(script):
    tool = shutil.which("shellcheck")
    if tool is None:
        pytest.skip("shellcheck not installed (Debian: apt-get install shellcheck)")
    result = subprocess.run([tool, "-x", script], capture_output=True, text=True, timeout=60,
                            cwd=ROOT)
    assert result.returncode == 0, result.stdout


def test_the_build_copy_holds_every_file_the_build_reads():
    """The installer builds from a copy of the checkout: pyproject.toml, setup.py (it finds the
    package folders) and the readme pyproject.toml names must all be in it."""
    lines = SCRIPT.read_text().splitlines()
    [at] = [i for i, line in enumerate(lines) if line.strip().startswith('cp -r "$SRC/')]
    joined = lines[at] + lines[at + 1]  # the command goes on over one line
    readme = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["readme"]
    for name in ("pyproject.toml", "setup.py", readme, "games", "drivers", "device"):
        assert f'"$SRC/{name}"' in joined, name


def test_a_room_is_named_at_install_and_only_then_the_uplink_is_enabled(tmp_path, installs):
    root, plain = installs.copy(tmp_path)
    uplink = root / "etc/systemd/system/spielleiter-uplink.service"
    assert uplink.read_text() == (ROOT / "systemd/spielleiter-uplink.service").read_text()
    assert "uplink: no room configured" in plain.stdout
    assert not any("spielleiter-uplink" in c for c in skipped(plain))
    result = install(root, "--box-id", "tisch-3", "--broker", "lehrer-laptop.local")
    site = root / "etc/spielleiter/config.toml"
    fleet = config_mod.validate(config_mod.read(site)).fleet
    assert (fleet.box_id, fleet.broker) == ("tisch-3", "lehrer-laptop.local")
    commands = skipped(result)
    assert any(c.endswith("[pi,room,hx711]'") for c in commands), commands  # paho-mqtt for the uplink
    assert commands[-1] == "systemctl restart spielleiter-uplink.service"
    again = install(root, "--box-id", "tisch-4", "--broker", "other")
    assert "kept: [fleet]" in again.stdout  # a room once named is changed in the file itself
    assert config_mod.validate(config_mod.read(site)).fleet.box_id == "tisch-3"
    assert install(root, "--box-id", "Tisch 3", "--broker", "x", check=False).returncode != 0
    assert install(root, "--box-id", "tisch-3", check=False).returncode != 0
    install(root, "--uninstall")
    assert not uplink.exists()
