"""The server's modules depend on each other in one direction only (no import cycle, not
even through lazy or type-checking imports), the engine depends on nothing outside it,
and running the server never loads the command line."""

from __future__ import annotations

import ast
import subprocess
import sys
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import skytotems

PACKAGE = Path(skytotems.__file__).parent


def imports_of(path: Path, module: str) -> set[str]:
    """Every skytotems module `path` imports, wherever the import statement stands."""
    package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            if node.module is not None:  # `from . import store` imports store, not `.`
                found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    return {name for name in found if name.split(".")[0] == "skytotems"}


def graph(subpackage: str) -> dict[str, set[str]]:
    """Modules of skytotems.`subpackage` and the modules of it each one imports."""
    root = PACKAGE / subpackage
    modules = {
        f"skytotems.{subpackage}." + ".".join(p.relative_to(root).with_suffix("").parts): p
        for p in root.rglob("*.py")
    }
    modules = {name.removesuffix(".__init__"): p for name, p in modules.items()}
    return {
        name: {m for m in imports_of(path, name) if m in modules and m != name}
        for name, path in modules.items()
    }


def test_server_modules_import_each_other_without_a_cycle():
    edges = graph("server")
    assert "skytotems.server.service" in edges and "skytotems.server.hub" in edges
    try:
        list(TopologicalSorter(edges).static_order())
    except CycleError as exc:  # pragma: no cover - the failure message
        raise AssertionError(f"import cycle: {exc.args[1]}") from None


def test_the_service_publishes_through_the_bus_and_never_imports_the_hub():
    edges = graph("server")
    for module in ("service", "table", "archive", "errors", "bus", "autoplay", "store", "catchup"):
        assert "skytotems.server.hub" not in edges[f"skytotems.server.{module}"], module
        assert "skytotems.server.app" not in edges[f"skytotems.server.{module}"], module


def test_the_engine_imports_nothing_of_the_server_bots_or_command_line():
    for path in (PACKAGE / "rules").rglob("*.py"):
        outside = {
            m for m in imports_of(path, "skytotems.rules.x") if not m.startswith("skytotems.rules")
        }
        assert outside <= {"skytotems"}, (path.name, outside)


def test_running_the_server_does_not_load_the_command_line():
    code = (
        "import runpy, sys\n"
        "sys.argv = ['skytotems.server', '--help']\n"
        "try:\n"
        "    runpy.run_module('skytotems.server', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('skytotems.cli')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "--db" in out and out.strip().endswith("[]")


def test_one_process_without_redis_never_loads_redis(tmp_path: Path):
    """The embedded default (no --redis) runs exactly as before: starting and stopping
    the server does not even import the Redis bus or its client library."""
    code = (
        "import asyncio, sys\n"
        "from skytotems.server import Settings\n"
        "from skytotems.server.app import running\n"
        "async def main():\n"
        f"    async with running(Settings(db_url='sqlite:///{tmp_path}/s.db', static_dir=None)):\n"
        "        pass\n"
        "asyncio.run(main())\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'redis' or 'redisbus' in m))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
