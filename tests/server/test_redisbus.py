"""The Redis bus in process: two server runtimes in one event loop, on one PostgreSQL
database and a Redis channel of this test, stand for two processes. What one changes
(a join, moves, an undo, chat), the other's copy of the table catches up from the
database, and its sockets are shown each entry once, in seq order (docs/scale-out.md)."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import replace
from typing import Any

import orjson
import pytest
from redis.asyncio.client import Pipeline, PubSub
from sqlalchemy import event
from wsclient import run_async

from private_redis import PrivateRedis
from skytotems.server import Settings
from skytotems.server.app import Runtime, running
from skytotems.server.hub import Conn
from skytotems.server.redisbus import OutageLog
from skytotems.server.table import Table


class Collecting:
    """A socket that keeps what it is sent (the hub's side of a WebSocket)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def accept(self) -> None: ...
    async def receive(self) -> dict[str, Any]:
        await asyncio.Event().wait()
        return {}

    async def send_text(self, data: str) -> None:
        self.sent.append(orjson.loads(data))

    async def close(self, code: int = 1000) -> None: ...


async def until(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.02)


def settings(db_url: str, redis_url: str, channel: str) -> Settings:
    return Settings(db_url=db_url, redis_url=redis_url, redis_channel=channel, static_dir=None)


def watch(rt: Runtime, table: Table, player: int | None) -> Collecting:
    socket = Collecting()
    rt.hub.attach(Conn(socket, table.id, player, 256))
    return socket


def sent_states(socket: Collecting) -> list[dict[str, Any]]:
    return [m for m in socket.sent if m["type"] == "state"]


def shown(socket: Collecting, seq: int) -> bool:
    """Whether `socket` was sent the state at `seq`: the hub queues it as the copy
    catches up, and the socket's send task writes it afterwards, so a copy at `seq`
    does not yet say that its sockets were shown it."""
    return any(s["seq"] == seq for s in sent_states(socket))


def test_what_one_process_changes_the_other_catches_up_in_seq_order(
    postgres_url: str, redis_url: str, redis_channel: str
):
    async def scenario() -> None:
        async with AsyncExitStack() as stack:
            a, b = [
                await stack.enter_async_context(
                    running(settings(postgres_url, redis_url, redis_channel))
                )
                for _ in range(2)
            ]
            assert a.bus is not None and b.bus is not None
            await until(lambda: a.bus.subscribed.is_set() and b.bus.subscribed.is_set())
            table_a, _ = await a.service.create(
                {"players": 2}, [{"type": "human"}, {"type": "open"}], "none"
            )
            table_b = await b.service.get(table_a.id)  # B holds it from now on
            seen = watch(b, table_b, None)
            # a join through A: B's copy has the player, and its sockets the notice
            await a.service.join(table_a.id, "Ada")
            await until(lambda: table_b.status == "playing")
            assert table_b.players[1].name == "Ada" and table_b.players[1].kind == "human"
            # moves through A, one at a time: B shows each once, in seq order
            for _ in range(8):
                seat = table_a.game.decision.seats[0]
                action = table_a.game.legal_actions(seat)[0]
                await a.service.play(table_a, seat, table_a.seq, action)
            await until(lambda: table_b.seq == table_a.seq)
            # an undo through A: B starts its sockets again from the view
            mover = table_a.owner(table_a.game.decision.seats[0])
            if table_a.undo_floor(mover) is None:
                seat = table_a.game.decision.seats[0]
                await a.service.play(
                    table_a, mover, table_a.seq, table_a.game.legal_actions(seat)[0]
                )
            await a.service.undo(table_a, mover, table_a.seq, "last")
            await until(lambda: table_b.seq == table_a.seq)
            assert table_b.game.history == table_a.game.history
            # chat through A reaches B's sockets, once
            await a.service.say(table_a, 0, "hi from A", None, object())
            await until(lambda: any(m["type"] == "chat" for m in seen.sent))
            await asyncio.sleep(0.3)  # nothing more is on its way
            states = [m for m in seen.sent if m["type"] == "state"]
            seqs = [s["seq"] for s in states]
            assert seqs == sorted(seqs) and seqs[-1] == table_a.seq
            notices = [e["type"] for s in states for e in s["events"]]
            assert notices.count("player_joined") == 1 and notices.count("undone") == 1
            # the undo's entry starts the view again (its notice may come in a state of
            # its own, when the entry was read along with an earlier notification's)
            assert any(s.get("reset") for s in states if s["seq"] == table_a.seq)
            assert states[-1]["view"]["move"] == len(table_a.steps)
            chat = [m["message"]["text"] for m in seen.sent if m["type"] == "chat"]
            assert chat == ["hi from A"]
            # B's copy is at the stored version: its own next move is stored at once,
            # on this copy (not refused as made on an outdated one and read back)
            assert table_b.version == table_a.version
            seat = table_b.game.decision.seats[0]
            await b.service.play(table_b, seat, table_b.seq, table_b.game.legal_actions(seat)[0])
            assert b.service.tables.held(table_b.id) is table_b
            await until(lambda: table_a.seq == table_b.seq)

    run_async(scenario())


def test_a_move_sent_along_with_its_notification_is_folded_without_reading_it_back(
    postgres_url: str, redis_url: str, redis_channel: str
):
    """A game with clocks played to its end through A, one move at a time: B's copy,
    at the version each move was made on, folds the move sent with its notification and
    reads no log entry back from the database (benchmarks/load.py: those reads cost more
    CPU than the move), and ends equal to A's: log, status, result, clocks, version.
    (The lease survey, which also catches copies up from the database, is kept out of
    the way: a survey between a commit and its notification would read it back.)"""

    async def scenario() -> None:
        config = replace(settings(postgres_url, redis_url, redis_channel), lease_poll_s=600.0)
        async with AsyncExitStack() as stack:
            a, b = [await stack.enter_async_context(running(config)) for _ in range(2)]
            assert a.bus is not None and b.bus is not None
            await until(lambda: a.bus.subscribed.is_set() and b.bus.subscribed.is_set())
            table_a, _ = await a.service.create(
                {"players": 2}, [{"type": "human"}, {"type": "human"}], "normal"
            )
            table_b = await b.service.get(table_a.id)
            seen = watch(b, table_b, 1)
            reads: list[str] = []

            def count(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
                if "FROM actions" in statement:
                    reads.append(statement)

            event.listen(b.service.tables.engine, "before_cursor_execute", count)
            rng = random.Random(3)
            while not table_a.game.is_over:
                seat = rng.choice(table_a.game.decision.seats)
                action = rng.choice(table_a.game.legal_actions(seat))
                await a.service.play(table_a, table_a.owner(seat), table_a.seq, action)
                await until(lambda: table_b.seq == table_a.seq and shown(seen, table_a.seq))
            event.remove(b.service.tables.engine, "before_cursor_execute", count)
            assert reads == []
            assert b.service.tables.held(table_a.id) in (table_b, None)  # never read back
            assert table_b.game.history == table_a.game.history
            assert (table_b.status, table_b.result, table_b.version) == (
                "finished",
                table_a.result,
                table_a.version,
            )
            assert table_b.clocks is not None and table_a.clocks is not None
            assert table_b.clocks.to_json() == table_a.clocks.to_json()
            sent = sent_states(seen)
            seqs = [s["seq"] for s in sent]
            assert seqs == list(range(table_a.seq - len(seqs) + 1, table_a.seq + 1))
            assert sent[-1]["status"] == "finished" and not any(s.get("reset") for s in sent)

    run_async(scenario())


# what redis-py raises under uvloop when it writes to a connection whose transport Redis
# closed under it (seen in a loaded run of test_scaleout_bus's Redis restart)
CLOSED_TRANSPORT = (
    "unable to perform operation on <TCPTransport closed=True reading=False>; the handler is closed"
)


def test_the_bus_listens_and_sends_again_after_any_error_of_the_redis_client(
    postgres_url: str, redis_url: str, redis_channel: str, monkeypatch: pytest.MonkeyPatch
):
    """Each listener and one sender get a RuntimeError from the client once (not a
    RedisError): each subscribes again and the sender sends again, so a change made
    through either process still reaches the other (a listener that ended was deaf for
    good: process B never caught up after Redis came back). The lease survey is kept
    out of the way: it would catch the copies up without the bus."""
    failed: set[int] = set()
    get_message = PubSub.get_message
    execute = Pipeline.execute

    async def failing_once(pubsub: PubSub, *args: Any, **kwargs: Any) -> Any:
        if len(failed) < 2 and id(pubsub) not in failed:  # the first two: A's and B's
            failed.add(id(pubsub))
            raise RuntimeError(CLOSED_TRANSPORT)
        return await get_message(pubsub, *args, **kwargs)

    async def failing_first(pipe: Pipeline, *args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(Pipeline, "execute", execute)
        raise RuntimeError(CLOSED_TRANSPORT)

    async def scenario() -> None:
        config = replace(settings(postgres_url, redis_url, redis_channel), lease_poll_s=600.0)
        async with AsyncExitStack() as stack:
            a, b = [await stack.enter_async_context(running(config)) for _ in range(2)]
            assert a.bus is not None and b.bus is not None
            await until(lambda: a.bus.subscribed.is_set() and b.bus.subscribed.is_set())
            table_a, _ = await a.service.create(
                {"players": 2}, [{"type": "human"}, {"type": "open"}], "none"
            )
            table_b = await b.service.get(table_a.id)
            seen = watch(b, table_b, None)
            monkeypatch.setattr(PubSub, "get_message", failing_once)
            await until(lambda: len(failed) == 2)
            await a.service.join(table_a.id, "Ada")
            await until(lambda: table_b.seq == table_a.seq and shown(seen, table_a.seq))
            assert table_b.players[1].name == "Ada"
            monkeypatch.setattr(Pipeline, "execute", failing_first)  # B's next notification
            seat = table_b.game.decision.seats[0]
            await b.service.play(table_b, seat, table_b.seq, table_b.game.legal_actions(seat)[0])
            await until(lambda: table_a.seq == table_b.seq)

    run_async(scenario())


def test_without_redis_the_lease_survey_catches_a_copy_up_with_events(postgres_url: str):
    """Two processes on one database and no Redis: what one stores, the other's survey
    (every lease_poll_s) folds into its copy, and its sockets get the moves' events in
    seq order, never a reset, as with the bus (docs/scale-out.md)."""

    async def scenario() -> None:
        config = Settings(db_url=postgres_url, static_dir=None, lease_poll_s=0.1)
        async with AsyncExitStack() as stack:
            a, b = [await stack.enter_async_context(running(config)) for _ in range(2)]
            table_a, _ = await a.service.create(
                {"players": 2}, [{"type": "human"}, {"type": "open"}], "none"
            )
            await a.service.join(table_a.id, "Ada")
            table_b = await b.service.get(table_a.id)
            seen = watch(b, table_b, None)
            for _ in range(4):
                seat = table_a.game.decision.seats[0]
                action = table_a.game.legal_actions(seat)[0]
                await a.service.play(table_a, seat, table_a.seq, action)
            held = b.service.tables.held
            await until(
                lambda: (
                    getattr(held(table_a.id), "seq", None) == table_a.seq
                    and shown(seen, table_a.seq)
                )
            )
            assert held(table_a.id) is table_b  # caught up, not read back
            assert table_b.version == table_a.version
            sent = sent_states(seen)
            assert sent and not any(s.get("reset") for s in sent)
            seqs = [s["seq"] for s in sent]
            assert seqs == sorted(seqs) and seqs[-1] == table_a.seq
            assert sum(len(s["events"]) for s in sent) > 0

    run_async(scenario())


def test_the_bus_says_whether_redis_answers(
    postgres_url: str, restartable_redis: PrivateRedis, caplog: pytest.LogCaptureFixture
):
    """...and logs an outage once as it begins and once as it ends, not at every retry
    (a process whose Redis did not answer logged a line every second or two)."""

    def outage_lines() -> list[str]:
        return [r.getMessage() for r in caplog.records if "Redis subscription" in r.getMessage()]

    async def scenario() -> None:
        async with running(settings(postgres_url, restartable_redis.url, "readiness")) as rt:
            assert rt.bus is not None
            await until(rt.bus.subscribed.is_set)
            assert await rt.bus.reachable()
            restartable_redis.stop()
            assert not await rt.bus.reachable()
            await asyncio.sleep(4.0)  # retries after 0.1, 0.2, 0.4, 0.8, 1.6 s and more
            assert len(outage_lines()) == 1 and "failed" in outage_lines()[0], outage_lines()
            restartable_redis.start()
            deadline = time.monotonic() + 20
            while not await rt.bus.reachable():
                assert time.monotonic() < deadline
                await asyncio.sleep(0.05)
            assert len(outage_lines()) == 2 and "works again" in outage_lines()[1]

    with caplog.at_level("WARNING", logger="skytotems.server"):
        run_async(scenario())


def test_a_long_outage_is_recalled_now_and_then() -> None:
    """`OutageLog` on a clock of its own: one line as it begins, one reminder per period,
    one line as it ends; a new outage starts over."""
    lines: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(record.getMessage())  # type: ignore[method-assign]
    logger = logging.getLogger("skytotems.server")
    logger.addHandler(handler)
    try:
        outage = OutageLog("subscription", every=60.0)
        outage.succeeded(now=0.0)  # no outage: nothing to say
        for second in range(0, 150):
            outage.failed(ConnectionError("refused"), now=float(second))
        outage.succeeded(now=150.0)
        outage.failed(ConnectionError("refused"), now=200.0)
    finally:
        logger.removeHandler(handler)
    assert [line.split(" (")[0] for line in lines] == [
        "skytotems: Redis subscription failed",
        "skytotems: Redis subscription still failing after 60 s",
        "skytotems: Redis subscription still failing after 120 s",
        "skytotems: Redis subscription works again after 150 s",
        "skytotems: Redis subscription failed",
    ]
