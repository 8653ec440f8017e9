#!/usr/bin/env bash
# Start the game server (browser game at http://127.0.0.1:8000): `bash scripts/serve.sh [options]`.
# Creates .venv with Python 3.11+ if missing and installs the project into it; when
# pyproject.toml has not changed since the last install, it starts at once.
set -euo pipefail
cd "$(dirname "$0")/.."

python="${PYTHON:-python3}"
stamp=.venv/.skytotems-install  # line 1: checksum of pyproject.toml, line 2: what was installed

if [ ! -x .venv/bin/python ]; then
    if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        echo "skytotems needs Python 3.11 or newer; set PYTHON=/path/to/python3.11" >&2
        exit 1
    fi
    "$python" -m venv .venv
fi

checksum="$(cksum < pyproject.toml)"
if [ "$(head -n 1 "$stamp" 2>/dev/null)" != "$checksum" ]; then
    .venv/bin/pip install -q -e .
    printf '%s\n%s\n' "$checksum" "." > "$stamp"
fi

echo "Sky Totems: open the address uvicorn prints below in your browser (default http://127.0.0.1:8000/); Ctrl+C stops the server." >&2
exec .venv/bin/skytotems serve "$@"
