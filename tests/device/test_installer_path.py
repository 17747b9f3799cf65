"""The installer puts ``spielleiter`` on PATH (a link in /usr/local/bin to the venv's), so the
docs' commands work as typed after it; uninstall takes the link away; and a ``--root DIR`` run
writes nothing outside DIR."""

from __future__ import annotations

import os
from pathlib import Path

from pi_root import install, make_root

TARGET = "/opt/spielleiter/venv/bin/spielleiter"
# Where a real install writes on the running system: a scratch-root run must touch none of them.
SYSTEM = ("/opt/spielleiter", "/usr/local/bin/spielleiter", "/etc/spielleiter",
          "/etc/systemd/system/spielleiter.service", "/var/lib/spielleiter",
          "/etc/modules-load.d/spielleiter.conf")


def state(paths) -> dict[str, tuple[bool, float]]:
    out = {}
    for p in paths:
        path = Path(p)
        out[p] = (os.path.lexists(path), path.lstat().st_mtime if os.path.lexists(path) else 0.0)
    return out


def test_the_installer_links_spielleiter_into_usr_local_bin(tmp_path):
    root = make_root(tmp_path)
    result = install(root, "--no-start")
    link = root / "usr/local/bin/spielleiter"
    assert link.is_symlink() and os.readlink(link) == TARGET
    assert f"linked: /usr/local/bin/spielleiter -> {TARGET}" in result.stdout
    again = install(root, "--no-start")
    assert "unchanged: /usr/local/bin/spielleiter" in again.stdout


def test_uninstall_removes_the_link(tmp_path):
    root = make_root(tmp_path)
    install(root, "--no-start")
    install(root, "--uninstall")
    assert not os.path.lexists(root / "usr/local/bin/spielleiter")


def test_a_scratch_root_run_writes_nothing_outside_it(tmp_path):
    before = state(SYSTEM)
    root = make_root(tmp_path)
    result = install(root, "--no-start")
    assert state(SYSTEM) == before
    for line in result.stdout.splitlines():               # every file it says it wrote is
        for verb in ("installed: ", "linked: "):           # named as on the target system,
            if verb in line:                               # and lies under the scratch root
                shown = line.split(verb, 1)[1].split(" ")[0]
                assert (root / shown.lstrip("/")).exists() or os.path.lexists(
                    root / shown.lstrip("/")), line
