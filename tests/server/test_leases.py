"""In-process tests of the pieces of "Leases and arbitration" (docs/scale-out.md): the
guarded writes that make the database the arbiter of every change of a table, and the
advisory-lock leases, on real databases."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import text
from wsclient import run_async

from skytotems.server import store
from skytotems.server.leases import AdvisoryLeases, LeaseKeeper, LocalLeases, lease_key


def make_table(engine: Any, table_id: str, status: str = "playing") -> None:
    with engine.begin() as conn:
        deck = store.save_deck(conn, {"deck": 1})
        row = {
            "id": table_id,
            "created_ms": 0,
            "updated_ms": 0,
            "options": {},
            "deck_id": deck,
            "seed": 1,
            "status": status,
            "clock": "none",
        }
        seat = {"player": 0, "name": "A", "kind": "human", "level": None, "token_hash": None}
        store.insert_table(conn, row, [seat])


def entry(table_id: str, seq: int) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seq": seq,
        "player": 0,
        "kind": "action",
        "data": {"seq": seq},
        "at_ms": 0,
    }


async def two_writers(db_url: str, first: store.Write, second: store.Write) -> list[Any]:
    """The same table changed by two writers (as two processes would) at once."""
    engines = [store.make_engine(db_url) for _ in range(2)]
    writers = [store.Writer(e) for e in engines]
    loop = asyncio.get_running_loop()
    for w in writers:
        w.start(loop)
    try:
        futures = [writers[0].submit(first), writers[1].submit(second)]
        return list(await asyncio.gather(*futures, return_exceptions=True))
    finally:
        for w in writers:
            await asyncio.to_thread(w.stop)
        for e in engines:
            e.dispose()


def test_of_two_guarded_changes_from_one_version_exactly_one_is_stored(db_url: str):
    engine = store.make_engine(db_url)
    store.migrate(engine)
    make_table(engine, "t1")
    make_table(engine, "t2")
    for round_ in range(5):
        a = store.Write(guard=store.Guard("t1", round_, {"updated_ms": 1}))
        b = store.Write(guard=store.Guard("t1", round_, {"updated_ms": 2}))
        outcomes = run_async(two_writers(db_url, a, b))
        conflicts = [o for o in outcomes if isinstance(o, store.Conflict)]
        assert len(conflicts) == 1, outcomes
    # a move: the log entry and the guard together; a duplicate seq is a Conflict too
    a = store.Write((entry("t2", 1),), guard=store.Guard("t2", 0))
    b = store.Write((entry("t2", 1),))
    outcomes = run_async(two_writers(db_url, a, b))
    assert sum(isinstance(o, store.Conflict) for o in outcomes) == 1, outcomes
    with engine.connect() as conn:
        assert store.table_version(conn, "t1") == 5
        assert conn.execute(text("SELECT count(*) FROM actions")).scalar() == 1
        # the heartbeat's write: stored only on the current version, not counted
        assert store.store_if_current(conn, "t1", 5, updated_ms=9)
        assert not store.store_if_current(conn, "t1", 4, updated_ms=10)
        assert store.table_version(conn, "t1") == 5
    engine.dispose()


def test_a_conflict_in_a_group_commit_sinks_only_its_own_write(db_url: str):
    """A group commit whose one write is outdated stores all the others."""
    engine = store.make_engine(db_url)
    store.migrate(engine)
    for t in ("g1", "g2", "g3"):
        make_table(engine, t)

    async def scenario() -> list[Any]:
        writer = store.Writer(engine)
        writer.start(asyncio.get_running_loop())
        writes = [
            store.Write((entry("g1", 1),), guard=store.Guard("g1", 0)),
            store.Write((entry("g2", 1),), guard=store.Guard("g2", 7)),  # outdated
            store.Write((entry("g3", 1),), guard=store.Guard("g3", 0, {"updated_ms": 3})),
        ]
        futures = [writer.submit(w) for w in writes]
        try:
            return list(await asyncio.gather(*futures, return_exceptions=True))
        finally:
            await asyncio.to_thread(writer.stop)

    outcomes = run_async(scenario())
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], store.Conflict)
    with engine.connect() as conn:
        seqs = conn.execute(text("SELECT table_id FROM actions ORDER BY table_id")).scalars()
        assert list(seqs) == ["g1", "g3"]
    engine.dispose()


class Recorder:
    """A lease holder that notes what the keeper tells it."""

    def __init__(self) -> None:
        self.adopted: list[str] = []
        self.versions: dict[str, int] = {}
        self.lost = 0

    async def adopt(self, table_id: str) -> None:
        self.adopted.append(table_id)

    async def refresh(self, open_versions: dict[str, int]) -> None:
        self.versions = dict(open_versions)

    def leases_lost(self) -> None:
        self.lost += 1


def test_advisory_leases_one_holder_at_a_time_and_taken_over_when_it_is_gone(
    postgres_url: str,
):
    engine = store.make_engine(postgres_url)
    store.migrate(engine)
    make_table(engine, "open1")
    make_table(engine, "open2", status="waiting")
    make_table(engine, "done", status="finished")

    async def scenario() -> None:
        first, second = AdvisoryLeases(engine), AdvisoryLeases(engine)
        one, two = Recorder(), Recorder()
        keeper_one = LeaseKeeper(first, one, 60)
        keeper_two = LeaseKeeper(second, two, 60)
        await keeper_one.tick()
        assert sorted(one.adopted) == ["open1", "open2"]  # the open tables, not "done"
        assert first.holds("open1") and not first.holds("done")
        await keeper_two.tick()
        assert two.adopted == [] and not second.holds("open1")
        assert two.versions == {"open1": 0, "open2": 0}  # caught up all the same
        assert await second.acquire(["open1"]) == []
        # a table that closes frees its lease at the next survey
        with engine.begin() as conn:
            store.update_table(conn, "open2", status="expired")
        await keeper_one.tick()
        assert first.holds("open1") and not first.holds("open2")
        # the holder's connection dies (as with kill -9): the other one takes over
        with engine.begin() as conn:
            pids = conn.execute(
                text("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid::bigint = :k"),
                {"k": lease_key("open1")},
            ).scalars()
            for pid in list(pids):
                conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
        await keeper_one.tick()  # its survey fails: it stops driving
        assert one.lost == 1 and not first.holds("open1")
        await keeper_two.tick()
        assert two.adopted == ["open1"] and second.holds("open1")
        await keeper_one.tick()  # back, reconnected: the lease is the other's now
        assert not first.holds("open1") and one.adopted == ["open1", "open2"]
        await keeper_one.close()
        await keeper_two.close()
        assert not second.holds("open1")
        # a clean stop frees its leases before it ends: the next process has them at once
        third = AdvisoryLeases(engine)
        assert await third.acquire(["open1"]) == ["open1"]
        await third.close()

    run_async(scenario())
    engine.dispose()


def test_one_process_on_sqlite_drives_every_table():
    leases = LocalLeases()
    assert leases.holds("any") and run_async(leases.acquire(["a", "b"])) == ["a", "b"]
    assert run_async(leases.survey()) is None


@pytest.mark.parametrize("table_id", ["a", "x" * 32, "Zx9_-"])
def test_lease_keys_fit_a_postgresql_integer(table_id: str):
    assert 0 <= lease_key(table_id) < 2**31
