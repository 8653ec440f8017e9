"""One table socket as the hub holds it: its outgoing queue, bounded in messages and
bytes, and the way a socket that stopped reading is cut.

A peer that never reads fills the kernel's send buffer, then the server's transport
buffer, then its queue here. A graceful close cannot help then: the close frame waits
behind everything that never drains. So such a socket is *aborted*: its transport is
closed at once with a TCP reset (SO_LINGER 0), which frees the kernel's send queue and
every buffer at once. The kernel buffer of every table socket is kept small
(`Settings.send_buffer_bytes`), so what one socket pins is bounded before it is cut.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import struct
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Protocol

from starlette.websockets import WebSocketDisconnect

log = logging.getLogger("skytotems.server")

Message = MutableMapping[str, Any]
LINGER_RESET = struct.pack("ii", 1, 0)  # close() then drops unsent data and sends a reset
POLICY_VIOLATION = 1008  # the close code of a socket that kept sending over its rate


class Socket(Protocol):
    """The WebSocket calls the hub makes (Starlette's WebSocket has them too)."""

    async def accept(self) -> None: ...
    async def receive(self) -> Message: ...
    async def send_text(self, data: str) -> None: ...
    async def close(self, code: int = 1000) -> None: ...


class Transport(Protocol):
    """What the server needs of a connection's transport (asyncio's, or uvloop's, which
    is not an `asyncio.BaseTransport`)."""

    def abort(self) -> None: ...
    def is_closing(self) -> bool: ...
    def pause_reading(self) -> None: ...
    def get_extra_info(self, name: str, default: Any = None) -> Any: ...


def transport_of(send: Callable[..., Awaitable[None]]) -> Transport | None:
    """The transport under an ASGI `send`: uvicorn hands the app its protocol object's
    bound `send` method, and that protocol holds the transport. None elsewhere (another
    server, a wrapping middleware): sockets are then only ever closed gracefully."""
    transport = getattr(getattr(send, "__self__", None), "transport", None)
    if callable(getattr(transport, "abort", None)) and callable(
        getattr(transport, "is_closing", None)
    ):
        return transport
    return None


class RawSocket:
    """A WebSocket straight on the ASGI server's receive/send, with no middleware between:
    the play path of every move, kept short. It can also reach the transport beneath,
    to bound its kernel buffer and to abort it."""

    __slots__ = ("_receive", "_send", "closed", "transport")

    def __init__(
        self,
        receive: Callable[[], Awaitable[Message]],
        send: Callable[[Message], Awaitable[None]],
    ) -> None:
        self._receive = receive
        self._send = send
        self.closed = False
        self.transport = transport_of(send)

    async def accept(self) -> None:
        message = await self._receive()
        if message["type"] != "websocket.connect":
            raise WebSocketDisconnect()
        await self._send({"type": "websocket.accept"})

    async def refuse(self, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
        """Answer the handshake with an HTTP error instead of upgrading (the ASGI
        extension `websocket.http.response`; without it, the server's 403)."""
        message = await self._receive()
        if message["type"] != "websocket.connect":
            return
        self.closed = True
        try:
            await self._send(
                {
                    "type": "websocket.http.response.start",
                    "status": status,
                    "headers": [(b"content-type", b"application/json"), *headers],
                }
            )
            await self._send({"type": "websocket.http.response.body", "body": body})
        except RuntimeError:  # no such extension here
            await self._send({"type": "websocket.close", "code": 1008})

    async def receive(self) -> Message:
        message = await self._receive()
        if message["type"] == "websocket.disconnect":
            self.closed = True
        return message

    async def send_text(self, data: str) -> None:
        await self._send({"type": "websocket.send", "text": data})

    async def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            await self._send({"type": "websocket.close", "code": code})

    def limit_buffers(self, send: int, receive: int) -> None:
        """Cap the kernel's send and receive buffers of this socket (each grows to
        megabytes otherwise: what a never-reading or a flooding peer pins)."""
        sock = self.transport.get_extra_info("socket") if self.transport else None
        if sock is None:
            return
        for option, nbytes in ((socket.SO_SNDBUF, send), (socket.SO_RCVBUF, receive)):
            if nbytes > 0:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, option, nbytes)

    def abort(self) -> bool:
        """Drop the connection now, with whatever is buffered (a reset to the peer);
        False if the transport cannot be reached."""
        if self.transport is None:
            return False
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, LINGER_RESET)
        self.closed = True
        self.transport.abort()
        return True

    def stop_reading(self) -> None:
        """Read nothing more from the peer (a flooder after its 1008): what it keeps
        sending waits in the kernel, costing the server nothing, until the close."""
        if self.transport is not None:
            with contextlib.suppress(Exception):
                self.transport.pause_reading()

    def is_closing(self) -> bool:
        """The transport is being closed (for instance by the server's keepalive, whose
        pings went unanswered) but may wait forever for its buffer to drain."""
        return self.transport is not None and self.transport.is_closing()


class Conn:
    """One open socket: which table and player it watches, and its outgoing queue.

    A queue per socket keeps each client's messages in order while a slow client never
    holds up the others. One that falls too far behind (more than `limit` messages or
    `max_bytes` queued) is aborted; the client reconnects and resumes from its last seq.
    `sending_since` (loop time) says since when one message has waited to be written:
    the hub's watchdog aborts a socket stalled for too long.
    """

    __slots__ = (
        "close_code",
        "closing",
        "limit",
        "max_bytes",
        "player",
        "queue",
        "queued_bytes",
        "sender",
        "sending_since",
        "table_id",
        "ws",
    )

    def __init__(
        self, ws: Socket, table_id: str, player: int | None, limit: int, max_bytes: int = 1 << 30
    ) -> None:
        self.ws = ws
        self.table_id = table_id
        self.player = player
        self.limit = limit
        self.max_bytes = max_bytes
        self.closing = False
        self.close_code = 1013
        self.queued_bytes = 0
        self.sending_since: float | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.sender = asyncio.create_task(self._send_loop())

    def send(self, data: bytes | str) -> None:
        if self.closing:
            return
        text = data if isinstance(data, str) else data.decode()
        if self.queue.qsize() >= self.limit or self.queued_bytes + len(text) > self.max_bytes:
            self.abort("its send queue is full")
            return
        self.queued_bytes += len(text)
        self.queue.put_nowait(text)

    def close(self, code: int = 1013) -> None:
        """Close gracefully once what is queued is sent (by default with 1013, "try again
        later": the client reconnects and resumes)."""
        if not self.closing:
            self.closing = True
            self.close_code = code
            self.queue.put_nowait(None)

    def abort(self, why: str) -> None:
        """Cut the socket now, dropping what is queued (see the module's doc)."""
        abort = getattr(self.ws, "abort", None)
        if abort is None:
            self.close()
            return
        log.info("skytotems: a socket of table %s is cut: %s", self.table_id, why)
        self.closing = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queued_bytes = 0
        self.queue.put_nowait(None)
        if not abort():
            self.sender.cancel()  # no transport to abort: stop waiting on it at least

    async def _send_loop(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while (text := await self.queue.get()) is not None:
                self.queued_bytes -= len(text)
                self.sending_since = loop.time()
                await self.ws.send_text(text)
                self.sending_since = None
        except Exception:  # the peer went away: the receive loop notices
            pass
        finally:
            self.sending_since = None
            self.closing = True
            with contextlib.suppress(Exception):
                await self.ws.close(code=self.close_code)
            stop_reading = getattr(self.ws, "stop_reading", None)
            if self.close_code == POLICY_VIOLATION and stop_reading is not None:
                stop_reading()  # the close resumed reading; a flooder is not read again


def stalled(
    conn: Conn, now: float, stall_s: float, closing_s: float, closing_since: dict[Conn, float]
) -> str | None:
    """Why `conn` should be cut now (None: it is fine): one message has waited more than
    `stall_s` to be written, or its transport has been closing for more than `closing_s`
    (the server's keepalive gave up on unanswered pings, or the peer never answered a
    close, and the close waits on a buffer that does not drain). `closing_since`
    remembers when each closing transport was first seen."""
    if conn.sending_since is not None and now - conn.sending_since > stall_s:
        return f"nothing it was sent could be written for {stall_s:g} s"
    is_closing = getattr(conn.ws, "is_closing", None)
    if is_closing is not None and is_closing():
        first = closing_since.setdefault(conn, now)
        if now - first > closing_s:
            return f"its transport could not close in {closing_s:g} s"
    else:
        closing_since.pop(conn, None)
    return None
