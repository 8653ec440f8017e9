"""Tables whose game never starts are closed after `waiting_expiry_s` (README, "A server
that keeps every move"): they leave the lobby and memory, refuse joins and moves, and
stay closed across restarts. Games under way are never touched."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
from wsclient import Client, ThreadServer, create_table, tables_locked, wait_for

HUMAN = {"type": "human"}
OPEN = {"type": "open"}
BOT = {"type": "bot", "level": "random"}


def status_of(server: ThreadServer, table_id: str) -> str:
    summary: dict[str, Any] = httpx.get(f"{server.base}/api/tables/{table_id}").json()
    return str(summary["status"])


def lobby_ids(server: ThreadServer) -> set[str]:
    tables = httpx.get(f"{server.base}/api/tables").json()["tables"]
    return {t["id"] for t in tables}


def test_a_table_nobody_joins_is_closed_and_refuses_joins_and_moves(
    start_server: Callable[..., ThreadServer],
):
    server = start_server(waiting_expiry_s=4.0)  # long enough to look first, on a busy machine
    waiting = create_table(server.base, [HUMAN, OPEN])
    playing = create_table(server.base, [HUMAN, BOT])
    waiting_id, playing_id = waiting["table"]["id"], playing["table"]["id"]
    host = Client(server.base, waiting_id, waiting["token_of"][0])
    assert lobby_ids(server) >= {waiting_id, playing_id}

    wait_for(lambda: status_of(server, waiting_id) == "expired", timeout=15)
    told = host.recv_type("state")
    assert told["status"] == "expired" and told["events"][-1] == {"type": "table_expired"}
    assert status_of(server, playing_id) == "playing"
    assert lobby_ids(server) == {playing_id}

    join = httpx.post(f"{server.base}/api/tables/{waiting_id}/join", json={"name": "Bo"})
    assert join.status_code == 410 and join.json()["code"] == "table_expired"
    refused = host.act(host.view["legal_actions"][0])
    assert refused["type"] == "error" and refused["code"] == "table_expired"
    host.close()


def test_expiry_is_stored_and_applied_to_tables_found_at_start(
    start_server: Callable[..., ThreadServer],
):
    first = start_server()  # the default limit is days: nothing expires here
    table = create_table(first.base, [HUMAN, OPEN])
    table_id = table["table"]["id"]
    first.stop()

    second = start_server(waiting_expiry_s=0.001)
    assert status_of(second, table_id) == "expired"  # closed as the server started
    second.stop()

    third = start_server()
    assert status_of(third, table_id) == "expired"
    assert table_id not in lobby_ids(third)
    join = httpx.post(f"{third.base}/api/tables/{table_id}/join", json={"name": "Bo"})
    assert join.status_code == 410


def test_a_table_being_closed_can_still_be_looked_up(
    start_server: Callable[..., ThreadServer], db_url: str
):
    """While the expiry's write waits for the database, the table's status already says
    expired in memory but it is still among the open tables: looking it up must not fail,
    and it answers once the expiry is committed (never an uncommitted status)."""
    # the table is made on the closing server itself, so no (possibly slow) start lies
    # between its creation and the lock: it expires 6 s after creation, under the lock
    closing = start_server(waiting_expiry_s=6.0)
    table_id = create_table(closing.base, [HUMAN, OPEN])["table"]["id"]
    got: dict[str, httpx.Response] = {}

    def look_up() -> None:
        got["summary"] = httpx.get(f"{closing.base}/api/tables/{table_id}", timeout=30)

    with tables_locked(db_url):  # the expiry's commit waits
        time.sleep(8.0)  # past the expiry: the sweep has begun to close it
        reader = threading.Thread(target=look_up)
        reader.start()
        reader.join(1.0)
        assert "summary" not in got, "a status was served before its commit"
        assert table_id in lobby_ids(closing)  # the commit has not ended yet
    reader.join(30)
    assert got["summary"].status_code == 200, got["summary"].text
    assert got["summary"].json()["status"] == "expired"
    wait_for(lambda: table_id not in lobby_ids(closing))
    assert status_of(closing, table_id) == "expired"
