#!/usr/bin/env bash
# Run every test, the linter and the type checker: `bash scripts/test.sh [pytest options]`.
# Creates .venv with Python 3.11+ if missing and installs the project with every extra of
# pyproject.toml (dev, and any other such as env) except the heavy ones named in
# OPT_IN_EXTRAS (sb3: torch), which are added when listed in SKYTOTEMS_EXTRAS (.ci/run
# does, after installing a CPU torch); when pyproject.toml has not changed since that
# install, it skips straight to the checks. Tests of extras not installed are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/venv.sh
ensure_venv

extras="$(SKYTOTEMS_EXTRAS="${SKYTOTEMS_EXTRAS:-}" .venv/bin/python - <<'PY'
import os
import tomllib

OPT_IN_EXTRAS = {"sb3"}
with open("pyproject.toml", "rb") as f:
    project = tomllib.load(f)["project"]
wanted = set(filter(None, os.environ["SKYTOTEMS_EXTRAS"].split(",")))
names = set(project.get("optional-dependencies", {}))
print(",".join(sorted((names - OPT_IN_EXTRAS) | (names & wanted))))
PY
)"
target="."
[ -z "$extras" ] || target=".[${extras}]"
ensure_installed "$target"

.venv/bin/python -m pytest -n auto "$@"
.venv/bin/ruff check .
.venv/bin/mypy
