"""The uplink's unit: skipped without [fleet], the journal read-only, its exposure as low as a
network client's can be; the main unit keeps every address family and network restriction."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from test_systemd_unit import analyze, one, parse, values

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "spielleiter-uplink.service"
MAIN = ROOT / "systemd" / "spielleiter.service"
MAX_EXPOSURE = 1.0


def unit():
    return parse(UNIT.read_text())


def test_it_runs_only_where_a_room_is_configured():
    u = unit()
    assert one(u, "ExecCondition") == "/opt/spielleiter/venv/bin/spielleiter uplink --check"
    assert one(u, "ExecStart") == ("/opt/spielleiter/venv/bin/spielleiter uplink --state-dir "
                                   "/var/lib/spielleiter")
    assert one(u, "Type") == "notify" and one(u, "Restart") == "on-failure"


def test_the_journal_is_read_only_and_its_own_state_apart():
    u = unit()
    assert one(u, "User") == "spielleiter"  # the box's files are 0600: its own user reads them
    assert one(u, "ProtectSystem") == "strict"
    assert one(u, "ReadOnlyPaths") == "-/var/lib/spielleiter"
    assert one(u, "StateDirectory") == "spielleiter-uplink"
    assert values(u, "SupplementaryGroups") == []  # none of the hardware groups
    assert one(u, "PrivateDevices") == "yes" and one(u, "CapabilityBoundingSet") == ""


def test_only_the_network_a_client_needs():
    u = unit()
    assert one(u, "RestrictAddressFamilies").split() == ["AF_UNIX", "AF_INET", "AF_INET6"]
    assert one(u, "IPAddressDeny") == "any"
    assert "localhost" in one(u, "IPAddressAllow")


def test_the_main_unit_stays_off_the_network():
    main = parse(MAIN.read_text())
    assert one(main, "RestrictAddressFamilies") == "AF_UNIX"
    assert one(main, "PrivateNetwork") == "yes"
    assert one(main, "IPAddressDeny") == "any"


def test_systemd_analyze_verify(tmp_path):
    tool = analyze()
    text = UNIT.read_text().replace("/opt/spielleiter/venv/bin/spielleiter",
                                    f"{sys.executable} -m spielleiter.device.cli")
    copy = tmp_path / UNIT.name
    copy.write_text(text)
    result = subprocess.run([tool, "verify", str(copy)], capture_output=True, text=True,
                            timeout=60)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    findings = [line for line in output.splitlines() if UNIT.name in line]
    assert not findings, "\n".join(findings)


def exposure(tool: str, path: Path) -> float:
    result = subprocess.run([tool, "security", "--offline=true", "--no-pager", str(path)],
                            capture_output=True, text=True, timeout=60)
    match = re.search(rf"Overall exposure level for {re.escape(path.name)}:\s*([0-9.]+)",
                      result.stdout + result.stderr)
    assert match, result.stdout + result.stderr
    return float(match.group(1))


def test_the_exposure_score_is_the_stated_one_and_at_most_1():
    score = exposure(analyze(), UNIT)
    assert score <= MAX_EXPOSURE
    stated = re.search(r"scores (\d+\.\d+)", UNIT.read_text())
    assert stated and float(stated.group(1)) == score
