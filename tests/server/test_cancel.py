"""A seated player may cancel a table still waiting for players: it closes as an expiry
would (leaves the lobby, refuses joins and moves, stays closed across restarts). Any
other cancel is refused with a clear error and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from wsclient import Client, ThreadServer, create_table

HUMAN = {"type": "human"}
OPEN = {"type": "open"}
BOT = {"type": "bot", "level": "random"}


def cancel(server: ThreadServer, table_id: str, token: str | None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    return httpx.post(f"{server.base}/api/tables/{table_id}/cancel", headers=headers)


def summary(server: ThreadServer, table_id: str) -> dict[str, Any]:
    found: dict[str, Any] = httpx.get(f"{server.base}/api/tables/{table_id}").json()
    return found


def lobby_ids(server: ThreadServer) -> set[str]:
    tables = httpx.get(f"{server.base}/api/tables").json()["tables"]
    return {t["id"] for t in tables}


def test_the_host_cancels_a_waiting_table_and_it_refuses_joins_and_moves(server: ThreadServer):
    table = create_table(server.base, [HUMAN, OPEN])
    table_id = table["table"]["id"]
    host = Client(server.base, table_id, table["token_of"][0])

    answer = cancel(server, table_id, table["token_of"][0])

    assert answer.status_code == 200 and answer.json()["status"] == "expired"
    told = host.recv_type("state")
    assert told["status"] == "expired"
    assert told["events"][-1] == {"type": "table_cancelled", "player": 0}
    assert table_id not in lobby_ids(server)
    join = httpx.post(f"{server.base}/api/tables/{table_id}/join", json={"name": "Bo"})
    assert join.status_code == 410 and join.json()["code"] == "table_expired"
    refused = host.act(host.view["legal_actions"][0])
    assert refused["type"] == "error" and refused["code"] == "table_expired"
    again = cancel(server, table_id, table["token_of"][0])
    assert again.status_code == 410 and again.json()["code"] == "table_expired"
    host.close()


def test_a_player_who_joined_may_cancel_too(server: ThreadServer):
    table = create_table(server.base, [HUMAN, OPEN, OPEN], options={"players": 3})
    table_id = table["table"]["id"]
    joined = httpx.post(f"{server.base}/api/tables/{table_id}/join", json={"name": "Bo"}).json()

    answer = cancel(server, table_id, joined["token"])

    assert answer.status_code == 200 and summary(server, table_id)["status"] == "expired"


def test_forged_or_missing_tokens_change_nothing(server: ThreadServer):
    table = create_table(server.base, [HUMAN, OPEN])
    table_id = table["table"]["id"]
    other = create_table(server.base, [HUMAN, OPEN])

    forged = cancel(server, table_id, "not-a-seat-token")
    wrong_table = cancel(server, table_id, other["token_of"][0])
    missing = cancel(server, table_id, None)
    bad_scheme = httpx.post(
        f"{server.base}/api/tables/{table_id}/cancel",
        headers={"Authorization": f"Basic {table['token_of'][0]}"},
    )

    assert (forged.status_code, forged.json()["code"]) == (403, "bad_token")
    assert (wrong_table.status_code, wrong_table.json()["code"]) == (403, "bad_token")
    assert (missing.status_code, missing.json()["code"]) == (401, "bad_token")
    assert (bad_scheme.status_code, bad_scheme.json()["code"]) == (401, "bad_token")
    assert summary(server, table_id)["status"] == "waiting"
    assert table_id in lobby_ids(server)


def test_a_started_game_cannot_be_cancelled(server: ThreadServer):
    table = create_table(server.base, [HUMAN, BOT])
    table_id = table["table"]["id"]

    answer = cancel(server, table_id, table["token_of"][0])

    assert (answer.status_code, answer.json()["code"]) == (409, "started")
    assert summary(server, table_id)["status"] == "playing"


def test_an_unknown_table_is_not_found(server: ThreadServer):
    answer = cancel(server, "no-such-table", "whatever")
    assert (answer.status_code, answer.json()["code"]) == (404, "not_found")


def test_a_cancelled_table_stays_closed_after_a_restart(
    start_server: Callable[..., ThreadServer],
):
    first = start_server()
    table = create_table(first.base, [HUMAN, OPEN])
    table_id = table["table"]["id"]
    assert cancel(first, table_id, table["token_of"][0]).status_code == 200
    first.stop()

    second = start_server()
    assert summary(second, table_id)["status"] == "expired"
    assert table_id not in lobby_ids(second)
    join = httpx.post(f"{second.base}/api/tables/{table_id}/join", json={"name": "Bo"})
    assert join.status_code == 410
