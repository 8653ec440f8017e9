"""The build of skytotems: pure Python, with the engine's and the bots' hot path compiled
by mypyc when this machine can (docs/bots.md, "Compiled path").

Everything else is declared in pyproject.toml. The compiled modules are those listed in
`skytotems.native.COMPILED_MODULES`. The build stays pure Python, and the install
succeeds, when `SKYTOTEMS_PURE=1` is set, when no C compiler (with Python's headers)
works, when mypyc is missing, or when the compilation fails; it says which on stderr.
After a compiled build it writes the SHA-256 of each compiled source, and of each
module they import, into `skytotems/native_build.json`, by which `skytotems.native`
tells a stale compiled module (a `.py` edited since, in an editable install) and runs
the sources instead; a pure build of `src` records why it is pure there instead.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import json
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any, cast

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
SOURCES = ROOT / "src"
NATIVE_SOURCE = SOURCES / "skytotems" / "native.py"


def load_native() -> ModuleType:
    """skytotems/native.py alone, not the package (its dependencies need not be in the
    build environment; native.py needs only the standard library): the list of compiled
    modules, the manifest's name, the `SKYTOTEMS_PURE` switch, sources and digests are
    the ones the package reads at run time."""
    spec = importlib.util.spec_from_file_location("skytotems_native_at_build", NATIVE_SOURCE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


NATIVE = load_native()
MANIFEST: str = NATIVE.MANIFEST


def say(message: str) -> None:
    print(f"skytotems build: {message}", file=sys.stderr)


def source_of(module: str) -> Path:
    """A module's source file in `src` (a package's `__init__.py`)."""
    path: Path = NATIVE.source_path(module, SOURCES)
    return path


def imported_closure(modules: tuple[str, ...]) -> set[str]:
    """Every module of the package that `modules` import, directly or not: compiled code
    may hold their constants (mypyc copies a `Final` value it imports), so a change to
    any of them makes the build stale too."""
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        module = todo.pop()
        if module in seen or not source_of(module).is_file():
            continue
        seen.add(module)
        package = (
            module.split(".")[:-1]
            if source_of(module).name != "__init__.py"
            else (module.split("."))
        )
        for node in ast.walk(ast.parse(source_of(module).read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = ".".join(package[: len(package) - node.level + 1])
                    found = f"{base}.{node.module}" if node.module else base
                else:
                    found = node.module or ""
                if found.split(".")[0] != "skytotems":
                    continue
                todo.append(found)
                todo.extend(f"{found}.{alias.name}" for alias in node.names)  # submodules
            elif isinstance(node, ast.Import):
                todo.extend(a.name for a in node.names if a.name.split(".")[0] == "skytotems")
    return seen


def digests(modules: set[str]) -> dict[str, str]:
    return {m: str(NATIVE.source_digest(source_of(m))) for m in sorted(modules)}


def write_manifest(folder: Path, content: dict[str, object]) -> None:
    (folder / "skytotems" / MANIFEST).write_text(
        json.dumps(content, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )


def remove_compiled_sources() -> None:
    """The compiled modules and the manifest of an earlier editable build (in `src`)."""
    for leftover in [*SOURCES.glob("skytotems*.so"), *SOURCES.rglob("skytotems/**/*.so")]:
        leftover.unlink()
    (SOURCES / "skytotems" / MANIFEST).unlink(missing_ok=True)


def build_pure(reason: str) -> list[Extension]:
    """No extensions: says why, and leaves no compiled module of an earlier editable
    build in `src` (it would run: Python prefers an extension to its source), only a
    manifest saying why the install is pure Python (`skytotems --version` shows it)."""
    say(f"{reason}: building pure Python")
    remove_compiled_sources()
    write_manifest(SOURCES, {"pure": reason})
    return []


def c_compiler_works() -> str | None:
    """None if this machine's C compiler builds an extension against Python's headers
    (checked before mypyc spends its time generating C), else what failed."""
    try:
        from setuptools._distutils.ccompiler import new_compiler
        from setuptools._distutils.sysconfig import customize_compiler, get_python_inc

        compiler: Any = new_compiler()
        customize_compiler(compiler)
        with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):
            Path("probe.c").write_text("#include <Python.h>\nint probe(void) { return 0; }\n")
            compiler.compile(["probe.c"], include_dirs=[get_python_inc()])
        return None
    except Exception as error:  # any failure means: no usable compiler here
        return f"{type(error).__name__}: {error}"


def extensions(modules: tuple[str, ...]) -> list[Extension]:
    """The mypyc extensions of `modules`, or none (the pure-Python build)."""
    if NATIVE.pure_requested():
        return build_pure("SKYTOTEMS_PURE was set at install")
    failure = c_compiler_works()
    if failure is not None:
        return build_pure(f"no working C compiler ({failure})")
    try:
        from mypyc.build import mypycify
    except ImportError:
        return build_pure("mypyc (mypy) was not installed")
    # the sources as mypyc reads them, for the manifest
    MANIFEST_CONTENT["modules"] = digests(set(modules))
    MANIFEST_CONTENT["imports"] = digests(imported_closure(modules) - set(modules))
    paths = [str(source_of(m).relative_to(ROOT)) for m in modules]
    try:
        built = mypycify(paths, group_name="skytotems", opt_level="3")
    except (Exception, SystemExit) as error:  # mypy reports type errors by SystemExit
        return build_pure(f"mypyc could not compile ({type(error).__name__}: {error})")
    say(f"compiling {len(modules)} modules with mypyc (about a minute of one core)")
    return cast(list[Extension], built)  # setuptools' class: setuptools is imported


class OptionalBuildExt(build_ext):
    """Builds the compiled modules if it can, and otherwise leaves the install pure
    Python (removing any half of a failed build); writes the manifest on success."""

    def run(self) -> None:
        if not self.extensions:  # a pure build: `build_pure` cleaned `src` and said why
            return
        if self.inplace:  # an editable install: no module of an earlier build may linger
            remove_compiled_sources()
        try:
            super().run()
        except Exception as error:
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            reason = f"compiling failed ({type(error).__name__}: {error})"
            if self.inplace:
                build_pure(reason)
            else:
                say(f"{reason}: building pure Python")
            return
        write_manifest(SOURCES if self.inplace else Path(self.build_lib), MANIFEST_CONTENT)
        say(f"compiled {len(MODULES)} modules with mypyc")

    def get_outputs(self) -> list[str]:
        outputs: list[str] = super().get_outputs()
        if self.extensions and not self.inplace:
            outputs.append(str(Path(self.build_lib) / "skytotems" / MANIFEST))
        return outputs


MODULES: tuple[str, ...] = tuple(NATIVE.COMPILED_MODULES)
# What the manifest records of a compiled build: the SHA-256 of each compiled source
# ("modules") and of each module they import ("imports").
MANIFEST_CONTENT: dict[str, object] = {}

setup(ext_modules=extensions(MODULES), cmdclass={"build_ext": OptionalBuildExt})
