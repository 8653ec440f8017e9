"""The cross-process `Publisher`: changes reach the sockets of every server process.

With several processes on one PostgreSQL database (docs/scale-out.md), a change
committed by one process is shown at once to that process's own sockets (its hub), and
a small notification (the table, its seq, the server's notices; or that chat was said)
is published on one Redis pub/sub channel (those queued together in one message).
Every other process that holds the table reads what changed from the database by seq
(`TableService.catch_up`) and shows its sockets the new entries in seq order, nothing
skipped, nothing twice: Redis says "look", the database says what. A move's
notification also carries the move as stored (its log entry and the table columns it
set, `catchup.stored_change`): a process whose copy is at exactly the version before it
folds that in without reading the database. A notification that could not be sent
waits (one per table, merged) until Redis answers again; a process whose subscription
dropped (a Redis restart, a slow reader cut off) catches every table it holds up to the
database's head when it is subscribed again (Redis confirms each subscription).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import Any, NotRequired, TypedDict

import orjson
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from skytotems import Event

from .bus import Ack, Publisher
from .catchup import stored_change
from .service import TableService
from .table import Table

log = logging.getLogger("skytotems.server")

RETRY_MIN_S = 0.1  # how soon a lost Redis is tried again, doubling up to RETRY_MAX_S
RETRY_MAX_S = 2.0
OUTAGE_LOG_EVERY_S = 60.0  # while Redis stays away, one reminder in the log this often
# notifications sent in one pub/sub message: what a move costs the receiving process is
# mostly the client's work per message, so those queued together travel together
PER_MESSAGE = 100


class OutageLog:
    """The log of one Redis connection's outage: its first failure, a reminder every
    `every` seconds while it lasts and its end, not a line per retry (a process started
    with a Redis that does not answer used to log one every second or two)."""

    def __init__(self, what: str, every: float = OUTAGE_LOG_EVERY_S) -> None:
        self.what = what
        self.every = every
        self.since: float | None = None  # when the outage began (monotonic), None: none
        self.reminded = 0.0

    def failed(self, exc: BaseException, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        if self.since is None:
            self.since = self.reminded = now
            log.warning(
                "skytotems: Redis %s failed (%s); retrying every %g s at most, "
                "logged again every %g s while it lasts",
                self.what,
                exc,
                RETRY_MAX_S,
                self.every,
            )
        elif now - self.reminded >= self.every:
            self.reminded = now
            log.warning(
                "skytotems: Redis %s still failing after %.0f s (%s)",
                self.what,
                now - self.since,
                exc,
            )

    def succeeded(self, now: float | None = None) -> None:
        if self.since is not None:
            now = time.monotonic() if now is None else now
            log.warning("skytotems: Redis %s works again after %.0f s", self.what, now - self.since)
            self.since = None


class Notice(TypedDict):
    """One notification on the wire: table `t` changed (up to seq `s`) with the server's
    notices `n`, and/or chat was said there (`c`); from process `o`; `d`: the change
    itself, as stored (`catchup.stored_change`), when it is one move."""

    o: str
    t: str
    s: int
    n: list[dict[str, Any]]
    c: bool
    d: NotRequired[dict[str, Any] | None]


def merge(older: Notice, newer: Notice) -> Notice:
    """Two notifications of one table as one (the receiver reads up to the head anyway,
    so neither's change is sent along)."""
    return Notice(
        o=newer["o"],
        t=newer["t"],
        s=max(older["s"], newer["s"]),
        n=older["n"] + newer["n"],
        c=older["c"] or newer["c"],
    )


class Fanout:
    """Catches tables up as their notifications come, one table at a time each (so its
    entries are shown in seq order), notifications arriving meanwhile merged into one."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self._pending: dict[str, Notice] = {}
        self._running: dict[str, asyncio.Task[None]] = {}

    def notify(self, notice: Notice) -> None:
        table_id = notice["t"]
        if not self.service.tables.holds(table_id):
            return  # not held here: read fresh from the database when it is first asked
        older = self._pending.get(table_id)
        self._pending[table_id] = notice if older is None else merge(older, notice)
        if table_id not in self._running:
            self._running[table_id] = asyncio.create_task(self._run(table_id))

    def everything(self, origin: str) -> None:
        """Catch up every table held here (after a gap in the notifications)."""
        tables = self.service.tables
        for table_id in [*tables.active, *tables.finished]:
            self.notify(Notice(o=origin, t=table_id, s=0, n=[], c=True))

    async def _run(self, table_id: str) -> None:
        delay = RETRY_MIN_S
        try:
            while (notice := self._pending.pop(table_id, None)) is not None:
                try:
                    await self.service.catch_up(
                        table_id, notice["n"], notice["c"], notice["s"], change=notice.get("d")
                    )
                    delay = RETRY_MIN_S
                except Exception:  # the database is away: try again, notices kept
                    log.warning("skytotems: catching up table %s failed", table_id, exc_info=True)
                    later = self._pending.get(table_id)
                    self._pending[table_id] = notice if later is None else merge(notice, later)
                    await asyncio.sleep(delay)
                    delay = min(RETRY_MAX_S, delay * 2)
        finally:
            self._running.pop(table_id, None)

    async def close(self) -> None:
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


class RedisBus:
    """A `Publisher` for several processes: the local hub first, then Redis.

    `start(fanout)` begins sending and listening; `close()` ends both. Sending never
    holds up a move: notifications queue (merged per table) and go out in pipelines.
    """

    def __init__(self, url: str, channel: str, local: Publisher) -> None:
        self.local = local
        self.channel = channel
        self.origin = secrets.token_hex(8)  # this process: its own notifications are skipped
        self.redis = aioredis.from_url(
            url, socket_connect_timeout=2, socket_timeout=5, health_check_interval=5
        )
        self._outbox: dict[str, Notice] = {}
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._fanout: Fanout | None = None
        self.subscribed = asyncio.Event()  # set while the subscription is known to hold
        self.sent = 0
        self.received = 0

    # -------------------------------------------------------------- publishing

    def publish(
        self,
        table: Table,
        events: list[Event],
        server_events: list[dict[str, Any]],
        ack: Ack | None = None,
        reset: bool = False,
    ) -> None:
        self.local.publish(table, events, server_events, ack, reset)
        notice = Notice(o=self.origin, t=table.id, s=table.seq, n=server_events, c=False)
        written = None if reset else table.last_write
        change = None if written is None else stored_change(*written)
        if (
            change is not None
            and change["v"] == table.version
            and change["e"][-1]["seq"] == table.seq
        ):
            notice["d"] = change  # the change just stored: the others need not read it
        self._send(notice)

    def publish_chat(self, table: Table, message: dict[str, Any], ack: Ack | None = None) -> None:
        self.local.publish_chat(table, message, ack)
        self._send(Notice(o=self.origin, t=table.id, s=table.seq, n=[], c=True))

    def _send(self, notice: Notice) -> None:
        older = self._outbox.get(notice["t"])
        self._outbox[notice["t"]] = notice if older is None else merge(older, notice)
        self._wake.set()

    async def _sender(self) -> None:
        delay = RETRY_MIN_S
        outage = OutageLog("publishing")
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._outbox = self._outbox, {}
            if not batch:
                continue
            try:
                notices = list(batch.values())
                async with self.redis.pipeline(transaction=False) as pipe:
                    for start in range(0, len(notices), PER_MESSAGE):
                        pipe.publish(
                            self.channel, orjson.dumps(notices[start : start + PER_MESSAGE])
                        )
                    await pipe.execute()
                self.sent += len(batch)
                delay = RETRY_MIN_S
                outage.succeeded()
            except Exception as exc:  # whatever the client raises (see `_listener`)
                outage.failed(exc)  # the notifications wait, merged per table
                for table_id, notice in batch.items():  # older than what queued meanwhile
                    newer = self._outbox.get(table_id)
                    self._outbox[table_id] = notice if newer is None else merge(notice, newer)
                await asyncio.sleep(delay)
                delay = min(RETRY_MAX_S, delay * 2)
                self._wake.set()

    # --------------------------------------------------------------- listening

    async def _listener(self, fanout: Fanout) -> None:
        """Subscribe, and subscribe again after whatever the client raised: not only
        `RedisError`s (with uvloop, a connection whose transport Redis closed under it
        raises RuntimeError on its next write), since a listener that stopped would
        leave this process deaf to the others for good."""
        delay = RETRY_MIN_S
        outage = OutageLog("subscription")
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(self.channel)
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    if message["type"] == "subscribe":
                        # subscribed, or subscribed again after a drop (redis-py reconnects
                        # by itself): whatever was said meanwhile is read from the database
                        self.subscribed.set()
                        fanout.everything(self.origin)
                        delay = RETRY_MIN_S
                        outage.succeeded()
                    elif message["type"] == "message":
                        self._receive(fanout, message["data"])
            except Exception as exc:
                self.subscribed.clear()
                outage.failed(exc)  # subscribing again
                await asyncio.sleep(delay)
                delay = min(RETRY_MAX_S, delay * 2)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    def _receive(self, fanout: Fanout, data: bytes) -> None:
        """One message: a list of notifications (or, from an older process, one)."""
        try:
            loaded = orjson.loads(data)
            notices: list[Notice] = loaded if isinstance(loaded, list) else [loaded]
            for notice in notices:
                if notice["o"] == self.origin:
                    continue
                self.received += 1
                fanout.notify(notice)
        except (orjson.JSONDecodeError, KeyError, TypeError):
            log.warning("skytotems: unreadable notification on %s ignored", self.channel)

    async def ping(self) -> None:
        """Readiness (`readiness.Readiness.watch`): raises unless Redis answers now and
        this process's subscription holds."""
        await self.redis.execute_command("PING")  # type: ignore[no-untyped-call]
        if not self.subscribed.is_set():
            raise RedisError("not subscribed to the channel yet")

    async def reachable(self) -> bool:
        """Whether `ping` succeeds."""
        try:
            await self.ping()
        except (RedisError, OSError):
            return False
        return True

    # --------------------------------------------------------------- lifecycle

    def start(self, fanout: Fanout) -> None:
        """Send and listen from now on (Redis need not answer yet: both retry)."""
        self._fanout = fanout
        self._tasks = [
            asyncio.create_task(self._sender()),
            asyncio.create_task(self._listener(fanout)),
        ]

    async def close(self) -> None:
        """Send what is queued (briefly), then stop listening and close the connections."""
        if self._outbox:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(2.0):
                    while self._outbox and not self._tasks[0].done():
                        await asyncio.sleep(0.01)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._fanout is not None:
            await self._fanout.close()
        await self.redis.aclose()
