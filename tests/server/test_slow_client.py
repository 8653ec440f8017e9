"""A slow client never holds up the others, and one that falls too far behind is cut off
(`Conn` in server/connection.py, the hub's `send_queue_limit`): its queue stays bounded.
On a socket whose transport cannot be aborted (these recording sockets), the cut is a
close (code 1013, "try again later") after what was queued, in order, so the client
reconnects and resumes from its last seq; under uvicorn the transport is aborted at once
(test_sleepers.py, with real sockets)."""

from __future__ import annotations

import asyncio

from wsclient import run_async

from skytotems.server.hub import Conn

LIMIT = 4


class RecordingSocket:
    """A peer that reads at once, or (made with `reading=False`) not until told to."""

    def __init__(self, reading: bool = True) -> None:
        self.received: list[str] = []
        self.closed_with: int | None = None
        self.reading = asyncio.Event()
        if reading:
            self.reading.set()

    async def accept(self) -> None:
        return None

    async def receive(self) -> dict[str, str]:
        await asyncio.Event().wait()  # the tests only send
        return {}

    async def send_text(self, data: str) -> None:
        await self.reading.wait()
        self.received.append(data)

    async def close(self, code: int = 1000) -> None:
        self.closed_with = code


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_a_stalled_client_is_cut_off_without_delaying_a_fast_one() -> None:
    async def scenario() -> tuple[RecordingSocket, RecordingSocket]:
        fast_socket, stalled_socket = RecordingSocket(), RecordingSocket(reading=False)
        fast = Conn(fast_socket, "t", 0, LIMIT)
        stalled = Conn(stalled_socket, "t", 1, LIMIT)
        for i in range(3 * LIMIT):
            message = f'{{"n": {i}}}'.encode()
            fast.send(message)
            stalled.send(message)
            await settle()
            assert stalled.queue.qsize() <= LIMIT + 1  # bounded: the messages, then the end
        assert len(fast_socket.received) == 3 * LIMIT  # every message, none waiting
        assert stalled.closing and not fast.closing
        fast.close()
        await settle()
        return fast_socket, stalled_socket

    fast_socket, stalled_socket = run_async(scenario())
    assert fast_socket.received == [f'{{"n": {i}}}' for i in range(3 * LIMIT)]
    assert stalled_socket.received == []


def test_a_slow_client_that_reads_again_gets_the_queued_messages_in_order_then_a_close() -> None:
    async def scenario() -> RecordingSocket:
        socket = RecordingSocket(reading=False)
        conn = Conn(socket, "t", None, LIMIT)
        for i in range(2 * LIMIT):
            conn.send(f"m{i}".encode())
            await settle()
        socket.reading.set()
        await asyncio.wait_for(conn.sender, timeout=5)
        return socket

    socket = run_async(scenario())
    # the first message was in flight when the peer stopped reading; LIMIT more queued
    assert socket.received == [f"m{i}" for i in range(LIMIT + 1)]
    assert socket.closed_with == 1013


def test_a_client_that_keeps_up_is_never_cut_off() -> None:
    async def scenario() -> tuple[list[str], bool, int | None]:
        socket = RecordingSocket()
        conn = Conn(socket, "t", 0, LIMIT)
        for i in range(10 * LIMIT):
            conn.send(f"m{i}".encode())
            await settle()
        return list(socket.received), conn.closing, socket.closed_with

    received, closing, closed_with = run_async(scenario())
    assert received == [f"m{i}" for i in range(10 * LIMIT)]
    assert not closing and closed_with is None
