"""Leases: which process drives a table's bots and clocks (exactly one at a time).

With several processes on one PostgreSQL database, the lease of a table is a
session-level advisory lock held on a connection of its own (`AdvisoryLeases`): when the
holder dies, even by kill -9, its connection closes and PostgreSQL frees every lock it
held; the other processes find those tables without a holder at their next survey
(`LeaseKeeper`, every `lease_poll_s`) and one of them takes them over. A lease only says
who should do the work: every change it leads to is still a guarded write
(`store.Guard`), so a process that lost its lease without knowing it yet can never store
a second move for one seq (the fencing of DESIGN.md §4).

One process on SQLite holds every lease (`LocalLeases`): today's behaviour.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol, TypeVar

from sqlalchemy import Connection, Engine, text

log = logging.getLogger("skytotems.server")
T = TypeVar("T")

# First key of every table lease (two-int4 advisory locks); the second is `lease_key`.
LEASE_NAMESPACE = 0x5B7_1EA5


@lru_cache(maxsize=1 << 16)
def lease_key(table_id: str) -> int:
    """The advisory lock key of a table: 31 bits of a hash of its id (two tables may
    share one; the holder of that key then drives both). Kept: it is asked on every
    change of every table (py-spy: 2.5 % of the event loop under load)."""
    return int.from_bytes(hashlib.sha256(table_id.encode()).digest()[:4], "big") & 0x7FFF_FFFF


@dataclass(frozen=True, slots=True)
class Survey:
    """One look at the database: every open table's id and version (waiting or
    playing), and the lease keys other processes hold now."""

    open_tables: dict[str, int]
    held_elsewhere: set[int]


class Leases(Protocol):
    """Which tables this process drives."""

    def holds(self, table_id: str) -> bool:
        """Whether this process drives `table_id`'s bots and clocks now."""

    @property
    def count(self) -> int:
        """How many lease keys this process holds (a metric)."""

    async def acquire(self, table_ids: Iterable[str]) -> list[str]:
        """Try to take the leases of `table_ids`; returns those now held."""

    async def survey(self) -> Survey | None:
        """The open tables and the leases held by others (None: every lease is local)."""

    async def release_except(self, keep: set[str]) -> None:
        """Give up every lease whose key none of the table ids `keep` has."""

    def drop_all(self) -> None:
        """Forget every lease (the connection that held them is gone)."""

    async def close(self) -> None:
        """Free every lease (at shutdown)."""


class LocalLeases:
    """One process alone (SQLite): it drives every table."""

    count = 0

    def holds(self, table_id: str) -> bool:
        return True

    async def acquire(self, table_ids: Iterable[str]) -> list[str]:
        return list(table_ids)

    async def survey(self) -> Survey | None:
        return None

    async def release_except(self, keep: set[str]) -> None:
        return None

    def drop_all(self) -> None:
        return None

    async def close(self) -> None:
        return None


_SURVEY_TABLES = text("SELECT id, version FROM tables WHERE status IN ('waiting', 'playing')")
_SURVEY_LOCKS = text(
    "SELECT objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND granted"
    " AND classid::bigint = :ns AND objsubid = 2 AND pid <> pg_backend_pid()"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)
_TRY_LOCK = text(
    "SELECT k FROM unnest(CAST(:keys AS integer[])) AS k WHERE pg_try_advisory_lock(:ns, k)"
)
_UNLOCK = text("SELECT pg_advisory_unlock(:ns, k) FROM unnest(CAST(:keys AS integer[])) AS k")


class AdvisoryLeases:
    """Leases as PostgreSQL session-level advisory locks on one connection of their own.

    The connection is used from one thread (SQLAlchemy connections are not thread-safe);
    if it breaks, every lease is lost with it (PostgreSQL freed the locks) and the next
    survey connects again.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.held: set[int] = set()
        self._conn: Connection | None = None
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="skytotems-leases")

    @property
    def count(self) -> int:
        return len(self.held)

    def holds(self, table_id: str) -> bool:
        return lease_key(table_id) in self.held

    async def _run(self, fn: Callable[[Connection], T]) -> T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._thread, self._call, fn)
        except Exception:
            self.drop_all()
            raise

    def _call(self, fn: Callable[[Connection], T]) -> T:
        if self._conn is None:
            self._conn = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        return fn(self._conn)

    async def acquire(self, table_ids: Iterable[str]) -> list[str]:
        ids = list(table_ids)
        wanted = sorted({lease_key(t) for t in ids} - self.held)
        if wanted:
            params = {"ns": LEASE_NAMESPACE, "keys": wanted}
            got = await self._run(lambda c: c.execute(_TRY_LOCK, params).scalars().all())
            self.held.update(int(k) for k in got)
        return [t for t in ids if lease_key(t) in self.held]

    async def survey(self) -> Survey | None:
        def read(conn: Connection) -> Survey:
            tables = {str(r[0]): int(r[1]) for r in conn.execute(_SURVEY_TABLES)}
            locks = conn.execute(_SURVEY_LOCKS, {"ns": LEASE_NAMESPACE}).scalars()
            return Survey(tables, {int(k) for k in locks})

        return await self._run(read)

    async def release_except(self, keep: set[str]) -> None:
        stale = sorted(self.held - {lease_key(t) for t in keep})
        if stale:
            params = {"ns": LEASE_NAMESPACE, "keys": stale}
            await self._run(lambda c: c.execute(_UNLOCK, params).all())
            self.held.difference_update(stale)

    def drop_all(self) -> None:
        self.held.clear()
        conn, self._conn = self._conn, None
        if conn is not None:
            self._thread.submit(_close_quietly, conn)

    async def close(self) -> None:
        self.held.clear()
        conn, self._conn = self._conn, None
        if conn is not None:
            await asyncio.get_running_loop().run_in_executor(self._thread, _release_all, conn)
        self._thread.shutdown(wait=False)


def _release_all(conn: Connection) -> None:
    """Free every lease before the connection closes: a server process ends its session
    some time after the client leaves, and a process started next (a restart) must find
    the tables free at its first survey."""
    with contextlib.suppress(Exception):
        conn.execute(text("SELECT pg_advisory_unlock_all()"))
    _close_quietly(conn)


def _close_quietly(conn: Connection) -> None:
    with contextlib.suppress(Exception):
        conn.invalidate()  # never back to the pool: its session held the locks
        conn.close()


class LeaseHolder(Protocol):
    """What the keeper tells (the table service)."""

    async def adopt(self, table_id: str) -> None:
        """The lease of `table_id` was just taken: load it, resume its clocks, drive it."""

    async def refresh(self, open_versions: dict[str, int]) -> None:
        """The open tables' stored versions: bring the copies in memory up to date."""

    def leases_lost(self) -> None:
        """Every lease was lost: stop driving the tables."""


class LeaseKeeper:
    """Every `period` s: take the leases of open tables nobody holds, free those of
    tables closed since, and catch the tables in memory up with the database."""

    def __init__(self, leases: Leases, holder: LeaseHolder, period: float) -> None:
        self.leases = leases
        self.holder = holder
        self.period = period
        self.surveys = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        await self.leases.close()

    async def _loop(self) -> None:
        while True:  # (the first survey is made by whoever starts the keeper)
            await asyncio.sleep(self.period)
            await self.tick()

    async def tick(self) -> None:
        """One survey (the tests call it directly)."""
        had = self.leases.count
        try:
            survey = await self.leases.survey()
            if survey is None:
                return
            self.surveys += 1
            orphans = [
                t
                for t in survey.open_tables
                if not self.leases.holds(t) and lease_key(t) not in survey.held_elsewhere
            ]
            gained = await self.leases.acquire(orphans) if orphans else []
            await self.leases.release_except(set(survey.open_tables))
        except Exception as exc:
            log.warning("skytotems: the table leases could not be checked: %s", exc)
            if had:
                self.holder.leases_lost()
            return
        await _each(self.holder.adopt, gained)
        await self.holder.refresh(survey.open_tables)


async def _each(fn: Callable[[str], Awaitable[Any]], items: list[str]) -> None:
    """`fn` of every item at once (their reads overlap, their writes share group commits)."""

    async def one(item: str) -> None:
        try:
            await fn(item)
        except Exception:
            log.exception("skytotems: taking over table %s failed", item)

    await asyncio.gather(*(one(item) for item in items))
