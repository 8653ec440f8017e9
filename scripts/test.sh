#!/usr/bin/env bash
# Run every test, the linter and the type checker: `bash scripts/test.sh [pytest options]`.
# Creates .venv with Python 3.11+ if missing and installs the project with every extra of
# pyproject.toml (dev, and any other such as env); when pyproject.toml has not changed
# since that install, it skips straight to the checks.
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

extras="$(.venv/bin/python - <<'PY'
import tomllib

with open("pyproject.toml", "rb") as f:
    project = tomllib.load(f)["project"]
print(",".join(sorted(project.get("optional-dependencies", {}))))
PY
)"
target="."
[ -z "$extras" ] || target=".[${extras}]"
checksum="$(cksum < pyproject.toml)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$(printf '%s\n%s' "$checksum" "$target")" ]; then
    .venv/bin/pip install -q -e "$target"
    printf '%s\n%s\n' "$checksum" "$target" > "$stamp"
fi

.venv/bin/python -m pytest -n auto "$@"
.venv/bin/ruff check .
.venv/bin/mypy
