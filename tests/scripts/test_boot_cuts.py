"""The power cuts' verdicts: every action the box acknowledged before a cut must be in its
journal after the reboot, with SQLite's integrity check ok."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def verdicts(tmp_path: Path, logs: list[str], capsys) -> tuple[int, str]:
    spec = importlib.util.spec_from_file_location("boot_cuts", ROOT / "scripts" / "boot_cuts.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for k, text in enumerate(logs):
        # a console log: terminal escapes and the kernel's lines around the guest's
        (tmp_path / f"console-cut-{k}.log").write_bytes(
            b"\x1b[0;32m  OK  \x1b[0m] +ACL +SECCOMP\r\n" + text.encode() + b"\r\n")
    status = module.main([str(tmp_path), str(len(logs) - 1)])
    return status, capsys.readouterr().out


def test_acknowledged_actions_found_after_each_cut_pass(tmp_path, capsys):
    status, out = verdicts(tmp_path, [
        "BOOTCHECK [    1.0s] FOUND nothing (a first round)\n"
        "BOOTCHECK [   30.0s] ACK game=1 actions=2 status=running\n"
        "BOOTCHECK [   31.0s] ACK game=1 actions=3 status=running",
        "BOOTCHECK [    1.0s] FOUND game=1 actions=4 status=running integrity=ok\n"
        "BOOTCHECK [    1.5s] RESUMED after 0.2 s: STATUS='Spielleitung: spielt Tatort Tonne'\n"
        "BOOTCHECK [    9.0s] PLAYING",  # cut before anything was acknowledged
        "BOOTCHECK [    1.0s] FOUND nothing (a first round)"], capsys)
    assert status == 0, out
    assert "cut 1: ? s into the game; acknowledged 3, journal after the reboot 4" in out
    assert "cut 2:" in out and "2 checked, 0 lost" in out


def test_an_acknowledged_action_missing_after_the_cut_fails(tmp_path, capsys):
    status, out = verdicts(tmp_path, [
        "BOOTCHECK [   31.0s] ACK game=1 actions=3 status=running",
        "BOOTCHECK [    1.0s] FOUND game=1 actions=2 status=running integrity=ok"], capsys)
    assert status == 1 and "FAIL" in out and "1 lost" in out


def test_a_damaged_database_fails(tmp_path, capsys):
    status, out = verdicts(tmp_path, [
        "BOOTCHECK [   31.0s] ACK game=1 actions=3 status=running",
        "BOOTCHECK [    1.0s] FOUND game=1 actions=3 status=running integrity=*** in database"],
        capsys)
    assert status == 1 and "FAIL" in out
