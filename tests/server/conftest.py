"""Fixtures: a real server (uvicorn on 127.0.0.1, a port of its own) on a real database:
every server test runs on SQLite (a file in tmp_path) and on PostgreSQL (a schema of its
own, see tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from wsclient import REPO, Start, ThreadServer

from skytotems.server import Settings
from skytotems.server.process import UNLIMITED_RATES, ServerProcess

# tests play many tables from one address; the limits are tested on their own
UNLIMITED = {
    "http_rate": "1000000/minute",
    "create_rate": "1000000/minute",
    "ws_handshake_rate": "1000000/minute",
    "ws_sockets_per_address": 1000000,
    "ws_message_rate": "1000000/second",
}


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return str(request.getfixturevalue("postgres_url"))
    return f"sqlite:///{tmp_path / 'skytotems.db'}"


@pytest.fixture
def start_server(db_url: str) -> Iterator[Callable[..., ThreadServer]]:
    """Start the app in a uvicorn thread; every server started is stopped at the end."""
    servers: list[ThreadServer] = []

    def start(**overrides: Any) -> ThreadServer:
        settings = Settings(**{"db_url": db_url, "static_dir": None, **UNLIMITED, **overrides})
        server = ThreadServer(settings).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def server(start_server: Callable[..., ThreadServer]) -> ThreadServer:
    return start_server()


FAST_SURVEY = {"SKYTOTEMS_LEASE_POLL_S": "0.2"}  # leases adopted within a fifth of a second


@pytest.fixture
def start_process(postgres_url: str, tmp_path: Path) -> Iterator[Start]:
    """Start a real server process on this test's PostgreSQL schema; all are stopped
    (killed if need be) at the end."""
    started: list[ServerProcess] = []

    def start(env: dict[str, str] | None = None) -> ServerProcess:
        log = tmp_path / f"server-{len(started)}.log"
        process = ServerProcess(
            postgres_url, {**UNLIMITED_RATES, **FAST_SURVEY, **(env or {})}, log, REPO
        )
        started.append(process)  # (stopped at the end even if it is still starting)
        return process.start()

    yield start
    for process in started:
        if process.proc is not None and process.proc.poll() is None:
            process.kill9()
