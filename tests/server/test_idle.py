"""Playing tables whose humans stopped playing are abandoned: their human seats go to the
take-over bot, the game is played out (finished, result marked abandoned), the players
are told, and the table leaves the open ones."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from wsclient import (
    Client,
    ProcessServer,
    ThreadServer,
    clients_for,
    create_table,
    db_rows,
    wait_for,
)

HUMAN = {"type": "human"}


def _abandoned_notice(client: Client, timeout: float) -> dict[str, Any]:
    while True:
        message = client.recv_type("state", timeout=timeout)
        notices = [e for e in message["events"] if e.get("type") == "table_abandoned"]
        if notices:
            return notices[0]


def _played_out(server: ThreadServer, db_url: str, table_id: str) -> None:
    url = f"{server.base}/api/tables/{table_id}"
    wait_for(lambda: httpx.get(url).json()["status"] == "finished", timeout=60, step=0.1)
    assert httpx.get(url).json()["result"]["abandoned"] is True
    lobby = httpx.get(server.base + "/api/tables").json()["tables"]
    assert table_id not in [t["id"] for t in lobby]
    kinds = db_rows(db_url, "SELECT kind FROM seats WHERE table_id = :id", id=table_id)
    assert {k for (k,) in kinds} == {"bot"}
    ((status,),) = db_rows(db_url, "SELECT status FROM tables WHERE id = :id", id=table_id)
    assert status == "finished"


def test_a_table_without_clock_is_abandoned_after_the_idle_time(
    start_server: Callable[..., ThreadServer], db_url: str
):
    # Idle since the table's creation: the players must be watching before it is
    # abandoned, or they miss the notice (a CI run under load connected after 0.5 s,
    # the random bots then played the game out, and no notice came).
    server = start_server(idle_without_clock_s=3.0, takeover_level="random")
    table = create_table(server.base, [HUMAN, HUMAN])
    table_id = table["table"]["id"]
    with clients_for(server.base, table) as clients:
        assert clients[0].state is not None and clients[0].state["status"] == "playing"
        seats = httpx.get(f"{server.base}/api/tables/{table_id}").json()["seats"]
        assert {s["kind"] for s in seats} == {"human"}, "abandoned before the players watched"
        notice = _abandoned_notice(clients[0], timeout=20)
        assert notice["players"] == [0, 1]
    _played_out(server, db_url, table_id)


def test_a_real_time_table_whose_mover_ran_out_and_whose_other_human_left_ends(
    start_server: Callable[..., ThreadServer], db_url: str
):
    """A runs out on their turn; B (time left, clock stopped) has gone: without idle
    handling nobody could ever take A's seat and the table stayed `playing` forever."""
    server = start_server(clock_scale=0.01, takeover_level="random")  # 1.8 s banks
    table = create_table(server.base, [HUMAN, HUMAN], clock="fast")
    table_id = table["table"]["id"]
    with clients_for(server.base, table) as clients:
        for client in clients:
            client.act(client.view["legal_actions"][0], seq=0)
        watcher = clients[0]
        while True:  # nobody moves any more: A's clock runs out on their turn
            message = watcher.recv_type("state", timeout=20)
            if any(e.get("type") == "time_out" for e in message["events"]):
                break
        assert watcher.state is not None and watcher.state["status"] == "playing"
        _abandoned_notice(watcher, timeout=30)
    _played_out(server, db_url, table_id)


def test_the_abandoned_mark_survives_a_kill_9_before_the_game_ends(tmp_path: Path):
    """The table is abandoned (its seats handed to bots, committed), the server is killed
    before the bots have played it out; after the restart the bots finish it and its
    result still says abandoned (the mark used to live in memory only)."""
    url = f"sqlite:///{tmp_path / 'skytotems.db'}"
    first = ProcessServer(
        url,
        env={
            "SKYTOTEMS_IDLE_DAYS": str(0.5 / 86400),  # idle after half a second
            "SKYTOTEMS_TAKEOVER_LEVEL": "random",
            "SKYTOTEMS_BOT_DELAY_MS": "600000",  # the bots do not move before the kill
        },
    ).start()
    try:
        table = create_table(first.base, [HUMAN, HUMAN])
        table_id = table["table"]["id"]
        seats = "SELECT kind FROM seats WHERE table_id = :id"
        wait_for(lambda: {k for (k,) in db_rows(url, seats, id=table_id)} == {"bot"}, 30, 0.1)
        first.kill9()
    finally:
        first.terminate()
    ((status, abandoned),) = db_rows(
        url, "SELECT status, abandoned FROM tables WHERE id = :id", id=table_id
    )
    assert status == "playing" and abandoned
    second = ProcessServer(url, env={"SKYTOTEMS_TAKEOVER_LEVEL": "random"}).start()
    try:
        summary = f"{second.base}/api/tables/{table_id}"
        wait_for(lambda: httpx.get(summary).json()["status"] == "finished", 120, 0.2)
        assert httpx.get(summary).json()["result"]["abandoned"] is True
    finally:
        second.terminate()
