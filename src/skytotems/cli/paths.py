"""Checks of output paths, made before a long run rather than after it."""

from __future__ import annotations

import os
from pathlib import Path


def unwritable(out: Path) -> str | None:
    """Why `out` cannot be written (a missing or read-only folder, a file that is not
    writable), or None when it can."""
    folder = out.parent
    if not folder.is_dir():
        return f"cannot write {out.name}: no folder {folder}"
    if not os.access(out if out.exists() else folder, os.W_OK):
        return f"cannot write {out.name}: permission denied"
    return None
