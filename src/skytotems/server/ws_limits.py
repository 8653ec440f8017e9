"""Limits on the table sockets: what one client address may open, and what one socket
may send.

Per client address (`client_address`): at most `ws_sockets_per_address` open sockets and
`ws_handshake_rate` new ones; a handshake over either is answered 429 with Retry-After
before the upgrade, so a flooder that reconnects at once is held by the same caps. Per
socket: `ws_message_rate` messages (hello, moves, pings, chat: everything); a message
over it is answered `rate_limited` and not read, and a socket refused more than
`ws_abuse_rate` times is closed with 1008 (policy violation). Rates are moving windows
in the `limits` library's notation ("40/2 seconds": never more than 40 in any 2 s),
counted in this process's memory like the HTTP limits. A socket's own windows are a few
timestamps it holds (`MovingWindow`), not the library's shared storage: that storage
starts a thread that sweeps every key 100 times a second, which cost about 0.2 ms of
CPU per message with 400 sockets (benchmarks/load.py, issue 13).
"""

from __future__ import annotations

import math
import time
from collections import deque
from typing import Any

import orjson
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from . import client_address
from .settings import Settings

CAP_RETRY_S = 10  # a client at its socket cap may retry once one of them has closed


class Refusal:
    """A handshake refused: the HTTP status, Retry-After and body to answer with."""

    __slots__ = ("body", "retry_after", "status")

    def __init__(self, message: str, retry_after: int) -> None:
        self.status = 429
        self.retry_after = retry_after
        self.body = orjson.dumps({"code": "rate_limited", "message": message})

    @property
    def headers(self) -> list[tuple[bytes, bytes]]:
        return [(b"retry-after", str(self.retry_after).encode())]


class SocketLimits:
    """The socket limits of one server process (see the module's doc)."""

    def __init__(self, settings: Settings) -> None:
        self.trusted = client_address.trusted_networks(settings.trusted_proxies)
        self.per_address = settings.ws_sockets_per_address
        self.handshakes = parse(settings.ws_handshake_rate)
        self.messages = parse(settings.ws_message_rate)
        self.abuse = parse(settings.ws_abuse_rate)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.open: dict[str, int] = {}

    # ------------------------------------------------------------- per address

    def address(self, scope: Any) -> str:
        return client_address.of_scope(scope, self.trusted)

    def admit(self, address: str) -> Refusal | None:
        """Count a new socket of `address` (None), or say why it is refused; an admitted
        socket must be `release`d once closed."""
        if self.open.get(address, 0) >= self.per_address:
            return Refusal(
                f"too many open sockets from your address (at most {self.per_address})",
                CAP_RETRY_S,
            )
        if not self.limiter.hit(self.handshakes, "handshake", address):
            reset = self.limiter.get_window_stats(self.handshakes, "handshake", address).reset_time
            return Refusal(
                f"too many new sockets from your address ({self.handshakes})",
                max(1, math.ceil(reset - time.time())),
            )
        self.open[address] = self.open.get(address, 0) + 1
        return None

    def release(self, address: str) -> None:
        left = self.open.get(address, 0) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)

    # -------------------------------------------------------------- per socket

    def socket_counts(self) -> SocketCounts:
        """The message and refusal counts of one new socket."""
        return SocketCounts(MovingWindow(self.messages), MovingWindow(self.abuse))


class MovingWindow:
    """At most `item.amount` hits in any `item` period (the `limits` library's moving
    window, for one key): the times of the last `amount` hits allowed, O(1) per hit."""

    __slots__ = ("amount", "period", "times")

    def __init__(self, item: RateLimitItem) -> None:
        self.amount = item.amount
        self.period = float(item.get_expiry())
        self.times: deque[float] = deque(maxlen=self.amount)

    def hit(self, now: float) -> bool:
        """Count a hit at `now` (monotonic seconds) if it is within the rate."""
        times = self.times
        if len(times) == self.amount and now - times[0] <= self.period:
            return False
        times.append(now)  # the oldest drops out once `amount` are held
        return True


class SocketCounts:
    """One socket's windows: its messages (`ws_message_rate`) and refusals
    (`ws_abuse_rate`)."""

    __slots__ = ("abuse", "messages")

    def __init__(self, messages: MovingWindow, abuse: MovingWindow) -> None:
        self.messages = messages
        self.abuse = abuse

    def message_allowed(self) -> bool:
        """Whether one more message is within `ws_message_rate`."""
        return self.messages.hit(time.monotonic())

    def still_tolerated(self) -> bool:
        """Count a refused message; False once refusals exceed `ws_abuse_rate`."""
        return self.abuse.hit(time.monotonic())
