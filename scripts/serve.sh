#!/usr/bin/env bash
# Start the game server (browser game at http://127.0.0.1:8000): `bash scripts/serve.sh [options]`.
# Creates .venv with Python 3.11+ if missing and installs the project into it; when
# pyproject.toml has not changed since the last install, it starts at once.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/venv.sh
ensure_installed .

echo "Sky Totems: open the address uvicorn prints below in your browser (default http://127.0.0.1:8000/); Ctrl+C stops the server." >&2
exec .venv/bin/skytotems serve "$@"
