#!/usr/bin/env bash
# Runs every check: lint, types, the import contracts, the browser modules' unit tests, and the whole test
# suite (on both cores).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. .venv/bin/activate
ruff check src tests
mypy
lint-imports  # the layer and no-cycle contracts of [tool.importlinter] in pyproject.toml
# the browser modules' unit tests; files, not the folder: from Node 21 on `node --test DIR` fails
node --test tests/js/*.test.mjs
set +e
python -m pytest -n 2 -q "$@"
rc=$?
if [ "$rc" -eq 0 ] && [ "$#" -eq 0 ]; then
  # the suite above ran the compiled hot paths (guandan/native.py); the core's own tests run on the
  # pure-Python sources too, so the fallback a failed build leaves is checked as well
  GUANDAN_PURE_PYTHON=1 python -m pytest -n 2 -q tests/core tests/engine tests/test_vectors.py tests/test_native.py
  rc=$?
fi
set -e
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no tests: treating that as a failure" >&2
  exit 1
fi
exit "$rc"
