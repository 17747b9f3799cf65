#!/usr/bin/env bash
# Set up .venv from nothing (Debian: installs python3-venv if missing), then run one task.
# Usage: bash scripts/dev.sh sim|test|demo [ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."
task=${1:-sim}; shift || true
py=${PYTHON:-python3}

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! [ -x .venv/bin/python ] || ! .venv/bin/python -c 'import sys; assert sys.version_info >= (3, 11)' 2>/dev/null; then
  rm -rf .venv
  if ! "$py" -m venv .venv >/dev/null 2>&1; then
    echo "dev.sh: installing python3-venv (Debian)" >&2
    rm -rf .venv
    as_root apt-get update -qq && as_root apt-get install -y -qq python3-venv >/dev/null
    "$py" -m venv .venv
  fi
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
case "$task" in
  test)
    # systemd-analyze (unit checks) and shellcheck (installer): tests skip without them; as root
    # (CI) fetch them from Debian.
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null \
        && ! { command -v systemd-analyze && command -v shellcheck; } >/dev/null 2>&1; then
      apt-get update -qq && apt-get install -y -qq systemd shellcheck >/dev/null || true
    fi
    .venv/bin/python -m pip install -q -e ".[test]"
    exec .venv/bin/python -m pytest "$@" ;;
  sim|demo|replay|*)
    .venv/bin/python -m pip install -q -e .
    exec .venv/bin/spielleiter "$task" "$@" ;;
esac
