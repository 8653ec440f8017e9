"""Readiness: whether this process can serve play now, for a load balancer or orchestrator.

Liveness (`/api/health`) only says the process answers; readiness (`/api/ready`) also
asks every service a move needs: the database (a `SELECT 1` on a fresh pooled
connection) and every other dependency registered with `watch` (the Redis client, when
the server has one: anything with an async `ping`). A check that fails or takes longer
than `timeout_s` makes the process unready, with the reason; nothing is cached, so the
answer turns back to ready by itself once the service is back.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from sqlalchemy import Engine, text

DEFAULT_TIMEOUT_S = 3.0


class Pingable(Protocol):
    """A client of a service that answers a ping (redis-py's asyncio client does)."""

    async def ping(self) -> Any: ...


class Readiness:
    """The checks behind `/api/ready`: the database, then every watched service."""

    def __init__(self, engine: Engine, timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        self.engine = engine
        self.timeout_s = timeout_s
        self.watched: dict[str, Pingable] = {}

    def watch(self, name: str, client: Pingable) -> None:
        """Include `client`'s ping in every readiness check, reported under `name`."""
        self.watched[name] = client

    async def check(self) -> dict[str, str]:
        """Each dependency's state: "ok", or why it is not usable now."""
        results = {"database": await self._run(asyncio.to_thread(self._select_one))}
        for name, client in list(self.watched.items()):
            results[name] = await self._run(client.ping())
        return results

    async def _run(self, probe: Any) -> str:
        try:
            await asyncio.wait_for(probe, self.timeout_s)
        except TimeoutError:
            return f"unreachable: no answer within {self.timeout_s:g} s"
        except Exception as exc:  # any failure is a reason to take this process out
            first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            return f"unreachable: {first_line[:200]}"
        return "ok"

    def _select_one(self) -> None:
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))
