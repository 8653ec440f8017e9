"""Operations endpoints of the real server: /metrics (Prometheus, parsed with the official
client's parser) counts the moves actually acknowledged, and /api/ready answers for the
database and for a Redis client the server watches (a private redis-server stopped and
started again)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import redis.asyncio
from wsclient import Client, ThreadServer, clients_for, create_table, scrape, value, wait_for

from private_redis import PrivateRedis, private_redis
from skytotems.server import Settings

HUMAN = {"type": "human"}
BOT = {"type": "bot", "level": "random"}


def play_moves(clients: list[Client], count: int, rng: random.Random) -> Counter[str]:
    """Play until `count` moves are acknowledged; returns the replies by kind (the
    acknowledged states and each refusal's code)."""
    replies: Counter[str] = Counter()
    while replies["state"] < count:
        for c in clients:
            c.drain(0.0)
        movers = [c for c in clients if c.state and c.view["legal_actions"]]
        if not movers:
            clients[0].drain(0.05)
            continue
        mover = rng.choice(movers)
        reply = mover.act(rng.choice(mover.view["legal_actions"]))
        replies["state" if reply["type"] == "state" else reply["code"]] += 1
    return replies


def test_metrics_count_the_moves_acknowledged(start_server: Callable[..., ThreadServer]):
    server = start_server()
    before = scrape(server.base)
    assert value(before, "skytotems_moves_total", by="human") == 0
    assert value(before, "skytotems_sockets") == 0
    table = create_table(server.base, [HUMAN, HUMAN])
    with clients_for(server.base, table) as clients:
        replies = play_moves(clients, 25, random.Random(3))
        wait_for(lambda: any(c.drain(0.02) or c.view["legal_actions"] for c in clients))
        mover = next(c for c in clients if c.view["legal_actions"])
        stale = mover.act(mover.view["legal_actions"][0], seq=mover.seq - 1)
        assert stale["type"] == "error" and stale["code"] == "stale"
        replies[stale["code"]] += 1
        after = scrape(server.base)
        assert value(after, "skytotems_moves_total", by="human") == 25
        assert value(after, "skytotems_moves_total", by="bot") == 0
        assert value(after, "skytotems_move_seconds_count") == 25
        assert value(after, "skytotems_move_seconds_bucket", le="+Inf") == 25
        assert value(after, "skytotems_move_seconds_sum") > 0
        for code, count in replies.items():
            if code != "state":
                assert value(after, "skytotems_moves_refused_total", code=code) == count
        assert value(after, "skytotems_sockets") == 2
        assert value(after, "skytotems_tables_open") == 1
        assert value(after, "skytotems_bot_moves_pending") == 0
        # on PostgreSQL the table's creator holds its lease; one process on SQLite holds none
        # (it drives every table)
        shared = server.settings.db_url.startswith("postgresql")
        wait_for(lambda: value(scrape(server.base), "skytotems_leases_held") == int(shared))
    wait_for(lambda: value(scrape(server.base), "skytotems_sockets") == 0)


def test_metrics_count_bot_moves_apart(start_server: Callable[..., ThreadServer]):
    server = start_server()
    table = create_table(server.base, [HUMAN, BOT])
    table_id = table["table"]["id"]
    with clients_for(server.base, table) as (human,):
        play_moves([human], 20, random.Random(5))
        # the human may move: the bot has played, nothing of it is pending
        wait_for(lambda: bool(human.drain(0.02) or human.view["legal_actions"]))
        seq = httpx.get(f"{server.base}/api/tables/{table_id}/view").json()["seq"]
        samples = scrape(server.base)
        humans = value(samples, "skytotems_moves_total", by="human")
        bots = value(samples, "skytotems_moves_total", by="bot")
        assert humans == 20
        assert bots >= 1
        assert humans + bots == seq == value(samples, "skytotems_move_seconds_count")


def test_ready_answers_for_the_database(start_server: Callable[..., ThreadServer]):
    server = start_server()
    response = httpx.get(server.base + "/api/ready", timeout=10)
    assert response.status_code == 200
    assert response.json() == {"status": "ready", "checks": {"database": "ok"}, "reason": None}


def test_ready_fails_while_a_watched_redis_is_down(tmp_path: Path):
    with private_redis() as private_rd:
        check_ready_follows_redis(tmp_path, private_rd)


def check_ready_follows_redis(tmp_path: Path, private_rd: PrivateRedis) -> None:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'ops.db'}", static_dir=None)
    server = ThreadServer(settings).start()
    client = redis.asyncio.Redis.from_url(
        private_rd.url, socket_connect_timeout=1, socket_timeout=1
    )
    try:
        runtime: Any = server.server.config.app.state.runtime
        runtime.readiness.watch("redis", client)

        def ready() -> httpx.Response:
            return httpx.get(server.base + "/api/ready", timeout=10)

        assert ready().status_code == 200
        assert ready().json()["checks"] == {"database": "ok", "redis": "ok"}
        private_rd.stop()
        down = ready()
        assert down.status_code == 503
        body = down.json()
        assert body["status"] == "unready"
        assert body["checks"]["database"] == "ok"
        assert body["checks"]["redis"].startswith("unreachable")
        assert "redis" in body["reason"]
        assert httpx.get(server.base + "/api/health").status_code == 200  # alive all along
        private_rd.start()
        wait_for(lambda: ready().status_code == 200, timeout=20, step=0.2)
    finally:
        server.stop()


def test_leases_held_is_what_the_lease_holder_last_said(
    start_server: Callable[..., ThreadServer],
):
    server = start_server()
    runtime: Any = server.server.config.app.state.runtime
    assert value(scrape(server.base), "skytotems_leases_held") == 0
    # the lease keeper says its count (0 here) every few seconds: a CI run's keeper
    # spoke between the 3 and the scrape, so a scrape may take a few tries to see it
    seen = []
    for _ in range(5):
        runtime.service.metrics.leases(3)
        seen.append(value(scrape(server.base), "skytotems_leases_held"))
        if seen[-1] == 3:
            break
    assert seen[-1] == 3, seen
