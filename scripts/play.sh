#!/usr/bin/env bash
# Play Sky Totems in the terminal against random opponents (installs into .venv first).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/pip install -q -e . >/dev/null
exec .venv/bin/skytotems play "$@"
