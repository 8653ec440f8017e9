"""The table service in-process: create, join, act, undo, take-over, cancel and expiry
through the service object itself, on a real database (SQLite and PostgreSQL, as every
server test: conftest.py), publishing through the in-process hub (a recording socket
stands for a browser). Each change must be stored:
a second runtime on the same database finds every table as the first one left it.

The real-server tests beside these (test_play.py, test_restart.py, ...) go through HTTP
and WebSockets; these reach the corners (refusals, timers) directly and quickly.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

import pytest
from wsclient import run_async

from skytotems.server import store
from skytotems.server.app import Runtime, running
from skytotems.server.errors import ServiceError
from skytotems.server.settings import Settings
from skytotems.server.table import Table

HUMAN = {"type": "human"}
OPEN = {"type": "open"}
BOT = {"type": "bot", "level": "random"}
TWO = {"players": 2}


class RecordingSocket:
    """A browser that reads everything at once and keeps it."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []

    async def accept(self) -> None:
        return None

    async def receive(self) -> dict[str, Any]:
        await asyncio.Event().wait()  # it never sends
        return {}

    async def send_text(self, data: str) -> None:
        self.received.append(json.loads(data))

    async def close(self, code: int = 1000) -> None:
        return None

    def notices(self) -> list[dict[str, Any]]:
        """The server's own events (player_joined, undone, ...) in every state received."""
        return [
            e
            for m in self.received
            if m["type"] == "state"
            for e in m["events"]
            if e["type"] in {"player_joined", "undone", "time_out", "taken_over",
                             "table_expired", "table_cancelled"}
        ]  # fmt: skip


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    run_async(asyncio.wait_for(scenario(), timeout=60))


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(db_url=db_url, static_dir=None, takeover_level="random")


@asynccontextmanager
async def watching(rt: Runtime, table: Table, player: int | None) -> AsyncIterator[RecordingSocket]:
    """A socket attached to the table's room in the hub, as `serve_socket` attaches one."""
    socket = RecordingSocket()
    conn = rt.hub.connect(socket, table.id, player)
    rt.hub.attach(conn)
    try:
        yield socket
    finally:
        rt.hub.detach(conn)


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def until(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


async def act_first_legal(rt: Runtime, table: Table, player: int, reply_to: object = None) -> None:
    seat = next(s for s in table.game.decision.seats if table.owner(s) == player)
    action = table.game.legal_actions(seat)[0]
    await rt.service.act(table, player, table.seq, action.to_json(), reply_to, "m1")


def pending_player(table: Table) -> int:
    return table.owner(table.game.decision.seats[0])


def test_create_join_act_are_stored_and_published_and_survive_a_restart(settings: Settings):
    async def scenario() -> None:
        async with running(settings) as rt:
            table, tokens = await rt.service.create(TWO, [HUMAN, OPEN], "none")
            assert table.status == "waiting" and [p for p, _ in tokens] == [0]
            assert table.player_by_token(tokens[0][1]) == 0
            with pytest.raises(ServiceError) as refused:
                await act_first_legal(rt, table, 0)
            assert refused.value.code == "waiting" and table.seq == 0
            async with watching(rt, table, 0) as seen:
                joined, player, token = await rt.service.join(table.id, "Bo")
                assert joined is table and player == 1 and table.status == "playing"
                assert table.player_by_token(token) == 1
                with pytest.raises(ServiceError) as full:
                    await rt.service.join(table.id, "Cy")
                assert (full.value.code, full.value.status) == ("table_full", 409)
                conn = next(iter(rt.hub.rooms[table.id]))
                await act_first_legal(rt, table, 0, reply_to=conn)
                await settle()
            assert table.seq == 1
            assert {"type": "player_joined", "player": 1, "name": "Bo"} in seen.notices()
            acked = [m for m in seen.received if m.get("ack") == "m1"]
            assert len(acked) == 1 and acked[0]["seq"] == 1
            await act_first_legal(rt, table, 1)  # both starting cards chosen: turns begin
            assert table.seq == 2 and table.game.decision.kind != "choose_start"
            mover = pending_player(table)
            seat = table.game.decision.seats[0]
            legal = table.game.legal_actions(seat)[0].to_json()
            with pytest.raises(ServiceError) as stale:
                await rt.service.act(table, mover, 1, legal)
            assert stale.value.code == "stale" and table.seq == 2
            with pytest.raises(ServiceError) as not_yours:
                await rt.service.act(table, 1 - mover, 2, legal)
            assert not_yours.value.code == "not_your_seat" and table.seq == 2
            with pytest.raises(ServiceError) as malformed:
                await rt.service.act(table, mover, 2, {"type": "fly"})
            assert malformed.value.code == "malformed_action" and table.seq == 2
            history = list(table.game.history)
            table_id = table.id
        async with running(settings) as again:
            back = await again.service.get(table_id)
            assert back is not table and back.status == "playing"
            assert (back.seq, list(back.game.history)) == (2, history)
            assert [p.kind for p in back.players] == ["human", "human"]
            assert back.player_by_token(token) == 1

    run(scenario)


async def play_until_undoable(rt: Runtime, table: Table, rng: random.Random) -> int:
    """Random legal moves until the player to move may undo; that player."""
    for _ in range(500):
        player = pending_player(table)
        if table.undo_floor(player) is not None:
            return player
        seat = table.game.decision.seats[0]
        action = rng.choice(table.game.legal_actions(seat))
        await rt.service.act(table, player, table.seq, action.to_json())
    raise AssertionError("no undoable position reached")


def test_undo_is_a_stored_entry_that_stops_at_the_turns_barrier(settings: Settings):
    async def scenario() -> None:
        async with running(settings) as rt:
            table, _ = await rt.service.create(TWO, [HUMAN, HUMAN], "none")
            player = await play_until_undoable(rt, table, random.Random(5))
            floor = table.undo_floor(player)
            assert floor is not None
            before = table.seq
            other = 1 - player
            with pytest.raises(ServiceError) as not_theirs:
                await rt.service.undo(table, other, table.seq, "last")
            assert not_theirs.value.code == "cannot_undo" and table.seq == before
            with pytest.raises(ServiceError) as stale:
                await rt.service.undo(table, player, table.seq - 1, "last")
            assert stale.value.code == "stale" and table.seq == before
            async with watching(rt, table, other) as seen:
                await rt.service.undo(table, player, table.seq, "turn")
                await settle()
            assert table.seq == before + 1 and len(table.steps) == floor
            assert table.undo_floor(player) is None  # back at the barrier: nothing more
            with pytest.raises(ServiceError) as nothing:
                await rt.service.undo(table, player, table.seq, "last")
            assert nothing.value.code == "cannot_undo" and table.seq == before + 1
            undone = [n for n in seen.notices() if n["type"] == "undone"]
            assert undone == [
                {"type": "undone", "player": player, "to_move": floor, "mode": "turn"}
            ]
            assert seen.received[-1]["reset"] is True
            state = (table.seq, list(table.game.history), table.id)
        async with running(settings) as again:
            back = await again.service.get(state[2])
            assert (back.seq, list(back.game.history)) == state[:2]
            assert len(back.steps) == floor

    run(scenario)


def test_a_clock_runs_out_then_the_other_player_hands_the_seat_to_a_bot(settings: Settings):
    fast = replace(settings, clock_scale=0.01)  # a 1.8 s bank

    async def scenario() -> None:
        async with running(fast) as rt:
            table, _ = await rt.service.create(TWO, [HUMAN, HUMAN], "fast")
            assert table.clocks is not None
            await act_first_legal(rt, table, 0)  # player 0's clock stops; player 1's runs
            async with watching(rt, table, 0) as seen:
                await until(lambda: {"type": "time_out", "player": 1} in seen.notices())
                assert table.clocks.out[1]  # kept in the table's state
                assert table.players[1].kind == "human"  # player 0 has time: no automatic one
                assert not table.clocks.expired(0, store.now_ms())
                refusals = (
                    (1, 0, "time_left"),
                    (0, 0, "takeover_self"),
                    (None, 1, "not_a_player"),
                    (0, 5, "no_such_player"),
                )
                for requester, target, code in refusals:
                    with pytest.raises(ServiceError) as refused:
                        await rt.service.takeover(table, requester, target)
                    assert refused.value.code == code
                await rt.service.takeover(table, 0, 1)
                await settle()
                assert (table.players[1].kind, table.players[1].level) == ("bot", "random")
                taken = {"type": "taken_over", "player": 1, "level": "random", "automatic": False}
                assert taken in seen.notices()
                # the bot makes player 1's starting choice by itself
                await until(lambda: table.game.decision.kind != "choose_start")
            table_id = table.id
        async with running(fast) as again:
            back = await again.service.get(table_id)
            assert (back.players[1].kind, back.players[1].level) == ("bot", "random")

    run(scenario)


def test_an_idle_sweep_that_comes_before_the_clocks_timer_still_announces_the_time_out(
    settings: Settings,
):
    """On a busy server the idle sweep may find every human out of time before the
    clocks' timer has run: the time-out is then stored and told with the abandonment."""
    fast = replace(settings, clock_scale=0.002)  # a 0.36 s bank

    async def scenario() -> None:
        async with running(fast) as rt:
            table, _ = await rt.service.create(TWO, [HUMAN, BOT], "fast")
            assert table.clocks is not None
            async with watching(rt, table, 0) as seen:
                time.sleep(0.6)  # the loop is held: the clocks' timer cannot run first
                assert await rt.service.abandon_if_idle(table)
                await settle()
                assert table.clocks.out[0]
                notices = seen.notices()
                timed_out = {"type": "time_out", "player": 0}
                assert timed_out in notices
                taken = {"type": "taken_over", "player": 0, "level": "random", "automatic": True}
                assert notices.index(timed_out) < notices.index(taken)
            table_id = table.id
        async with running(fast) as again:
            assert (await again.service.get(table_id)).clocks.out[0]  # type: ignore[union-attr]

    run(scenario)


def test_a_takeover_that_comes_before_the_clocks_timer_still_announces_the_time_out(
    settings: Settings,
):
    """A take-over may find its target out of time before the clocks' timer has run (a
    busy server, or a timer that fired a millisecond early): the time-out is told with it."""
    fast = replace(settings, clock_scale=0.002)  # a 0.36 s bank

    async def scenario() -> None:
        async with running(fast) as rt:
            table, _ = await rt.service.create(TWO, [HUMAN, HUMAN], "fast")
            assert table.clocks is not None
            await act_first_legal(rt, table, 0)  # player 0's clock stops; player 1's runs
            async with watching(rt, table, 0) as seen:
                time.sleep(0.6)  # the loop is held: the clocks' timer cannot run first
                assert not table.clocks.out[1]
                await rt.service.takeover(table, 0, 1)
                await settle()
                notices = seen.notices()
                timed_out = {"type": "time_out", "player": 1}
                assert timed_out in notices
                taken = {"type": "taken_over", "player": 1, "level": "random", "automatic": False}
                assert notices.index(timed_out) < notices.index(taken)

    run(scenario)


def test_when_every_human_is_out_of_time_bots_take_over_and_finish(settings: Settings):
    fast = replace(settings, clock_scale=0.001)

    async def scenario() -> None:
        async with running(fast) as rt:
            table, _ = await rt.service.create(TWO, [HUMAN, HUMAN], "fast")
            # a finished table leaves the open ones once its last entry is stored
            await until(lambda: table.id in rt.service.tables.finished, timeout=50)
            assert [p.kind for p in table.players] == ["bot", "bot"]
            assert table.status == "finished" and table.result is not None
            assert table.id not in rt.service.tables.active

    run(scenario)


def test_cancel_closes_a_waiting_table_for_good(settings: Settings):
    async def scenario() -> None:
        async with running(settings) as rt:
            table, _ = await rt.service.create(TWO, [HUMAN, OPEN], "none")
            async with watching(rt, table, None) as seen:
                await rt.service.cancel(table, 0)
                await settle()
            assert table.status == "expired" and table.id not in rt.service.tables.active
            assert {"type": "table_cancelled", "player": 0} in seen.notices()
            for attempt in (rt.service.cancel(table, 0), rt.service.join(table.id, "Bo")):
                with pytest.raises(ServiceError) as closed:
                    await attempt
                assert (closed.value.code, closed.value.status) == ("table_expired", 410)
            playing, _ = await rt.service.create(TWO, [HUMAN, HUMAN], "none")
            with pytest.raises(ServiceError) as started:
                await rt.service.cancel(playing, 0)
            assert (started.value.code, playing.status) == ("started", "playing")
            ids = table.id, playing.id
        async with running(settings) as again:
            assert (await again.service.get(ids[0])).status == "expired"
            assert (await again.service.get(ids[1])).status == "playing"
            assert (
                ids[0] not in again.service.tables.active and ids[1] in again.service.tables.active
            )

    run(scenario)


def test_a_table_still_waiting_after_the_expiry_time_is_closed_by_the_sweep(settings: Settings):
    quick = replace(settings, waiting_expiry_s=0.3)

    async def scenario() -> None:
        async with running(quick) as rt:
            waiting, _ = await rt.service.create(TWO, [HUMAN, OPEN], "none")
            async with watching(rt, waiting, 0) as seen:
                playing, _ = await rt.service.create(TWO, [HUMAN, HUMAN], "none")
                # the notice goes out once the expiry is stored
                await until(lambda: {"type": "table_expired"} in seen.notices(), timeout=10)
            assert waiting.status == "expired"
            assert (
                waiting.id not in rt.service.tables.active
                and playing.id in rt.service.tables.active
            )
            with pytest.raises(ServiceError) as closed:
                await rt.service.join(waiting.id, "Bo")
            assert closed.value.code == "table_expired"
            assert playing.status == "playing"
            waiting_id = waiting.id
        async with running(settings) as again:
            assert (await again.service.get(waiting_id)).status == "expired"

    run(scenario)


def test_a_table_of_bots_finishes_and_its_record_is_archived(settings: Settings):
    from skytotems import replay
    from skytotems.server import archive

    async def scenario() -> None:
        async with running(settings) as rt:
            bot = {"type": "bot", "level": "random"}
            table, tokens = await rt.service.create(TWO, [bot, bot], "none")
            assert tokens == [] and table.status == "playing"
            with pytest.raises(ServiceError) as early:
                archive.record(table)
            assert (early.value.code, early.value.status) == ("not_finished", 409)
            await until(lambda: table.id in rt.service.tables.finished, timeout=50)
            record = archive.record(table)
            assert replay(record).history == table.game.history
            listed = await rt.archive.finished(10)
            assert [t["id"] for t in listed] == [table.id]
            assert [p["place"] for p in archive.stats(table)] == table.result["places"]

    run(scenario)
