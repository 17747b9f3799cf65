#!/usr/bin/env bash
# Set up a venv from nothing (Debian: installs python3-venv if missing), then run one task.
# Usage: bash scripts/dev.sh sim|test|demo [ARGS...]   (from any directory)
#
# The venv is .venv for the default python3; PYTHON=/path/to/python3.13 uses .venv-3.13 (one per
# interpreter version, so two Pythons never rebuild each other's; VENV=DIR to choose). The project
# is installed editable, so code changes need no reinstall: pip runs only when the venv is new,
# pyproject.toml changed or the task needs an extra not yet installed (a stamp in the venv records
# what was installed for which pyproject.toml). pip's output goes to a log in the venv and is shown
# only when the install fails. The Debian packages of scripts/debian-packages.txt ("dev" for every
# task, "test" too for the tests) are installed when missing: as root, or through sudo when it
# needs no password; otherwise a note says which are missing and the task goes on.
set -euo pipefail
cd "$(dirname "$0")/.."
task=${1:-sim}; shift || true
py=${PYTHON:-python3}
version() { "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null; }
want=$(version "$py") || { echo "dev.sh: $py does not run (PYTHON=$py)" >&2; exit 1; }
if [ -n "${VENV:-}" ]; then venv=$VENV
elif [ -n "${PYTHON:-}" ]; then venv=.venv-$want
else venv=.venv
fi
stamp=$venv/spielleiter-installed
log=$venv/spielleiter-install.log

# as_root CMD...: run as root (directly, or sudo without a password prompt); false if neither.
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo -n "$@"
  else return 1
  fi
}

# packages WHERE...: the packages of scripts/debian-packages.txt needed there.
packages() {
  awk -v where=" $* " '!/^[[:space:]]*(#|$)/ { sub(/#.*/, "")
    for (i = 2; i <= NF; i++) if (index(where, " " $i " ")) { print $1; break } }' \
    scripts/debian-packages.txt
}

# debian WHAT-IF-NOT PACKAGE...: install the missing ones with apt-get, or say why not.
debian() {
  local otherwise=$1 p missing=()
  shift
  command -v dpkg-query >/dev/null && command -v apt-get >/dev/null || return 0  # not Debian
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  if ! as_root true; then
    echo "dev.sh: not installing ${missing[*]} (needs root or sudo without a password): $otherwise" >&2
    return 0
  fi
  echo "dev.sh: installing ${missing[*]} (Debian)" >&2
  if ! { as_root apt-get update -qq &&
         as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
           "${missing[@]}"; } >"$venv/spielleiter-apt.log" 2>&1; then
    tail -n 5 "$venv/spielleiter-apt.log" >&2
    echo "dev.sh: apt-get failed (log: $PWD/$venv/spielleiter-apt.log): $otherwise" >&2
  fi
}

if ! [ -x "$venv/bin/python" ] || [ "$(version "$venv/bin/python")" != "$want" ]; then
  rm -rf "$venv"
  if ! "$py" -m venv "$venv" >/dev/null 2>&1; then
    echo "dev.sh: installing python3-venv (Debian)" >&2
    rm -rf "$venv"
    as_root apt-get update -qq && as_root apt-get install -y -qq python3-venv >/dev/null
    "$py" -m venv "$venv"
  fi
fi

# ensure EXTRA: install the project (with the extra, if any) unless the stamp says it is current.
# The stamp is "<sha256 of pyproject.toml and setup.py> <extra>"; the test extra includes the
# plain install.
ensure() {
  local extra=$1 hash have
  hash=$(cat pyproject.toml setup.py | sha256sum | cut -d' ' -f1)
  have=$(cat "$stamp" 2>/dev/null || true)
  if [ -x "$venv/bin/spielleiter" ] && { [ "$have" = "$hash $extra" ] || [ "$have" = "$hash test" ]; }; then
    compiled
    return 0
  fi
  echo "dev.sh: installing spielleiter${extra:+ with [$extra]} into $venv (once; pyproject.toml or the venv changed)" >&2
  rm -f "$stamp"
  if ! { "$venv/bin/python" -m pip install --upgrade pip \
         && "$venv/bin/python" -m pip install -e ".${extra:+[$extra]}"; } >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "dev.sh: the install failed; the whole log is $PWD/$log" >&2
    exit 1
  fi
  echo "$hash $extra" >"$stamp"
  compiled
}

# The package's byte code, written as pip does for a regular install (an editable one leaves it
# to the first import, and not at all under PYTHONDONTWRITEBYTECODE): every start, each test's
# subprocess and each test worker then loads it instead of compiling the sources again.
# Only what changed is compiled (about 0.3 s when nothing did).
compiled() {
  "$venv/bin/python" -m compileall -q -j 0 device drivers games >/dev/null 2>&1 || true
}

case "$task" in
  test)
    # shellcheck disable=SC2046  # one package a word
    debian "the tests that need them skip; the screens use the fallback font" $(packages dev test)
    ensure test
    # One worker per core (2 on the CI machine); "-n 0" after it runs in one process. worksteal:
    # a worker that runs out takes half of the other's queue, so neither waits for the other's
    # last tests. pytest writes each test module's rewritten byte code as it does by default,
    # also under PYTHONDONTWRITEBYTECODE (as compiled does for the package): otherwise every
    # worker rewrites and compiles all the test modules again on every run (about 3 s a worker).
    exec env -u PYTHONDONTWRITEBYTECODE "$venv/bin/python" -m pytest -n auto --dist worksteal "$@" ;;
  sim|demo|replay|*)
    # shellcheck disable=SC2046
    debian "the screens use the fallback font" $(packages dev)
    ensure ""
    exec "$venv/bin/spielleiter" "$task" "$@" ;;
esac
