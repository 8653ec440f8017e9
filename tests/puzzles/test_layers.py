"""The puzzle package stays below the server and the web: it imports the engine, and the
bots only where puzzles are mined (generate) - never the server, the web or the CLI."""

from __future__ import annotations

import ast
from pathlib import Path

import skytotems.puzzles

PACKAGE = Path(skytotems.puzzles.__file__).parent


def imported(path: Path) -> set[str]:
    """The skytotems subpackages a module of skytotems.puzzles imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.level == 2:  # from ..rules.engine import Game
                found.add(node.module.split(".")[0])
            elif node.level == 0 and node.module.startswith("skytotems."):
                found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(
                a.name.split(".")[1] for a in node.names if a.name.startswith("skytotems.")
            )
    return found


def test_puzzles_import_the_engine_and_only_generate_imports_the_bots() -> None:
    modules = {p.stem: imported(p) for p in PACKAGE.glob("*.py")}
    assert "solver" in modules and modules["solver"] == {"rules"}
    for name, uses in modules.items():
        allowed = {"rules", "bots"} if name == "generate" else {"rules"}
        assert uses <= allowed, f"skytotems.puzzles.{name} imports {sorted(uses - allowed)}"
