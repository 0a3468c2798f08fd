#!/usr/bin/env bash
# Idempotent set-up on a fresh Debian machine (Python 3.11, root): the system packages the tests need
# (Debian's chromium for the browser tests — Playwright never downloads a browser here —, a CJK font and
# an emoji font (table talk's emotes) so screenshots are readable, the PostgreSQL server for the
# persistence tests, the Redis server for the tests of a site of several workers (each test starts its own), Node.js for the browser modules' unit tests) and a virtual environment in .venv with the project and its pinned dependencies.
# Safe to run again; it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# WeasyPrint (the desk's PDF prints) draws text with Pango and HarfBuzz; poppler-utils' pdftotext reads the
# PDFs back in the tests. tzdata is the time zone database the desk reads a venue's zone from (zoneinfo).
SYSTEM_PACKAGES=(chromium fonts-wqy-zenhei fonts-noto-color-emoji postgresql redis-server
                 libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 poppler-utils tzdata)
# Node.js runs the browser modules' unit tests (tests/js/) with node:test, which came in Node 18. A node
# already on PATH that is new enough, from wherever it came, is left alone; Debian's is installed only
# when there is none or it is older.
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || true)
if ! [[ "$node_major" =~ ^[0-9]+$ ]] || [ "$node_major" -lt 18 ]; then
  SYSTEM_PACKAGES+=(nodejs)
fi
missing=()
for pkg in "${SYSTEM_PACKAGES[@]}"; do
  # dpkg -s also succeeds for a removed package whose config files remain: ask for the real status
  if [ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" != "install ok installed" ]; then
    missing+=("$pkg")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing system packages (${missing[*]}); run this script as root to install them" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
# The hot paths (guandan/native.py's MODULES) are compiled with mypyc as the project installs. The build's
# tools are pinned in the lock and installed first, so the build uses them (no isolated build environment
# with unpinned tools). A failed build warns and leaves the pure-Python sources to run: never a broken install.
native_digest() {
  local modules
  modules=$(sed -n 's/^    "guandan\.\(.*\)",$/\1/p' src/guandan/native.py | tr . / | sed 's|^|src/guandan/|; s|$|.py|')
  # shellcheck disable=SC2086  # one path per word
  cat setup.py src/guandan/native.py $modules | sha256sum | cut -c1-16
}
stamp=.venv/.installed-$(cat pyproject.toml requirements.lock | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install -q --upgrade "pip==25.3"
  .venv/bin/python -m pip install -q -c requirements.lock "setuptools==80.9.0" "mypy==2.4.1"
  # mypyc type-checks the modules against their imports (Babel, FastAPI, ...), which a fresh venv has only
  # once this install is done: so this install never compiles, and the block below builds the compiled
  # modules with everything in place
  GUANDAN_PURE_PYTHON=1 .venv/bin/python -m pip install -q --no-build-isolation -c requirements.lock -e ".[dev]"
  rm -f .venv/.installed-* .venv/.native-*
  touch "$stamp"
fi
# sources of the compiled modules changed since the last build (or the last attempt): rebuild the project
# alone; the import-time check in guandan/native.py never runs a stale build in the meantime
if [ -z "${GUANDAN_PURE_PYTHON:-}" ] && [ ! -f ".venv/.native-$(native_digest)" ]; then
  # the build's own words go to a log; on a fall-back its reason is shown (pip's -q would hide it)
  .venv/bin/python -m pip install -v --no-build-isolation --no-deps -e . > .venv/native-build.log 2>&1
  grep -h "guandan build:" .venv/native-build.log | sed 's/^ *//' >&2 || true
  rm -f .venv/.native-*
  touch ".venv/.native-$(native_digest)"
fi
.venv/bin/python -c "import guandan.native as n; print('guandan:', n.status())"
