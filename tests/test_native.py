"""The compiled path (mypyc, setup.py) and the pure-Python one (skytotems.native).

Both paths must play the same games from the same seeds; a stale compiled module (its
`.py` edited since the build) must never run; the install must fall back to pure Python
where no C compiler works. Tests that need a compiled build skip without one, except
under `SKYTOTEMS_REQUIRE_COMPILED=1` (`.ci/run`), where the skip is a failure: CI builds
the compiled modules and must test them.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from skytotems import Game, GameOptions, native
from skytotems.bots.evaluation import WEIGHTS, Weights
from skytotems.bots.mcts import LEVELS
from skytotems.rules.altar import PlacedTotem

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_ROOT = Path(native.__file__).resolve().parent.parent


def require_compiled() -> None:
    """Skip (fail under SKYTOTEMS_REQUIRE_COMPILED=1) unless this install is compiled."""
    compiled, why = native.status()
    if compiled:
        return
    reason = f"the compiled path is not in use here ({why})"
    if os.environ.get("SKYTOTEMS_REQUIRE_COMPILED") == "1":
        pytest.fail(f"{reason}; SKYTOTEMS_REQUIRE_COMPILED=1: it must be")
    pytest.skip(reason)


def run_python(code_or_script: list[str], env: dict[str, str] | None = None) -> str:
    """A fresh interpreter's stdout (its failure shows stderr)."""
    done = subprocess.run(
        [sys.executable, *code_or_script],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **(env or {})},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_the_compiled_and_the_pure_path_play_the_same_games() -> None:
    """Issue 17: the same seeds give the same games, action for action and score for
    score, with every bot level (a first compiled build parted from the pure one at a
    tuple compared by identity, which compiled code unboxes)."""
    require_compiled()
    script = [str(ROOT / "tests" / "native_games.py")]
    compiled = run_python(script, {"SKYTOTEMS_PURE": "0"}).splitlines()
    pure = run_python(script, {"SKYTOTEMS_PURE": "1"}).splitlines()
    assert compiled[-1] == "path: compiled with mypyc"
    assert pure[-1] == "path: pure Python: SKYTOTEMS_PURE is set"
    assert len(compiled) == 9
    assert compiled[:-1] == pure[:-1]


def where_modules_load(root: Path, env: dict[str, str] | None = None) -> tuple[str, str, str]:
    """(the path's description, the engine's file, stderr) of an interpreter that
    imports the package from `root`."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import skytotems.native as n, skytotems.rules.engine as e;"
            " print(n.describe()); print(e.__file__)",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(root), "SKYTOTEMS_PURE": "0", **(env or {})},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    described, engine_file = done.stdout.splitlines()
    return described, engine_file, done.stderr


@pytest.fixture
def installed_copy(tmp_path: Path) -> Path:
    """A copy of this compiled install's package (sources, extensions, manifest)."""
    require_compiled()
    shutil.copytree(
        PACKAGE_ROOT / "skytotems",
        tmp_path / "skytotems",
        ignore=shutil.ignore_patterns("__pycache__", "static"),
    )
    for shared in PACKAGE_ROOT.glob("skytotems__mypyc*"):  # mypyc's shared library
        shutil.copy2(shared, tmp_path)
    return tmp_path


def test_an_unchanged_install_runs_its_compiled_modules(installed_copy: Path) -> None:
    described, engine_file, _ = where_modules_load(installed_copy)
    assert described == "compiled with mypyc"
    assert engine_file.startswith(str(installed_copy)) and not engine_file.endswith(".py")


def test_a_stale_compiled_module_is_never_run(installed_copy: Path) -> None:
    """An editable install whose `.py` changed since the build: every compiled module
    loads from its source (they call each other natively: all or none), with a warning."""
    source = installed_copy / "skytotems" / "bots" / "evaluation.py"
    source.write_text(source.read_text() + "\n# edited after the build\n")
    described, engine_file, stderr = where_modules_load(installed_copy)
    assert described == (
        "pure Python: stale: evaluation.py of skytotems.bots.evaluation changed since the build"
    )
    assert engine_file == str(installed_copy / "skytotems" / "rules" / "engine.py")
    assert "RuntimeWarning" in stderr and "pip install -e ." in stderr


def test_a_changed_module_that_compiled_code_imports_makes_it_stale(installed_copy: Path) -> None:
    """mypyc copies the `Final` constants a compiled module imports: a change to an
    interpreted module they import (a trial's finding) is a stale build too."""
    source = installed_copy / "skytotems" / "rules" / "options.py"
    source.write_text(source.read_text() + "\n# edited after the build\n")
    described, engine_file, _ = where_modules_load(installed_copy)
    assert described == (
        "pure Python: stale: options.py of skytotems.rules.options changed since the build"
    )
    assert engine_file.endswith("engine.py")


def test_compiled_modules_without_their_manifest_or_not_those_listed_are_stale(
    installed_copy: Path,
) -> None:
    manifest = installed_copy / "skytotems" / native.MANIFEST
    recorded = json.loads(manifest.read_text())
    manifest.unlink()
    described, engine_file, _ = where_modules_load(installed_copy)
    assert described == f"pure Python: stale: compiled modules without a readable {native.MANIFEST}"
    assert engine_file.endswith("engine.py")
    manifest.write_text(json.dumps(recorded))
    # a compiled module the list no longer names (left by an earlier build)
    extension = next((installed_copy / "skytotems" / "rules").glob("engine.*"))
    shutil.copy2(extension, extension.with_name(extension.name.replace("engine", "view", 1)))
    described, engine_file, _ = where_modules_load(installed_copy)
    assert described.startswith("pure Python: stale: the compiled modules differ from the list")
    assert "skytotems.rules.view" in described and engine_file.endswith("engine.py")


def test_skytotems_pure_runs_the_sources_of_a_compiled_install(installed_copy: Path) -> None:
    for on in ("1", "true", "Yes"):
        described, engine_file, stderr = where_modules_load(installed_copy, {"SKYTOTEMS_PURE": on})
        assert described == "pure Python: SKYTOTEMS_PURE is set"
        assert engine_file.endswith("engine.py") and "RuntimeWarning" not in stderr
    for off in ("0", "false", ""):  # a trial: "false" ran the pure path
        described, _, _ = where_modules_load(installed_copy, {"SKYTOTEMS_PURE": off})
        assert described == "compiled with mypyc", off


def test_sources_without_extensions_are_the_pure_path(tmp_path: Path) -> None:
    shutil.copytree(
        PACKAGE_ROOT / "skytotems",
        tmp_path / "skytotems",
        ignore=shutil.ignore_patterns("__pycache__", "static", "*.so", "*.pyd", native.MANIFEST),
    )
    described, engine_file, stderr = where_modules_load(tmp_path)
    assert described.startswith("pure Python: not compiled")
    assert engine_file.endswith("engine.py") and "RuntimeWarning" not in stderr


@pytest.mark.slow
def test_the_build_falls_back_to_pure_python_without_a_c_compiler(tmp_path: Path) -> None:
    """Issue 17: installing where no C compiler works gives the pure-Python package; in
    `src` (an editable install) it removes the compiled modules of an earlier build,
    which would otherwise still run (a trial's finding), and records why it is pure."""
    shutil.copy2(ROOT / "setup.py", tmp_path)
    shutil.copy2(ROOT / "pyproject.toml", tmp_path)
    shutil.copy2(ROOT / "README.md", tmp_path)
    shutil.copytree(
        ROOT / "src",
        tmp_path / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info", native.MANIFEST),
    )
    leftovers = [
        tmp_path / "src" / "skytotems" / "rules" / "engine.cpython-311-x86_64-linux-gnu.so",
        tmp_path / "src" / "skytotems__mypyc.cpython-311-x86_64-linux-gnu.so",
    ]
    for leftover in leftovers:
        leftover.write_bytes(b"an earlier build")
    done = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "CC": "false", "SKYTOTEMS_PURE": "0"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "no working C compiler" in done.stderr and "building pure Python" in done.stderr
    assert not list((tmp_path / "src").rglob("*.so"))
    described, engine_file, _ = where_modules_load(tmp_path / "src")
    assert described.startswith("pure Python: not compiled (no working C compiler (")
    assert engine_file.endswith("engine.py")


def test_the_compiled_frozen_classes_pickle_by_their_constructors() -> None:
    """Compiled, a frozen dataclass refuses pickle's field-by-field stores (arena
    workers receive levels and games): each pickles by its constructor, on both paths."""
    level = dataclasses.replace(LEVELS["hard"], iterations=7)
    weights = dataclasses.replace(WEIGHTS, room=0.7)
    totem = PlacedTotem(1, (0, 1, 2), 3)
    game = Game(GameOptions(players=2), seed=9)
    shared = game.decision  # a shared decision: its context is a read-only mapping
    for value in (level, weights, totem, shared, Weights()):
        again = pickle.loads(pickle.dumps(value))
        assert again == value and type(again) is type(value)
    assert hash(pickle.loads(pickle.dumps(totem))) == hash(totem)


def test_a_copy_and_a_pickle_name_every_field_of_a_game() -> None:
    """`Game.copy` and `Game._STATE` list the fields one by one (a compiled class has no
    `__dict__`): a field added to the game and missed there fails here (checked on the
    pure path, where a game has a `__dict__`)."""
    code = (
        "from skytotems import Game, GameOptions\n"
        "game = Game(GameOptions(players=3), seed=4)\n"
        "for _ in range(40):\n"
        "    game.apply(game.legal_actions(game.decision.seats[0])[0])\n"
        "game.deck_json()\n"
        "fields = set(vars(game))\n"
        "assert set(vars(game.copy())) == fields, fields ^ set(vars(game.copy()))\n"
        "assert set(Game._STATE) | set(Game._CACHES) == fields, fields ^ set(Game._STATE)\n"
        "print('ok')\n"
    )
    assert run_python(["-c", code], {"SKYTOTEMS_PURE": "1"}).strip() == "ok"
