#!/usr/bin/env bash
# The main job: set up (idempotent), then serve the web app on http://127.0.0.1:8000 with SQLite under
# ./data and bots ready. Extra arguments go to `guandan serve` (e.g. --port 9000, --db postgresql+psycopg://…).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export GUANDAN_DATA_DIR="${GUANDAN_DATA_DIR:-$PWD/data}"
exec .venv/bin/guandan serve --host 127.0.0.1 --port 8000 --data "$GUANDAN_DATA_DIR" "$@"
