"""A finished game's replay is computed once, not from move 0 at every step, and the
cache keeps a bounded number of games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from wsclient import ThreadServer, create_table, wait_for

from skytotems.server import archive

BOT = {"type": "bot", "level": "random"}


def _finished_bot_game(server: ThreadServer) -> str:
    table_id: str = create_table(server.base, [BOT, BOT])["table"]["id"]
    url = f"{server.base}/api/tables/{table_id}"
    wait_for(lambda: httpx.get(url).json()["status"] == "finished", timeout=60, step=0.1)
    return table_id


def test_stepping_through_a_replay_replays_the_game_once(
    start_server: Callable[..., ThreadServer], monkeypatch: pytest.MonkeyPatch
):
    server = start_server(replay_cache_size=1)
    first, second = _finished_bot_game(server), _finished_bot_game(server)
    replays: list[str] = []
    original = archive.replay_steps

    def counted(table: Any) -> list[dict[str, Any]]:
        replays.append(table.id)
        return original(table)

    monkeypatch.setattr(archive, "replay_steps", counted)
    url = f"{server.base}/api/tables/{first}/replay"
    moves = httpx.get(f"{url}/0").json()["moves"]
    steps = [httpx.get(f"{url}/{m}").json() for m in range(moves + 1)]
    assert [s["move"] for s in steps] == list(range(moves + 1))
    final = httpx.get(f"{server.base}/api/tables/{first}/view").json()["view"]
    assert steps[-1]["view"] == final
    assert httpx.get(f"{url}/{moves + 1}").status_code == 404
    assert replays == [first]
    httpx.get(f"{server.base}/api/tables/{second}/replay/1")  # evicts the first (size 1)
    httpx.get(f"{url}/1")
    assert replays == [first, second, first]
