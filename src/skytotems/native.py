"""Which modules run compiled, and the switch back to the pure-Python path.

The engine's and the bots' hot path (`COMPILED_MODULES`) may be compiled with mypyc when
the package is installed (`setup.py`; docs/bots.md, "Compiled path"). The Python
sources stay the reference: both paths play the same games from the same seeds (a
test holds them to it), and the pure path is what runs when

- the install had no working C compiler (the build falls back to it),
- `SKYTOTEMS_PURE=1` is set (for comparing the paths, or to rule the compiled one out),
- the compiled modules are stale: a `.py` changed since the build (an editable install
  being worked on), or the compiled modules are not those of the list. The build
  writes the SHA-256 of every compiled module's source into `native_build.json`; any
  mismatch loads every compiled module from its `.py` instead (all of them: compiled
  modules call each other natively, so they are used together or not at all) and
  warns once.

Importing this module decides, once per process, before any compiled module is
imported: `skytotems/__init__.py` imports it first. It is never compiled itself, and
needs nothing but the standard library: setup.py reads this file alone, for the list,
the switch and the digests.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import Final

# The modules mypyc compiles (setup.py reads this tuple): the rules engine's state,
# steps and site searches, and the bots' estimate and search. Left out: modules whose
# classes others subclass, monkeypatch or pickle field by field (actions, events,
# options, cards, missions, the generator), and those off the hot path (scoring,
# determinization). A frozen dataclass of a compiled module pickles by its constructor
# (`__reduce__`): compiled, it refuses the field stores of pickle's default.
COMPILED_MODULES: Final = (
    "skytotems.rules.pieces",
    "skytotems.rules.grid",
    "skytotems.rules.altar",
    "skytotems.rules.totems",
    "skytotems.rules.steps",
    "skytotems.rules.decisions",
    "skytotems.rules.mission_types",
    "skytotems.rules.engine",
    "skytotems.bots.evaluation",
    "skytotems.bots.greedy",
    "skytotems.bots.placement_model",
    "skytotems.bots.mcts",
)
MANIFEST: Final = "native_build.json"  # written by the build beside this module
PURE_VARIABLE: Final = "SKYTOTEMS_PURE"

_PACKAGE_ROOT = Path(__file__).resolve().parent.parent  # the folder holding `skytotems`


def source_path(module: str, root: Path = _PACKAGE_ROOT) -> Path:
    """The `.py` file of a module of the package (a subpackage's `__init__.py`)."""
    base = root.joinpath(*module.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def compiled_modules_found(root: Path = _PACKAGE_ROOT) -> set[str]:
    """The package's modules that have a compiled extension (each file named by the
    longest extension suffix it ends with: `engine.cpython-311-x86_64-linux-gnu.so`)."""
    suffixes = sorted(importlib.machinery.EXTENSION_SUFFIXES, key=len, reverse=True)
    found: set[str] = set()
    for folder, subfolders, files in os.walk(root / "skytotems"):
        # only Python packages hold modules (not the web page's static files)
        subfolders[:] = [d for d in subfolders if os.path.isfile(f"{folder}/{d}/__init__.py")]
        package = Path(folder).relative_to(root).parts
        for name in files:
            suffix = next((s for s in suffixes if name.endswith(s)), None)
            if suffix is not None:
                found.add(".".join((*package, name.removesuffix(suffix))))
    return found


def source_digest(path: Path) -> str:
    """The SHA-256 of a source file, as the build manifest records it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def pure_requested() -> bool:
    """`SKYTOTEMS_PURE` set to 1, true, yes or on (0, false, no, off or unset: not)."""
    return os.environ.get(PURE_VARIABLE, "").strip().lower() in ("1", "true", "yes", "on")


def _manifest(root: Path) -> dict[str, object] | None:
    try:
        content = json.loads((root / "skytotems" / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return content if isinstance(content, dict) else None


def check(root: Path = _PACKAGE_ROOT) -> tuple[bool, str]:
    """(whether the compiled modules can be used, why or why not), without importing
    any of them."""
    if pure_requested():
        return False, f"{PURE_VARIABLE} is set"
    found = compiled_modules_found(root)
    manifest = _manifest(root)
    if not found:
        why = manifest.get("pure") if manifest else None  # an editable pure build says why
        return (
            False,
            f"not compiled ({why or 'installed without a C compiler, or from the sources'})",
        )
    if found != set(COMPILED_MODULES):
        odd = sorted(found ^ set(COMPILED_MODULES))
        return False, f"stale: the compiled modules differ from the list ({', '.join(odd)})"
    recorded = manifest.get("modules") if manifest else None
    if manifest is None or not isinstance(recorded, dict):
        return False, f"stale: compiled modules without a readable {MANIFEST}"
    imported = manifest.get("imports")
    # the compiled sources, and those they import (compiled code may hold their constants)
    for module, digest in {**(imported if isinstance(imported, dict) else {}), **recorded}.items():
        source = source_path(str(module), root)
        if source.is_file() and digest != source_digest(source):
            return False, f"stale: {source.name} of {module} changed since the build"
    for module in COMPILED_MODULES:
        if module not in recorded:
            return False, f"stale: {MANIFEST} does not record {module}"
    return True, "compiled with mypyc"


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the given modules' `.py` files ahead of their compiled extensions."""

    def __init__(self, root: Path, modules: set[str]) -> None:
        self.root = root
        self.modules = modules

    def find_spec(
        self,
        fullname: str,
        path: object = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules:
            return None
        source = source_path(fullname, self.root)
        if not source.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, source)


_STATUS: tuple[bool, str] | None = None


def activate() -> None:
    """Decide once per process which path runs; on the pure one, make any compiled
    module load from its source (warning when they were left out as stale)."""
    global _STATUS
    if _STATUS is not None:
        return
    _STATUS = check()
    compiled, reason = _STATUS
    if compiled:
        return
    found = compiled_modules_found()
    if found:
        sys.meta_path.insert(0, _SourceFinder(_PACKAGE_ROOT, found))
        if reason.startswith("stale"):
            warnings.warn(
                f"skytotems runs its pure-Python path: the compiled modules are {reason}."
                " Reinstall the package to rebuild them (in its repository: bash"
                " scripts/test.sh or scripts/serve.sh do it, or .venv/bin/pip install -e .)",
                RuntimeWarning,
                stacklevel=2,
            )


def status() -> tuple[bool, str]:
    """(whether this process runs the compiled modules, why)."""
    activate()
    assert _STATUS is not None
    return _STATUS


def is_compiled() -> bool:
    """Whether this process runs the compiled modules (bench reports it)."""
    return status()[0]


def is_stale() -> bool:
    """Whether compiled modules were left out as stale (scripts/venv.sh rebuilds them)."""
    return status()[1].startswith("stale")


def describe() -> str:
    """The path in a few words, for `skytotems --version`."""
    compiled, why = status()
    return why if compiled else f"pure Python: {why}"


if __name__ == "skytotems.native":  # the package's import, not setup.py's reading
    activate()  # on import: `skytotems/__init__.py` imports this module first
