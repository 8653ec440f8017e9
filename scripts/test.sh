#!/usr/bin/env bash
# Run every test, the linter and the type checker: `bash scripts/test.sh [pytest options]`.
# Creates .venv with Python 3.11+ if missing and installs the project with every extra of
# pyproject.toml (dev, and any other such as env); when pyproject.toml has not changed
# since that install, it skips straight to the checks.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/venv.sh
ensure_venv

extras="$(.venv/bin/python - <<'PY'
import tomllib

with open("pyproject.toml", "rb") as f:
    project = tomllib.load(f)["project"]
print(",".join(sorted(project.get("optional-dependencies", {}))))
PY
)"
target="."
[ -z "$extras" ] || target=".[${extras}]"
ensure_installed "$target"

.venv/bin/python -m pytest -n auto "$@"
.venv/bin/ruff check .
.venv/bin/mypy
