"""Post-game analysis on the server: worker processes of their own, fed from the database.

The analysis of a game takes a minute of CPU at the default level, so it never runs on
the event loop nor in the live bots' workers (a table's next bot move must not wait
behind it): `AnalysisWorkers` has its own process pool (`analysis_workers`, default 1).
A job is claimed in the database (`analysis_store.claim`), so with several server
processes each job is computed once; the claiming process's heartbeat keeps it, and a
job whose process died (even by kill -9) is claimed again by any process once its
heartbeat is `analysis_stale_s` old. The worker stores each decision as it is done,
and a resumed job continues after the last stored one: decisions are analysed
independently (each with its own seeded generator), so the result is the one an
uninterrupted run, or `skytotems analyse`, gives.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine

from skytotems import make_record
from skytotems.bots.analysis import Analyst, decisions_to_analyse, report
from skytotems.rules.record import replay

from . import analysis_store as jobs
from . import store
from .worker_pool import stop_pool, worker_pool

if TYPE_CHECKING:
    from .service import TableService
    from .settings import Settings

log = logging.getLogger("skytotems.server")

# the analysis seed of every server job (the CLI's default: the same report)
SEED = 0
# at most this often a worker stores its progress (and always after the last decision)
SAVE_EVERY_S = 0.5

_engines: dict[str, Engine] = {}


def _engine(db_url: str) -> Engine:
    """One engine per worker process and database (made on first use, in the worker)."""
    if db_url not in _engines:
        _engines[db_url] = store.make_engine(db_url)
    return _engines[db_url]


def run_job(
    db_url: str,
    job_id: int,
    claim_id: str,
    record: dict[str, Any],
    level: str,
    determinizations: int,
    done: list[dict[str, Any]],
) -> str:
    """Analyse a game's remaining decisions in a worker process, storing them as they
    are done; returns "done", or "lost" when another worker took the job over."""
    engine = _engine(db_url)
    game = replay(record)
    todo = decisions_to_analyse(game)
    if [d["move"] for d in done] != [index for index, *_ in todo[: len(done)]]:
        done = []  # stored decisions that are not this game's first ones: start again
    analyst = Analyst(level, SEED, determinizations)
    decisions = list(done)
    start = time.perf_counter()
    saved = time.monotonic()
    for index, view, legal, played in todo[len(done) :]:
        decisions.append(analyst.analyse(view, legal, played, index).to_json())
        if len(decisions) < len(todo) and time.monotonic() - saved < SAVE_EVERY_S:
            continue
        if not jobs.progress(engine, job_id, claim_id, decisions, len(todo)):
            return "lost"
        saved = time.monotonic()
    result = report(
        game.n,
        None,
        decisions,
        level,
        analyst.level.determinizations,
        SEED,
        time.perf_counter() - start,
    )
    return "done" if jobs.finish(engine, job_id, claim_id, result) else "lost"


class AnalysisWorkers:
    """Claims analysis jobs from the database and runs them in its process pool."""

    def __init__(self, settings: Settings, engine: Engine, service: TableService) -> None:
        self.settings = settings
        self.engine = engine
        self.service = service
        self.workers = settings.analysis_workers
        self.stale_ms = int(settings.analysis_stale_s * 1000)
        self.heartbeat_s = settings.analysis_stale_s / 4
        self.claims: dict[int, str] = {}  # the jobs this process runs now
        self._pool: ProcessPoolExecutor | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop_task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    def start(self) -> None:
        if self.workers > 0:
            self._loop_task = asyncio.create_task(self._run(), name="skytotems-analysis")

    def wake(self) -> None:
        """A job was just queued here: look now rather than at the next poll."""
        self._wake.set()

    def pids(self) -> list[int]:
        """The worker processes' ids (for an operator, and the test that kills one)."""
        if self._pool is None:
            return []
        return [p.pid for p in self._pool._processes.values() if p.pid is not None]

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = worker_pool(self.workers)
        return self._pool

    async def _run(self) -> None:
        last_beat = time.monotonic()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.heartbeat_s)
            self._wake.clear()
            try:
                if time.monotonic() - last_beat >= self.heartbeat_s * 0.9 and self.claims:
                    held = await asyncio.to_thread(jobs.heartbeat, self.engine, dict(self.claims))
                    for lost in set(self.claims) - held:
                        log.warning("analysis job %s was taken over by another worker", lost)
                    last_beat = time.monotonic()
                while len(self.claims) < self.workers:
                    claim_id = jobs.new_claim()
                    row = await asyncio.to_thread(jobs.claim, self.engine, self.stale_ms, claim_id)
                    if row is None:
                        break
                    self.claims[row["id"]] = claim_id
                    task = asyncio.create_task(self._job(row, claim_id))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
            except Exception:  # the database is away: try again at the next poll
                log.exception("analysis jobs: poll failed")

    async def _job(self, row: dict[str, Any], claim_id: str) -> None:
        job_id = row["id"]
        try:
            table = await self.service.committed(row["table_id"])
            record = make_record(table.game)
            loop = asyncio.get_running_loop()
            outcome = await loop.run_in_executor(
                self._executor(),
                run_job,
                self.settings.db_url,
                job_id,
                claim_id,
                record,
                row["level"],
                self.settings.analysis_determinizations,
                row["decisions"],
            )
            log.info("analysis job %s of table %s: %s", job_id, row["table_id"], outcome)
        except BrokenProcessPool:  # the worker process died: the job goes back to the queue
            log.warning("analysis worker died on job %s: queued again", job_id)
            self._pool = None
            await asyncio.to_thread(jobs.release, self.engine, {job_id: claim_id}, True)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("analysis job %s failed", job_id)
            await asyncio.to_thread(self._fail, job_id, claim_id, f"{type(exc).__name__}: {exc}")
        finally:
            self.claims.pop(job_id, None)
            self._wake.set()  # a worker is free

    def _fail(self, job_id: int, claim_id: str, error: str) -> None:
        with self.engine.begin() as conn:
            jobs.fail(conn, job_id, claim_id, error)

    async def close(self) -> None:
        """Stop claiming, give the running jobs back (another process, or this one after
        its restart, resumes them at once) and stop the workers."""
        if self._loop_task is not None:
            self._loop_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop_task
        claims = dict(self.claims)
        for task in list(self._tasks):
            task.cancel()
        if claims:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(jobs.release, self.engine, claims, False)
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None
