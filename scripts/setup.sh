#!/usr/bin/env bash
# Idempotent set-up on a fresh Debian machine (Python 3.11, root): a virtual environment in .venv
# with the project and its pinned dependencies. Safe to run again; it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.installed-$(cat pyproject.toml requirements.lock | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install -q --upgrade "pip==25.3"
  .venv/bin/python -m pip install -q -c requirements.lock -e ".[dev]"
  rm -f .venv/.installed-*
  touch "$stamp"
fi
