"""PostgreSQL stopped and started again under a running server process (a private
PostgreSQL on a port of its own, so the shared one never notices): moves during the
outage are refused with the `storage` error and never acknowledged, /api/ready says the
database is unreachable, and once PostgreSQL is back the games go on by themselves
(bots included), /api/ready passes and every acknowledged move is in the log."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
from wsclient import Client, ProcessServer, create_table, db_rows, wait_for

from private_postgres import private_postgres

HUMAN = {"type": "human"}
BOT = {"type": "bot", "level": "random"}


def acknowledged_moves(
    clients: list[Client], count: int, rng: random.Random, acked: dict[int, dict[str, Any]]
) -> None:
    """Play `count` acknowledged moves, noting each (seq: action) in `acked`."""
    played = 0
    while played < count:
        for c in clients:
            c.drain(0.0)
        movers = [c for c in clients if c.state and c.view["legal_actions"]]
        if not movers:
            clients[0].drain(0.05)
            continue
        mover = rng.choice(movers)
        action = rng.choice(mover.view["legal_actions"])
        reply = mover.act(action)
        if reply["type"] == "state":
            acked[reply["seq"]] = action
            played += 1
        else:
            assert reply["code"] == "stale", reply


def ready(base: str) -> httpx.Response:
    return httpx.get(base + "/api/ready", timeout=15)


def test_postgres_restart_refuses_moves_then_play_resumes_by_itself() -> None:
    rng = random.Random(14)
    with private_postgres() as pg:
        server = ProcessServer(pg.url, env={"SKYTOTEMS_BOT_DELAY_MS": "100"}).start()
        clients: list[Client] = []
        try:
            humans = create_table(server.base, [HUMAN, HUMAN])
            bots = create_table(server.base, [BOT, BOT])
            humans_id, bots_id = humans["table"]["id"], bots["table"]["id"]
            seats = [Client(server.base, humans_id, t) for t in humans["token_of"].values()]
            watcher = Client(server.base, bots_id, None)
            clients = [*seats, watcher]
            acked: dict[int, dict[str, Any]] = {}
            acknowledged_moves(seats, 12, rng, acked)
            wait_for(lambda: bool(watcher.drain(0.05) or watcher.seq >= 3), timeout=30)
            assert ready(server.base).status_code == 200

            pg.stop("fast")
            down = ready(server.base)
            assert down.status_code == 503, down.text
            assert down.json()["checks"]["database"].startswith("unreachable")
            assert "database" in down.json()["reason"]
            assert httpx.get(server.base + "/api/health").status_code == 200  # alive
            # every move tried during the outage is refused with a clear error
            for _ in range(3):
                for c in seats:
                    c.drain(0.05)
                mover = next(c for c in seats if c.view["legal_actions"])
                reply = mover.act(mover.view["legal_actions"][0])
                assert reply["type"] == "error", reply
                assert reply["code"] == "storage", reply
                assert "try again" in reply["message"]
            created = httpx.post(
                server.base + "/api/tables", json={"seats": [HUMAN, HUMAN]}, timeout=15
            )
            assert created.status_code == 503
            assert created.json()["code"] == "storage"
            time.sleep(1.5)  # the bots' moves fail meanwhile (and retry)
            watcher.drain(0.05)
            bots_seq_in_outage = watcher.seq

            pg.start()
            wait_for(lambda: ready(server.base).status_code == 200, timeout=30, step=0.2)
            # the bots' table goes on with nobody sending anything
            wait_for(
                lambda: bool(watcher.drain(0.05) or watcher.seq >= bots_seq_in_outage + 3),
                timeout=30,
            )
            # the players go on from where the log is (their sockets were kept)
            for c in seats:
                c.drain(0.2)
            acknowledged_moves(seats, 10, rng, acked)
        finally:
            for c in clients:
                c.close()
            server.terminate()
        stored = {
            seq: data
            for seq, data in db_rows(
                pg.url,
                "SELECT seq, data FROM actions WHERE table_id = :t ORDER BY seq",
                t=humans_id,
            )
        }
        assert list(stored) == list(range(1, len(stored) + 1))  # no gap in the log
        assert all(stored[seq] == action for seq, action in acked.items())
        assert max(acked) == max(stored)  # nothing stored past what was acknowledged
