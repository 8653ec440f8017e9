# Sourced by the other scripts. `ensure_venv` creates .venv with Python 3.11+ if missing;
# `ensure_installed TARGET` does that, then installs TARGET (`.` or `.[extras]`) unless
# pyproject.toml has not changed since an install that covers TARGET (any covers `.`);
# the install compiles the hot path with mypyc where a C compiler works (setup.py), and
# is redone when a compiled module's source changed since (otherwise the pure path runs).
# The caller has already changed to the repository root and set `set -euo pipefail`.

stamp=.venv/.skytotems-install  # line 1: checksum of pyproject.toml, line 2: what was installed

ensure_venv() {
    local python="${PYTHON:-python3}"
    if [ ! -x .venv/bin/python ]; then
        if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "skytotems needs Python 3.11 or newer; set PYTHON=/path/to/python3.11" >&2
            exit 1
        fi
        "$python" -m venv .venv
    fi
}

ensure_installed() {
    local target="$1" checksum
    ensure_venv
    checksum="$(cksum < pyproject.toml)"
    if [ "$(head -n 1 "$stamp" 2>/dev/null)" = "$checksum" ] \
        && { [ "$target" = "." ] || [ "$(sed -n 2p "$stamp")" = "$target" ]; }; then
        # the compiled modules (setup.py) are rebuilt when a source changed since the
        # build: a stale one would not run (skytotems.native), the pure path would
        if ! .venv/bin/python -W ignore -c \
            'import sys, skytotems.native as n; sys.exit(3 if n.is_stale() else 0)' 2>/dev/null; then
            echo "skytotems: rebuilding the compiled modules (a source changed since the build)" >&2
            .venv/bin/pip install -q -e "$(sed -n 2p "$stamp")"
        fi
        return
    fi
    .venv/bin/pip install -q -e "$target"
    printf '%s\n%s\n' "$checksum" "$target" > "$stamp"
}
