"""The lobby of every process reads the database (issue 14): a table created through one
process is listed by another, with the same summary, and a private one by none."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from wsclient import REPO, Client, create_table, wait_for

from skytotems.server.process import UNLIMITED_RATES, ServerProcess

HUMAN = {"type": "human"}
OPEN = {"type": "open"}
BOT = {"type": "bot", "level": "random"}


@pytest.fixture
def two_processes(postgres_url: str, tmp_path: Path) -> Iterator[tuple[ServerProcess, ...]]:
    started = []
    try:
        for i in range(2):
            process = ServerProcess(postgres_url, UNLIMITED_RATES, tmp_path / f"s{i}.log", REPO)
            started.append(process)
            process.start()
        yield tuple(started)
    finally:
        for process in started:
            if process.proc is not None and process.proc.poll() is None:
                process.kill9()


def lobby(base: str, limit: int = 50) -> list[dict[str, Any]]:
    response = httpx.get(f"{base}/api/tables?status=open&limit={limit}", timeout=10)
    assert response.status_code == 200, response.text
    tables: list[dict[str, Any]] = response.json()["tables"]
    return tables


def same_lobbies(a: ServerProcess, b: ServerProcess, want: set[str]) -> bool:
    on_a, on_b = lobby(a.base), lobby(b.base)
    return on_a == on_b and {t["id"] for t in on_a} == want


def test_a_table_made_on_one_process_is_in_the_lobby_of_the_other_private_ones_never(
    two_processes: tuple[ServerProcess, ServerProcess],
):
    a, b = two_processes
    waiting = create_table(a.base, [HUMAN, OPEN])
    private = create_table(a.base, [HUMAN, BOT], listed=False)
    game = create_table(a.base, [HUMAN, HUMAN])
    ids = [game["table"]["id"], waiting["table"]["id"]]  # newest first
    listed = lobby(b.base)
    assert [t["id"] for t in listed] == ids
    assert listed == lobby(a.base)
    assert listed[0] == game["table"] and listed[0]["to_move"] == [0, 1]
    assert listed[1] == waiting["table"] and listed[1]["status"] == "waiting"
    assert [t["id"] for t in lobby(b.base, limit=1)] == ids[:1]
    # a move through A: B's lobby shows the table's new seq, move and whose turn it is
    client = Client(a.base, game["table"]["id"], game["token_of"][0])
    assert client.act(client.view["legal_actions"][0])["type"] == "state"
    wait_for(partial(same_lobbies, a, b, set(ids)), timeout=15)
    moved = lobby(b.base)[0]
    assert (moved["seq"], moved["to_move"]) == (1, [1])
    client.close()
    # a join through B: A's lobby shows the seat taken and the game started
    joined = httpx.post(
        f"{b.base}/api/tables/{ids[1]}/join", json={"name": "Bo"}, timeout=10
    ).json()
    wait_for(partial(same_lobbies, a, b, set(ids)), timeout=15)
    started = lobby(a.base)[1]
    assert started == joined["table"] and started["status"] == "playing"
    assert started["seats"][1]["name"] == "Bo"
    assert private["table"]["id"] not in {t["id"] for t in lobby(a.base) + lobby(b.base)}
