"""The analysis jobs in the database: asked for once per (table, level), claimed by one
worker at a time, resumed from the decisions already stored (docs/analysis.md).

Every change a worker makes is conditional on its claim (`claimed_by` still its own), so
a worker that was presumed dead (its heartbeat too old) and whose job another worker
claimed stores nothing more. A claim is one conditional UPDATE: of several processes
trying at once exactly one changes the row (PostgreSQL re-checks the condition once the
other transaction ends; SQLite has one writer at a time).
"""

from __future__ import annotations

import hashlib
import os
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from skytotems.bots.analysis import with_current_totals

from .store import ANALYSIS_JOBS as JOBS
from .store import now_ms

# a job whose worker crashed that many times is given up (a position that kills the
# worker would otherwise be retried for ever)
MAX_ATTEMPTS = 3

# what a client may read of a job (the claim and the requester are the server's business)
PUBLIC = ("table_id", "level", "status", "done", "total", "decisions", "result", "error")


def requester(address: str) -> str:
    """The requester key of a client address: a hash, so no address is stored."""
    return hashlib.sha256(f"skytotems-analysis:{address}".encode()).hexdigest()


def new_claim() -> str:
    """A fresh claim id: this process's pid (which process holds a job, for the operator
    and the tests) and a random part (a restarted process never reuses a claim)."""
    return f"{os.getpid()}-{secrets.token_hex(8)}"


def public(row: dict[str, Any]) -> dict[str, Any]:
    """What a client reads of a job; a finished one's totals counted from its decisions
    as they are counted today (a job stored before a change of them shows the new)."""
    out = {key: row[key] for key in PUBLIC}
    if out["result"] is not None:
        out["result"] = with_current_totals(out["result"])
    return out


def nobody_asked(table_id: str, level: str) -> dict[str, Any]:
    """What a client reads of a job nobody has asked for (status "none")."""
    empty = {"status": "none", "done": 0, "total": None, "decisions": [], "result": None}
    return {"table_id": table_id, "level": level, **empty, "error": None}


def get(conn: Connection, table_id: str, level: str) -> dict[str, Any] | None:
    """The job of a table at a level, every column, or None."""
    row = (
        conn.execute(select(JOBS).where(JOBS.c.table_id == table_id, JOBS.c.level == level))
        .mappings()
        .first()
    )
    return None if row is None else dict(row)


def requests_since(conn: Connection, who: str, since_ms: int) -> list[int]:
    """When `who` created jobs since `since_ms` (their creation times, oldest first)."""
    rows = conn.execute(
        select(JOBS.c.created_ms)
        .where(JOBS.c.requested_by == who, JOBS.c.created_ms >= since_ms)
        .order_by(JOBS.c.created_ms)
    )
    return [int(r[0]) for r in rows]


def create(engine: Engine, table_id: str, level: str, who: str) -> bool:
    """Queue a new job; False if the (table, level) has one already (asked for by
    someone else a moment ago: the unique constraint decides)."""
    now = now_ms()
    try:
        with engine.begin() as conn:
            conn.execute(
                insert(JOBS).values(
                    table_id=table_id,
                    level=level,
                    status="queued",
                    done=0,
                    decisions=[],
                    attempts=0,
                    requested_by=who,
                    created_ms=now,
                    updated_ms=now,
                )
            )
    except IntegrityError:
        return False
    return True


def claimable(now: int, stale_ms: int) -> Any:
    """The condition of a job a worker may claim: queued, or running with a heartbeat
    older than `stale_ms` (its worker died)."""
    return or_(
        JOBS.c.status == "queued",
        (JOBS.c.status == "running") & (JOBS.c.heartbeat_ms < now - stale_ms),
    )


def claim(engine: Engine, stale_ms: int, claim_id: str) -> dict[str, Any] | None:
    """Claim the oldest claimable job for `claim_id`; the job's row, or None.

    A job claimed more than `MAX_ATTEMPTS` times is marked failed instead."""
    with engine.begin() as conn:
        now = now_ms()
        ids = conn.execute(
            select(JOBS.c.id).where(claimable(now, stale_ms)).order_by(JOBS.c.created_ms).limit(8)
        ).scalars()
        for job_id in list(ids):
            taken = conn.execute(
                update(JOBS)
                .where(JOBS.c.id == job_id, claimable(now, stale_ms))
                .values(
                    status="running",
                    claimed_by=claim_id,
                    heartbeat_ms=now,
                    updated_ms=now,
                    attempts=JOBS.c.attempts + 1,
                )
            ).rowcount
            if taken != 1:
                continue  # another worker was first
            row = dict(conn.execute(select(JOBS).where(JOBS.c.id == job_id)).mappings().one())
            if row["attempts"] > MAX_ATTEMPTS:
                error = f"the analysis worker stopped {MAX_ATTEMPTS} times on this game"
                fail(conn, job_id, claim_id, error)
                continue
            return row
    return None


def _mine(job_id: int, claim_id: str) -> Any:
    return update(JOBS).where(JOBS.c.id == job_id, JOBS.c.claimed_by == claim_id)


def heartbeat(engine: Engine, claims: dict[int, str]) -> set[int]:
    """Say that the workers of these jobs are alive; returns the jobs still held."""
    held = set()
    with engine.begin() as conn:
        now = now_ms()
        for job_id, claim_id in claims.items():
            statement = _mine(job_id, claim_id).where(JOBS.c.status == "running")
            if conn.execute(statement.values(heartbeat_ms=now)).rowcount == 1:
                held.add(job_id)
    return held


def progress(
    engine: Engine, job_id: int, claim_id: str, decisions: list[dict[str, Any]], total: int
) -> bool:
    """Store the decisions done so far; False if the claim was lost (stop working)."""
    with engine.begin() as conn:
        now = now_ms()
        values = {"decisions": decisions, "done": len(decisions), "total": total}
        statement = _mine(job_id, claim_id).values(heartbeat_ms=now, updated_ms=now, **values)
        return bool(conn.execute(statement).rowcount == 1)


def finish(engine: Engine, job_id: int, claim_id: str, result: dict[str, Any]) -> bool:
    """Store the result: the job is done, for good."""
    with engine.begin() as conn:
        values = {"status": "done", "result": result, "claimed_by": None, "updated_ms": now_ms()}
        values.update(decisions=result["decisions"], done=len(result["decisions"]))
        return bool(conn.execute(_mine(job_id, claim_id).values(**values)).rowcount == 1)


def fail(conn: Connection, job_id: int, claim_id: str, error: str) -> None:
    """The job cannot be done (its record does not replay, the worker keeps dying)."""
    values = {"status": "failed", "error": error[:500], "claimed_by": None}
    conn.execute(_mine(job_id, claim_id).values(updated_ms=now_ms(), **values))


def release(engine: Engine, claims: dict[int, str], crashed: bool) -> None:
    """Give jobs back to the queue: the next claim resumes them from their stored
    decisions. `crashed`: their worker died (the attempt counts towards `MAX_ATTEMPTS`);
    else this process is stopping, and the attempt is not held against the job."""
    with engine.begin() as conn:
        for job_id, claim_id in claims.items():
            statement = _mine(job_id, claim_id).where(JOBS.c.status == "running")
            values: dict[str, Any] = {"status": "queued", "claimed_by": None}
            if not crashed:
                values["attempts"] = JOBS.c.attempts - 1
            conn.execute(statement.values(updated_ms=now_ms(), **values))


@dataclass(frozen=True, slots=True)
class Asked:
    """What a request for an analysis got: the job (new or not), or how long to wait."""

    job: dict[str, Any] | None
    created: bool = False
    retry_after_s: int = 0


def ask(engine: Engine, table_id: str, level: str, who: str, amount: int, window_ms: int) -> Asked:
    """The job of (table, level), queued now unless there is one. Only a new job counts
    against the requester's rate (`amount` per `window_ms`, counted in the database, so
    the same on every process); over it, nothing is queued and `retry_after_s` says when
    the oldest request of the window leaves it."""
    with engine.connect() as conn:
        row = get(conn, table_id, level)
        if row is not None:
            return Asked(row)
        now = now_ms()
        times = requests_since(conn, who, now - window_ms)
    if len(times) >= amount:
        wait_ms = times[len(times) - amount] + window_ms - now
        return Asked(None, retry_after_s=max(1, -(-wait_ms // 1000)))
    created = create(engine, table_id, level, who)
    with engine.connect() as conn:
        return Asked(get(conn, table_id, level), created)
