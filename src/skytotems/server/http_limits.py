"""Per-address limits on HTTP: the request rate (every route, and table creation on its
own) and the body size, checked before a route reads anything.

An ASGI middleware in front of every HTTP route (the table sockets skip it; the hub has
limits of its own). Rates are counted per client address (`client_address`) by the
`limits` library in this process's memory: with several server processes each counts
its own share (the library's Redis storage could share them later).
"""

from __future__ import annotations

import math
import time

import orjson
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import client_address
from .settings import Settings

CREATE_PATH = "/api/tables"


class BodyTooLarge(HTTPException):
    """Raised while a route reads a body that grew past the limit (no Content-Length)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request bodies are limited to {limit} bytes")


class HttpLimits:
    """Refuse what is over the limits before the app sees it: 429 with Retry-After for
    a client over its rate, 413 for a body over `max_body_bytes`."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.max_body = settings.max_body_bytes
        self.trusted = client_address.trusted_networks(settings.trusted_proxies)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.http_rate = parse(settings.http_rate)
        self.create_rate = parse(settings.create_rate)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        address = client_address.of_scope(scope, self.trusted)
        limits = [(self.http_rate, "http")]
        if scope["method"] == "POST" and scope["path"].rstrip("/") == CREATE_PATH:
            limits.append((self.create_rate, "create"))
        for item, name in limits:
            if not self.limiter.hit(item, name, address):
                await self._too_many(send, item, name, address)
                return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_body:
            await _refuse(send, 413, "too_large", BodyTooLarge(self.max_body).detail)
            return
        await self._guarded(scope, receive, send)

    async def _guarded(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the app, counting the body's bytes as they arrive (chunked bodies)."""
        received = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise BodyTooLarge(self.max_body)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except BodyTooLarge as exc:
            if started:
                raise
            await _refuse(send, 413, "too_large", exc.detail)

    async def _too_many(self, send: Send, item: RateLimitItem, name: str, address: str) -> None:
        reset = self.limiter.get_window_stats(item, name, address).reset_time
        retry = max(1, math.ceil(reset - time.time()))
        what = "tables created" if name == "create" else "requests"
        await _refuse(
            send,
            429,
            "rate_limited",
            f"too many {what} from your address ({item}); retry in {retry} s",
            ((b"retry-after", str(retry).encode()),),
        )


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _refuse(
    send: Send, status: int, code: str, message: str, headers: tuple[tuple[bytes, bytes], ...] = ()
) -> None:
    body = orjson.dumps({"code": code, "message": message})
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
