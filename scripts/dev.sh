#!/usr/bin/env bash
# Set up .venv from nothing (Debian: installs python3-venv if missing), then run one task.
# Usage: bash scripts/dev.sh sim|test|demo [ARGS...]   (from any directory)
#
# The project is installed editable, so code changes need no reinstall: pip runs only when the
# venv is new, pyproject.toml changed or the task needs an extra not yet installed (a stamp in
# .venv records what was installed for which pyproject.toml). pip's output goes to a log in
# .venv and is shown only when the install fails.
set -euo pipefail
cd "$(dirname "$0")/.."
task=${1:-sim}; shift || true
py=${PYTHON:-python3}
stamp=.venv/spielleiter-installed
log=.venv/spielleiter-install.log

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

# ensure EXTRA: install the project (with the extra, if any) unless the stamp says it is current.
# The stamp is "<sha256 of pyproject.toml and setup.py> <extra>"; the test extra includes the plain install.
ensure() {
  local extra=$1 hash have
  hash=$(cat pyproject.toml setup.py | sha256sum | cut -d' ' -f1)
  have=$(cat "$stamp" 2>/dev/null || true)
  if [ -x .venv/bin/spielleiter ] && { [ "$have" = "$hash $extra" ] || [ "$have" = "$hash test" ]; }; then
    return 0
  fi
  echo "dev.sh: installing spielleiter${extra:+ with [$extra]} into .venv (once; pyproject.toml or the venv changed)" >&2
  rm -f "$stamp"
  if ! { .venv/bin/python -m pip install --upgrade pip \
         && .venv/bin/python -m pip install -e ".${extra:+[$extra]}"; } >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "dev.sh: the install failed; the whole log is $PWD/$log" >&2
    exit 1
  fi
  echo "$hash $extra" >"$stamp"
}

case "$task" in
  test)
    # systemd-analyze (unit checks) and shellcheck (installer): tests skip without them; as root
    # (CI) fetch them from Debian.
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null \
        && ! { command -v systemd-analyze && command -v shellcheck; } >/dev/null 2>&1; then
      { apt-get update -qq && apt-get install -y -qq systemd shellcheck >/dev/null; } || true
    fi
    ensure test
    # one worker per core (2 on the CI machine); "-n 0" after it runs in one process
    exec .venv/bin/python -m pytest -n auto "$@" ;;
  sim|demo|replay|*)
    ensure ""
    exec .venv/bin/spielleiter "$task" "$@" ;;
esac
