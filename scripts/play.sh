#!/usr/bin/env bash
# Play Sky Totems in the terminal: `bash scripts/play.sh [skytotems play options]`.
# Creates .venv with Python 3.11+ if missing and installs the project into it; when
# pyproject.toml has not changed since the last install, it goes straight to the game.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/venv.sh
ensure_installed .

exec .venv/bin/skytotems play "$@"
