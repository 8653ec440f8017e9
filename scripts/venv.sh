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
    local target="$1" checksum status=0
    ensure_venv
    checksum="$(cksum < pyproject.toml)"
    if [ "$(head -n 1 "$stamp" 2>/dev/null)" = "$checksum" ] \
        && { [ "$target" = "." ] || [ "$(sed -n 2p "$stamp")" = "$target" ]; }; then
        # the compiled modules (setup.py) are rebuilt when a source changed since the
        # build: a stale one would not run (skytotems.native), the pure path would
        native_status || status=$?
        if [ "$status" = 3 ]; then
            echo "skytotems: a compiled module's source changed since the build: rebuilding" >&2
            install_package "$(sed -n 2p "$stamp")"
        fi
        return
    fi
    echo "skytotems: installing into .venv (compiling the hot path with mypyc where a C compiler works: about a minute)" >&2
    install_package "$target"
    printf '%s\n%s\n' "$checksum" "$target" > "$stamp"
}

# Exit status 3 when the compiled modules are stale, 0 otherwise (1 if the package does
# not even import: that is no reason to rebuild).
native_status() {
    .venv/bin/python -W ignore -c \
        'import sys, skytotems.native as n; sys.exit(3 if n.is_stale() else 0)' 2>/dev/null
}

# pip install -e TARGET, then say which path the install runs (the build's own words go
# to pip's log, which -q hides); a rebuild that left the modules stale says how to see why.
install_package() {
    .venv/bin/pip install -q -e "$1"
    local status=0
    native_status || status=$?
    if [ "$status" = 3 ]; then
        echo "skytotems: the compiled modules are still stale; see why with .venv/bin/pip install -v -e ." >&2
    fi
    echo "skytotems: $(.venv/bin/skytotems --version 2>/dev/null || echo 'not installed')" >&2
}
