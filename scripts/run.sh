#!/usr/bin/env bash
# The main job. Until the web app lands, plays a whole match between bots in the terminal.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/guandan simulate --preset competition --agents random,random,random,random --match --seed 1 --verbose "$@"
