"""Two table services on one database in one test (as two server processes would be),
changing the same table at once: every change is guarded by the stored table, so
exactly one of two conflicting changes is stored and the other is tried again on the
table as stored (docs/scale-out.md, "Leases and arbitration"). SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest
from test_service import HUMAN, OPEN, TWO, act_first_legal, run
from wsclient import db_rows

from skytotems.server.app import running
from skytotems.server.errors import ServiceError
from skytotems.server.settings import Settings


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(db_url=db_url, static_dir=None, takeover_level="random")


def outcome(result: Any) -> str:
    return result.code if isinstance(result, ServiceError) else "ok"


def test_a_cancel_and_a_join_at_once_on_two_services_one_of_them_is_stored(
    settings: Settings, db_url: str
):
    async def scenario() -> None:
        async with running(settings) as a, running(settings) as b:
            for _ in range(4):
                table, _ = await a.service.create(TWO, [HUMAN, OPEN], "none")
                await b.service.get(table.id)  # both hold a copy of the waiting table
                results = await asyncio.gather(
                    a.service.cancel(table, 0),
                    b.service.join(table.id, "Bo"),
                    return_exceptions=True,
                )
                outcomes = sorted(outcome(r) for r in results)
                assert outcomes in (["ok", "started"], ["ok", "table_expired"]), results
                status, kind = db_rows(
                    db_url,
                    "SELECT t.status, s.kind FROM tables t JOIN seats s ON s.table_id = t.id"
                    " WHERE t.id = :id AND s.player = 1",
                    id=table.id,
                )[0]
                if outcome(results[0]) == "ok":  # cancelled: nobody sits there
                    assert (status, kind) == ("expired", "open")
                else:
                    assert (status, kind) == ("playing", "human")
                for service in (a.service, b.service):
                    assert (await service.committed(table.id)).status == status

    run(scenario)


def test_two_take_overs_of_one_seat_on_two_services_one_is_stored(settings: Settings):
    """Players 0 (on one service) and 1 (on the other) hand player 2, out of time, to a
    bot at the same moment: one take-over is stored, the other is refused."""
    # a 180 s bank lasts 0.9 s; the table is not abandoned, however slow the machine
    fast = replace(settings, clock_scale=0.005, idle_clock_limits=1000.0)

    async def scenario() -> None:
        async with running(fast) as a, running(fast) as b:
            three = {"players": 3}
            table, _ = await a.service.create(three, [HUMAN, HUMAN, HUMAN], "fast")
            await act_first_legal(a, table, 0)
            await act_first_legal(a, table, 1)  # only player 2 is to move: its clock runs
            await asyncio.sleep(1.3)
            other = await b.service.committed(table.id)
            results = await asyncio.gather(
                a.service.takeover(await a.service.committed(table.id), 0, 2),
                b.service.takeover(other, 1, 2),
                return_exceptions=True,
            )
            assert sorted(outcome(r) for r in results) == ["not_takeable", "ok"], results
            for service in (a.service, b.service):
                fresh = await service.committed(table.id)
                assert fresh.players[2].kind == "bot"

    run(scenario)


def test_an_outdated_copys_heartbeat_stores_nothing(settings: Settings, db_url: str):
    async def scenario() -> None:
        async with running(settings) as a, running(settings) as b:
            table, _ = await a.service.create(TWO, [HUMAN, HUMAN], "normal")
            await b.service.get(table.id)
            await act_first_legal(a, table, 0)  # stored by A: B's copy is outdated
            stored_before = db_rows(db_url, "SELECT clocks FROM tables WHERE id = :id", id=table.id)
            await asyncio.sleep(0.01)
            await b.service.store_heartbeat()
            stored_after = db_rows(db_url, "SELECT clocks FROM tables WHERE id = :id", id=table.id)
            assert stored_after == stored_before
            await a.service.store_heartbeat()  # the current copy's heartbeat is stored
            alive = db_rows(db_url, "SELECT clocks FROM tables WHERE id = :id", id=table.id)
            assert alive[0][0]["alive"] > stored_before[0][0]["alive"]

    run(scenario)
