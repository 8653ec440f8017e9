#!/usr/bin/env bash
# Run every test, the linter and the type checker in a local virtualenv (created if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/pip install -q --upgrade pip >/dev/null 2>&1 || true
.venv/bin/pip install -q -e '.[dev]'
.venv/bin/python -m pytest -n auto "$@"
.venv/bin/ruff check .
.venv/bin/mypy
