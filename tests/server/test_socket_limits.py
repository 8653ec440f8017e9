"""Issue 13, bug 2 and item 4 (sockets): a socket over its message rate gets `rate_limited`
and nothing it sent is read, one that keeps at it is closed with 1008, and one client
address can open only so many sockets, so many per minute (429 before the upgrade), and
a socket that says nothing is closed after the hello deadline. Real server, real
sockets; the checks are counts, replies, closes and what changed, never timings."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable

import httpx
import pytest
from test_refusals import Table
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect
from wsclient import (
    Client,
    Sleeper,
    ThreadServer,
    create_table,
    db_rows,
    play_until,
    wait_for,
    ws_frame,
)

HUMAN = {"type": "human"}


def ws_url(server: ThreadServer, table_id: str) -> str:
    return server.base.replace("http", "ws") + f"/ws/tables/{table_id}"


def read_until_closed(client: Client) -> tuple[list[dict[str, object]], int | None]:
    """Everything the client gets until the server closes the socket, and the close code."""
    got: list[dict[str, object]] = []
    try:
        while True:
            got.append(client.recv(timeout=20))
    except ConnectionClosed as closed:
        return got, closed.rcvd.code if closed.rcvd else None


def test_messages_over_the_rate_are_refused_unread_then_the_socket_is_closed_1008(
    start_server: Callable[..., ThreadServer], db_url: str
) -> None:
    # windows of a minute: the counts cannot depend on how loaded the machine is
    server = start_server(ws_message_rate="5/minute", ws_abuse_rate="10/minute")
    table = Table(server, db_url)
    mover, other = table.to_move()
    # a second socket of the seat to move: its own count starts at 0 (hello not counted)
    player = table.seats.index(mover)
    mover = Client(server.base, table.id, table.tokens[player])
    before = table.snapshot()
    legal = mover.view["legal_actions"][0]
    flood = [{"type": "ping", "id": f"p{i}"} for i in range(5)]  # the 5 of the rate
    flood += [{"type": "act", "id": "legal", "seq": mover.seq, "action": legal}]
    flood += [{"type": "chat", "id": f"c{i}", "text": "spam"} for i in range(5)]
    flood += [{"type": "ping", "id": f"q{i}"} for i in range(10)]
    # in one write: sent one by one, the last could race the server's close (and fail)
    mover.send_at_once(flood)
    got, code = read_until_closed(mover)
    assert [m["id"] for m in got if m["type"] == "pong"] == ["p0", "p1", "p2", "p3", "p4"]
    refused = [m for m in got if m["type"] == "error"]
    assert {m["code"] for m in refused} == {"rate_limited"}
    # ten refusals are tolerated, the eleventh closes the socket: the legal move and the
    # chat were refused (with their ids), nothing after the close was answered
    assert [m["id"] for m in refused] == ["legal", "c0", "c1", "c2", "c3", "c4", "q0", "q1",
                                          "q2", "q3"]  # fmt: skip
    assert code == 1008
    assert not [m for m in got if m["type"] in ("state", "chat")]
    assert table.snapshot() == before
    assert db_rows(db_url, "SELECT id FROM chat WHERE table_id = :id", id=table.id) == []
    # the seat's first socket and the other player's count their own messages
    assert table.seats[player].act(legal)["type"] == "state"
    assert other.request({"type": "ping"})["type"] == "pong"


def test_a_flood_does_not_stop_the_other_players(
    start_server: Callable[..., ThreadServer], db_url: str
) -> None:
    """Default rates; a flooder writes 3000 pings and stale moves as fast as it can while
    the others play: it is refused and closed, the others get every answer."""
    server = start_server(ws_message_rate="40/2 seconds", ws_abuse_rate="40/10 seconds")
    table = Table(server, db_url)
    _, other = table.to_move()
    flooder = Client(server.base, table.id, table.tokens[table.seats.index(other)])
    stale = {"type": "act", "seq": 0, "action": {"type": "pass", "seat": 0}}
    with contextlib.suppress(ConnectionClosed):  # closed by the server while it floods
        for i in range(1500):
            flooder.send({"type": "ping", "id": i})
            flooder.send(dict(stale, id=-i))
    moves = play_until(table.seats, random.Random(2), stop=lambda: False, max_moves=10)
    got, code = read_until_closed(flooder)
    assert code == 1008
    answered = [m for m in got if m["type"] in ("pong", "error")]
    assert len(answered) < 200  # the burst, then ~20 a second, then the close
    assert sum(1 for m in got if m.get("code") == "rate_limited") == 40
    assert table.spectator.request({"type": "ping"})["type"] == "pong"
    assert moves == 10


def test_open_sockets_per_address_are_capped_before_the_upgrade(
    start_server: Callable[..., ThreadServer],
) -> None:
    server = start_server(ws_sockets_per_address=3)
    table_id = create_table(server.base, [HUMAN, HUMAN])["table"]["id"]
    clients = [Client(server.base, table_id, None) for _ in range(3)]
    # a fourth, even claiming another address (no trusted proxy: not believed), is
    # refused with 429 before any upgrade
    with pytest.raises(InvalidStatus) as refused:
        connect(ws_url(server, table_id), additional_headers={"X-Forwarded-For": "198.51.100.7"})
    assert refused.value.response.status_code == 429
    assert int(refused.value.response.headers["Retry-After"]) >= 1
    assert b"rate_limited" in refused.value.response.body
    assert httpx.get(server.base + "/api/health").json()["connections"] == 3
    # once one closes, another may open
    clients.pop().close()
    wait_for(lambda: httpx.get(server.base + "/api/health").json()["connections"] == 2)
    wait_for(lambda: _opens(server, table_id))
    for client in clients:
        assert client.request({"type": "ping"})["type"] == "pong"
        client.close()


def _opens(server: ThreadServer, table_id: str) -> bool:
    try:
        Client(server.base, table_id, None).close()
    except InvalidStatus:
        return False
    return True


def test_new_sockets_per_address_are_rate_limited(
    start_server: Callable[..., ThreadServer],
) -> None:
    server = start_server(ws_handshake_rate="4/minute")
    table_id = create_table(server.base, [HUMAN, HUMAN])["table"]["id"]
    for _ in range(4):  # a client that reconnects at once, again and again
        Client(server.base, table_id, None).close()
    with pytest.raises(InvalidStatus) as refused:
        Client(server.base, table_id, None)
    assert refused.value.response.status_code == 429
    assert 1 <= int(refused.value.response.headers["Retry-After"]) <= 60
    assert httpx.get(server.base + "/api/health").status_code == 200  # HTTP is not affected


def test_a_socket_that_never_says_hello_is_closed_after_the_hello_deadline(
    start_server: Callable[..., ThreadServer],
) -> None:
    server = start_server(hello_timeout_s=0.5)
    table_id = create_table(server.base, [HUMAN, HUMAN])["table"]["id"]
    silent = Client(server.base, table_id, None, hello=False)
    with pytest.raises(ConnectionClosed):
        silent.recv(timeout=15)  # the old deadline was 30 s
    wait_for(lambda: httpx.get(server.base + "/api/health").json()["connections"] == 0)


def test_a_socket_closed_for_flooding_is_not_read_any_more(
    start_server: Callable[..., ThreadServer],
) -> None:
    """A flooder that never reads and keeps writing pings: once it is closed (1008) the
    server reads nothing more from it (what it keeps sending waits in the kernel's
    small buffers) instead of parsing its flood until the close completes."""
    server = start_server(ws_message_rate="5/minute", ws_abuse_rate="10/minute")
    table_id = create_table(server.base, [HUMAN, HUMAN])["table"]["id"]
    flooder = Sleeper(server.base, table_id, send_buffer=16384)
    pings = ws_frame(json.dumps({"type": "ping", "id": 1})) * 1000
    flooder.sock.settimeout(0.5)
    accepted, deadline = 0, time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            flooder.sock.sendall(pings)
            accepted += len(pings)
        except TimeoutError:
            continue  # the kernel takes nothing more: the server is not reading
        except OSError:
            break
    # the 5 + 10 + 1 messages before the close, what the server read with them, and what
    # the kernel's buffers hold (the server's 128 KiB, the flooder's 32 KiB)
    assert accepted < 2 * 1024 * 1024, accepted
    flooder.close()
