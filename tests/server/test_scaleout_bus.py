"""Several real server processes on one PostgreSQL database and one Redis
(docs/scale-out.md): a move made through one process reaches the sockets of every other,
each sees every entry once, in seq order; chat crosses processes; a socket whose process
is killed resumes on another by seq; a Redis restart mid-game loses nothing."""

from __future__ import annotations

import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from wsclient import Client, ProcessServer, create_table, db_rows, play_until, wait_for

from private_redis import PrivateRedis
from skytotems import Game, events_for, replay

HUMANS = [{"type": "human"}, {"type": "human"}]
# the server's own notices among a state's events (hub.py); the rest is the engine's
SERVER_EVENTS = {
    "player_joined",
    "undone",
    "time_out",
    "taken_over",
    "table_expired",
    "table_cancelled",
    "table_abandoned",
}


@pytest.fixture
def cluster(postgres_url: str, redis_url: str, redis_channel: str) -> Iterator[list[ProcessServer]]:
    """Three server processes on one database and one Redis channel."""
    with ExitStack() as stack:
        yield start_processes(stack, 3, postgres_url, redis_url, redis_channel)


def start_processes(
    stack: ExitStack,
    count: int,
    db_url: str,
    redis_url: str,
    channel: str,
    env: dict[str, str] | None = None,
) -> list[ProcessServer]:
    """`count` server processes sharing the database and the Redis channel, started
    together (as a deployment's would be: the migrations run once, under their lock)."""
    servers = [
        ProcessServer(
            db_url, {"SKYTOTEMS_REDIS_CHANNEL": channel, **(env or {})}, redis_url=redis_url
        )
        for _ in range(count)
    ]
    for server in servers:
        server.start_timeout = 120  # several start at once on a machine that may be loaded
        stack.callback(lambda s=server: s.proc is not None and s.terminate())
    with ThreadPoolExecutor(count) as pool:
        list(pool.map(ProcessServer.start, servers))
    return servers


def finished(clients: list[Client]) -> bool:
    return all(c.state is not None and c.state["status"] == "finished" for c in clients)


def engine_events(sockets: list[Client]) -> list[dict[str, Any]]:
    """The engine events one watcher was shown, over its successive sockets, checking that
    seqs never go back and nothing was shown as a reset of the view."""
    shown: list[dict[str, Any]] = []
    last = -1
    for client in sockets:
        states = [m for m in client.received if m["type"] == "state"]
        for state in states:
            assert not state.get("reset"), state
            assert state["seq"] >= last, (state["seq"], last)
            if state["seq"] == last:  # a notice at the same seq, never an entry again
                assert all(e["type"] in SERVER_EVENTS for e in state["events"]), state
            last = state["seq"]
            shown.extend(e for e in state["events"] if e["type"] not in SERVER_EVENTS)
    return shown


def settled(clients: list[Client]) -> None:
    """Wait until every client has been shown the same last seq."""
    wait_for(lambda: [c.drain(0.05) for c in clients] and len({c.seq for c in clients}) == 1)


def play_while_possible(clients: list[Client], rng: random.Random, limit: int = 40) -> int:
    """Random legal moves by whoever may move in their own view, until nobody may (the
    player to move sits on a process that has not heard of the last move) or `limit`."""
    moves = 0
    while moves < limit:
        for client in clients:
            client.drain(0.2)
        movers = [c for c in clients if c.view["legal_actions"]]
        if not movers:
            break
        client = rng.choice(movers)
        reply = client.act(rng.choice(client.view["legal_actions"]))
        assert reply["type"] == "state" or reply["code"] == "stale", reply
        moves += reply["type"] == "state"
    return moves


def expected_events(base: str, table_id: str, player: int | None) -> list[dict[str, Any]]:
    """Every engine event of the finished game as `player` (None: a spectator) sees it,
    replayed from its record (the deal's setup events excepted: a socket opened at seq 0
    is not sent them)."""
    record = httpx.get(f"{base}/api/tables/{table_id}/record", timeout=10).json()
    final = replay(record)
    game = Game(final.options, final.seed, final.deck)
    events = [e for action in final.history for e in game.apply(action)]
    seat = None if player is None else player  # 2 players: the player is the seat
    return [e.to_json() for e in events_for(events, seat, final.options.solo)]


def test_players_on_different_processes_play_to_the_end_each_seeing_every_move_in_order(
    cluster: list[ProcessServer],
):
    a, b, c = cluster
    table = create_table(a.base, HUMANS)
    table_id = table["table"]["id"]
    players = [
        Client(a.base, table_id, table["token_of"][0]),
        Client(b.base, table_id, table["token_of"][1]),
    ]
    spectator = Client(c.base, table_id, None)
    # chat: the players' channel reaches everyone, the spectators' only the spectators
    players[0].request({"type": "chat", "text": "hello from A"})
    spectator.request({"type": "chat", "text": "hello from C", "name": "Onlooker"})
    play_until(players, random.Random(14), lambda: finished(players))
    wait_for(lambda: spectator.drain(0.05) or finished([spectator]), timeout=30)
    for client in (*players, spectator):
        client.drain(0.3)
    chats = {  # each message once (in the order of the chat: a message said through
        # another process may arrive after one said here later)
        name: [
            m["text"]
            for m in sorted(
                (m["message"] for m in client.received if m["type"] == "chat"),
                key=lambda m: m["id"],
            )
        ]
        for name, client in (("p0", players[0]), ("p1", players[1]), ("spec", spectator))
    }
    assert chats == {
        "p0": ["hello from A"],
        "p1": ["hello from A"],
        "spec": ["hello from A", "hello from C"],
    }
    final_seq = db_rows(a.db_url, "SELECT max(seq) FROM actions WHERE table_id = :t", t=table_id)
    for index, client in enumerate(players):
        assert client.seq == final_seq[0][0]
        assert engine_events([client]) == expected_events(a.base, table_id, index)
    assert engine_events([spectator]) == expected_events(a.base, table_id, None)
    for client in (*players, spectator):
        client.close()


def test_starting_choices_made_at_once_through_two_processes_are_all_stored(
    postgres_url: str, redis_url: str, redis_channel: str
):
    """The starting cards are chosen at the same time: two choices arriving at two
    processes at once race for one seq; the database gives it to one, and the other
    process reads the table back and stores its choice next (RULES.md: the simultaneous
    choice of starting cards, in any order)."""
    with ExitStack() as stack:
        a, b = start_processes(stack, 2, postgres_url, redis_url, redis_channel)
        for _ in range(6):
            table = create_table(a.base, HUMANS)
            table_id = table["table"]["id"]
            clients = [
                Client(a.base, table_id, table["token_of"][0]),
                Client(b.base, table_id, table["token_of"][1]),
            ]
            with ThreadPoolExecutor(2) as pool:
                replies = list(
                    pool.map(lambda c: c.act(c.view["legal_actions"][0], seq=0), clients)
                )
            assert [r["type"] for r in replies] == ["state", "state"], replies
            rows = db_rows(
                a.db_url, "SELECT seq, player FROM actions WHERE table_id = :t", t=table_id
            )
            assert sorted(rows) in ([(1, 0), (2, 1)], [(1, 1), (2, 0)])
            for client in clients:
                client.close()


def test_a_socket_whose_process_is_killed_resumes_on_another_by_seq(
    postgres_url: str, redis_url: str, redis_channel: str
):
    with ExitStack() as stack:
        a, b = start_processes(stack, 2, postgres_url, redis_url, redis_channel)
        table = create_table(a.base, HUMANS)
        table_id = table["table"]["id"]
        tokens = table["token_of"]
        on_a = Client(a.base, table_id, tokens[0])
        on_b = Client(b.base, table_id, tokens[1])
        watcher_a = Client(a.base, table_id, None)
        rng = random.Random(9)
        play_until([on_a, on_b], rng, lambda: on_a.seq >= 30)
        watcher_a.drain(0.3)
        a.kill9()
        for client in (on_a, watcher_a):  # the process is gone: the socket says so
            with pytest.raises((ConnectionClosed, OSError)):
                while True:  # (after what was on its way)
                    client.recv(5)
        # they reconnect to the other process, saying the last seq they saw
        again = Client(b.base, table_id, tokens[0], seq=on_a.seq)
        watcher_again = Client(b.base, table_id, None, seq=watcher_a.seq)
        play_until([again, on_b], rng, lambda: finished([again, on_b]))
        wait_for(lambda: watcher_again.drain(0.05) or finished([watcher_again]), timeout=30)
        assert engine_events([on_a, again]) == expected_events(b.base, table_id, 0)
        assert engine_events([on_b]) == expected_events(b.base, table_id, 1)
        assert engine_events([watcher_a, watcher_again]) == expected_events(b.base, table_id, None)
        for client in (again, on_b, watcher_again):
            client.close()


def test_redis_restarts_mid_game_lose_nothing_and_play_goes_on(
    postgres_url: str, restartable_redis: PrivateRedis, redis_channel: str
):
    with ExitStack() as stack:
        # the lease survey also catches copies up (every second by default): slowed
        # here, so what B learns after an outage comes from the bus's own catch-up
        quiet_survey = {"SKYTOTEMS_LEASE_POLL_S": "600"}
        a, b = start_processes(
            stack, 2, postgres_url, restartable_redis.url, redis_channel, quiet_survey
        )
        table = create_table(a.base, HUMANS)
        table_id = table["table"]["id"]
        on_a = Client(a.base, table_id, table["token_of"][0])
        on_b = Client(b.base, table_id, table["token_of"][1])
        watcher_b = Client(b.base, table_id, None)
        rng = random.Random(5)

        def outage_with_a_to_move(after: int) -> int:
            """Play on until the player on A is to move, then stop Redis and let them move
            (A stores and shows it; B cannot hear of it). Returns the log's head."""
            play_until([on_a, on_b], rng, lambda: on_a.seq >= after and a_to_move())
            settled([on_a, on_b, watcher_b])
            if not a_to_move():  # the last move was B's, shown to A just now: once more
                return outage_with_a_to_move(after)
            restartable_redis.stop()
            assert play_while_possible([on_a, on_b], rng) > 0
            return int(db_rows(a.db_url, sql_head, t=table_id)[0][0])

        def a_to_move() -> bool:
            on_a.drain(0.0)
            return bool(on_a.view["legal_actions"])

        def caught_up(clients: list[Client], head: int) -> None:
            for client in clients:
                wait_for(lambda c=client: c.drain(0.05) or c.seq >= head, timeout=30)

        sql_head = "SELECT max(seq) FROM actions WHERE table_id = :t"
        # 1. Redis comes back: A sends what it could not, B reads it from the database
        head = outage_with_a_to_move(20)
        assert on_b.seq < head and watcher_b.seq < head
        restartable_redis.start()
        caught_up([on_a, on_b, watcher_b], head)
        # 2. A dies while Redis is away, its notifications unsent: B, subscribed again,
        # reads every table it holds up to the log's head; A's player resumes on B
        head = outage_with_a_to_move(on_a.seq + 10)
        a.kill9()
        restartable_redis.start()
        caught_up([on_b, watcher_b], head)
        on_a_again = Client(b.base, table_id, table["token_of"][0], seq=on_a.seq)
        play_until([on_a_again, on_b], rng, lambda: finished([on_a_again, on_b]))
        wait_for(lambda: watcher_b.drain(0.05) or finished([watcher_b]), timeout=30)
        assert engine_events([on_a, on_a_again]) == expected_events(b.base, table_id, 0)
        assert engine_events([on_b]) == expected_events(b.base, table_id, 1)
        assert engine_events([watcher_b]) == expected_events(b.base, table_id, None)
        for client in (on_a_again, on_b, watcher_b):
            client.close()
