"""Issue 13, bug 3: a socket that says hello and then never reads (nor answers pings)
while its table moves is cut by aborting its transport: the server's side of it closes
at once with a reset (the kernel's send queue is dropped), never waits for a buffer that
cannot drain, and the players go on. Real server, real sockets, real transports (uvloop
under uvicorn, as `skytotems serve` runs)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from wsclient import Sleeper, ThreadServer, clients_for, create_table, play_until, wait_for

HUMAN = {"type": "human"}

# what makes the server give up on the sleeper: its queue overflows (8 messages), or one
# message waits too long to be written (1 s), or its keepalive pings go unanswered for
# 0.5 s (the server's close then waits on the full buffer, so the hub aborts it)
SMALL = {"send_buffer_bytes": 8192}  # the server's kernel buffer fills after a few moves
CUTS = {
    "queue": {**SMALL, "send_queue_limit": 8},
    "stall": {**SMALL, "send_stall_s": 1.0},
    "ping": {**SMALL, "ws_ping_s": 0.5, "send_stall_s": 600.0, "send_queue_limit": 100000,
             "send_queue_bytes": 1 << 30},
}  # fmt: skip


def connections(server: ThreadServer) -> int:
    hub = server.runtime.hub
    count: int = server.call(lambda: hub.connections)
    return count


@pytest.mark.parametrize("cut", CUTS)
def test_a_socket_that_never_reads_is_aborted_and_the_players_go_on(
    start_server: Callable[..., ThreadServer], cut: str
) -> None:
    server = start_server(**CUTS[cut])
    table = create_table(server.base, [HUMAN, HUMAN])
    sleeper = Sleeper(server.base, table["table"]["id"])
    assert sleeper.status == 101
    with clients_for(server.base, table) as clients:
        wait_for(lambda: connections(server) == 3)
        moves = play_until(
            clients, random.Random(13), stop=lambda: connections(server) < 3, max_moves=400
        )
        wait_for(lambda: connections(server) == 2, timeout=30)
        # the sleeper finds what its small buffer held, then the reset: the server
        # dropped the connection (a graceful close would still be waiting). Unanswered
        # pings may also come before the buffers are full: the server's close then gets
        # through (the end of the stream); either way the server let go of it.
        _, end = sleeper.read_to_end(timeout=10)
        assert end in (("reset", "eof") if cut == "ping" else ("reset",)), (end, moves)
        # the players never noticed
        for client in clients:
            assert client.request({"type": "ping"})["type"] == "pong"
        assert 0 < moves < 400
        for client in clients:
            client.drain()
        assert clients[0].seq == clients[1].seq == moves  # every move reached both
    sleeper.close()
