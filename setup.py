"""The build of skytotems: pure Python, with the engine's and the bots' hot path compiled
by mypyc when this machine can (docs/bots.md, "Compiled path").

Everything else is declared in pyproject.toml. The compiled modules are those listed in
`skytotems.native.COMPILED_MODULES`. The build stays pure Python, and the install
succeeds, when `SKYTOTEMS_PURE=1` is set, when no C compiler (with Python's headers)
works, when mypyc is missing, or when the compilation fails; it says which on stderr.
After a compiled build it writes the SHA-256 of each compiled source into
`skytotems/native_build.json`, by which `skytotems.native` tells a stale compiled
module (its `.py` edited since, in an editable install) and runs the sources instead.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, cast

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
SOURCES = ROOT / "src"
NATIVE = SOURCES / "skytotems" / "native.py"
MANIFEST = "native_build.json"


def say(message: str) -> None:
    print(f"skytotems build: {message}", file=sys.stderr)


def compiled_modules() -> tuple[str, ...]:
    """`COMPILED_MODULES` read from skytotems/native.py without importing the package
    (its dependencies need not be in the build environment)."""
    tree = ast.parse(NATIVE.read_text(encoding="utf-8"))
    for node in tree.body:
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == "COMPILED_MODULES"
            and node.value is not None
        ):
            value = ast.literal_eval(node.value)
            assert isinstance(value, tuple)
            return tuple(str(m) for m in value)
    raise RuntimeError("skytotems/native.py has no COMPILED_MODULES")


def source_of(module: str) -> Path:
    return SOURCES.joinpath(*module.split(".")).with_suffix(".py")


def c_compiler_works() -> bool:
    """Whether this machine's C compiler builds an extension against Python's headers
    (checked before mypyc spends its time generating C)."""
    try:
        from setuptools._distutils.ccompiler import new_compiler
        from setuptools._distutils.sysconfig import customize_compiler, get_python_inc

        compiler: Any = new_compiler()
        customize_compiler(compiler)
        with tempfile.TemporaryDirectory() as folder:
            probe = Path(folder) / "probe.c"
            probe.write_text("#include <Python.h>\nint probe(void) { return 0; }\n")
            compiler.compile([str(probe)], output_dir=folder, include_dirs=[get_python_inc()])
        return True
    except Exception as error:  # any failure means: no usable compiler here
        say(f"no working C compiler ({type(error).__name__}: {error})")
        return False


def extensions(modules: tuple[str, ...]) -> list[Extension]:
    """The mypyc extensions of `modules`, or none (the pure-Python build)."""
    if os.environ.get("SKYTOTEMS_PURE", "") not in ("", "0"):
        say("SKYTOTEMS_PURE is set: pure Python")
        return []
    if not c_compiler_works():
        say("building pure Python")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        say("mypyc (mypy) is not installed: pure Python")
        return []
    paths = [str(source_of(m).relative_to(ROOT)) for m in modules]
    # the sources as mypyc reads them, for the manifest
    DIGESTS.update({m: hashlib.sha256(source_of(m).read_bytes()).hexdigest() for m in modules})
    try:
        built = mypycify(paths, group_name="skytotems", opt_level="3")
    except (Exception, SystemExit) as error:  # mypy reports type errors by SystemExit
        say(f"mypyc could not compile ({type(error).__name__}: {error}): pure Python")
        return []
    return cast(list[Extension], built)  # setuptools' class: setuptools is imported


class OptionalBuildExt(build_ext):
    """Builds the compiled modules if it can, and otherwise leaves the install pure
    Python (removing any half of a failed build); writes the manifest on success."""

    def run(self) -> None:
        if self.inplace:  # an editable install: no module of an earlier build may linger
            for leftover in [*SOURCES.glob("skytotems*.so"), *SOURCES.rglob("skytotems/**/*.so")]:
                leftover.unlink()
            (SOURCES / "skytotems" / MANIFEST).unlink(missing_ok=True)
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as error:
            say(f"compiling failed ({type(error).__name__}: {error}): pure Python")
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            return
        target = SOURCES if self.inplace else Path(self.build_lib)
        (target / "skytotems" / MANIFEST).write_text(
            json.dumps({"modules": DIGESTS}, indent=1, sort_keys=True) + "\n", encoding="utf-8"
        )
        say(f"compiled {len(MODULES)} modules with mypyc")

    def get_outputs(self) -> list[str]:
        outputs: list[str] = super().get_outputs()
        if self.extensions and not self.inplace:
            outputs.append(str(Path(self.build_lib) / "skytotems" / MANIFEST))
        return outputs


MODULES = compiled_modules()
DIGESTS: dict[str, str] = {}  # module -> SHA-256 of the source compiled

setup(ext_modules=extensions(MODULES), cmdclass={"build_ext": OptionalBuildExt})
