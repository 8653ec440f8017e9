"""Bot seats: each move is computed in a worker process so the event loop never blocks,
by a bounded pool of workers that the tables share fairly (`BotPool`).

A bot sees what a player sees: the view of its seat and its legal actions, nothing
more (DESIGN.md §2). The levels are the bot registry's names (`skytotems.bots.registry`).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import itertools
import os
import random
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from skytotems import Action
from skytotems.bots.registry import BOT_NAMES, make_bot

from .worker_pool import stop_pool, worker_pool

BOT_LEVELS = BOT_NAMES


def bot_seed(table_seed: int, seat: int, seq: int) -> int:
    """A per-move seed for a bot, derived one-way so it tells nothing of the game's."""
    digest = hashlib.sha256(f"skytotems-bot:{table_seed}:{seat}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def choose_action(level: str, seed: int, view: dict[str, Any], legal: list[Action]) -> Action:
    """The bot's move (runs in a worker process)."""
    action = make_bot(level, seed).choose(view, legal)
    if action not in legal:  # a bot bug must not stall the table: play on at random
        return random.Random(seed).choice(legal)
    return action


@dataclass(eq=False)
class _Job:
    """One bot move waiting for a worker: its arguments and who awaits it."""

    order: int  # arrival order (ties of usage are served first come, first served)
    args: tuple[str, int, dict[str, Any], list[Action]]
    future: asyncio.Future[Action]


class BotPool:
    """A bounded set of worker processes computing bot moves, shared fairly by the tables.

    At most `workers` moves are computed at once, each in its own worker process (the
    event loop never computes one). The others wait in one queue per table, and a free
    worker takes the first waiting move of the table that used the workers least lately
    (its worker seconds, halved every `half_life_s`; ties by arrival), one move of a
    table at a time. So a quick bot's move is not queued behind a row of expert
    decisions of other tables, and an expert table still gets its turn: what the others
    use grows while they are served, while its own past use fades.
    """

    def __init__(self, workers: int, half_life_s: float = 30.0) -> None:
        self.workers = max(1, workers)
        self.half_life_s = half_life_s
        self._pool: ProcessPoolExecutor | None = None
        self._waiting: dict[str, deque[_Job]] = {}  # by table, in arrival order
        self._busy: set[str] = set()  # tables with a move being computed
        self._usage: dict[str, tuple[float, float]] = {}  # table: (worker seconds, as of)
        self._arrivals = itertools.count()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = worker_pool(self.workers)
        return self._pool

    def warm(self) -> None:
        """Start a worker now (a process spawning takes a second): a process that takes
        over the tables of one that died moves their bots at once. The others start
        when moves wait for them."""
        self._executor().submit(os.getpid)

    @property
    def queued(self) -> int:
        """Bot moves waiting for a worker (the gauge `skytotems_bot_moves_queued`)."""
        return sum(1 for jobs in self._waiting.values() for j in jobs if not j.future.done())

    @property
    def busy(self) -> int:
        """Workers computing a move now."""
        return len(self._busy)

    async def choose(
        self,
        level: str,
        seed: int,
        view: dict[str, Any],
        legal: list[Action],
        table: str = "",
    ) -> Action:
        """The bot's move, computed by a worker when `table`'s turn in the queue comes.

        Cancelling the caller withdraws a waiting move; a move being computed finishes
        in its worker and its answer is dropped.
        """
        future: asyncio.Future[Action] = asyncio.get_running_loop().create_future()
        job = _Job(next(self._arrivals), (level, seed, view, legal), future)
        self._waiting.setdefault(table, deque()).append(job)
        self._dispatch()
        return await future

    def _usage_now(self, table: str, now: float) -> float:
        used, at = self._usage.get(table, (0.0, now))
        return float(used * 0.5 ** ((now - at) / self.half_life_s))

    def _next(self) -> tuple[str, _Job] | None:
        """The table to serve next and its first waiting move (None: nothing to do)."""
        now = time.monotonic()
        best: tuple[float, int, str] | None = None
        for table, jobs in list(self._waiting.items()):
            while jobs and jobs[0].future.done():  # withdrawn while waiting
                jobs.popleft()
            if not jobs:
                del self._waiting[table]
            elif table not in self._busy:
                key = (self._usage_now(table, now), jobs[0].order, table)
                if best is None or key < best:
                    best = key
        if best is None:
            return None
        table = best[2]
        jobs = self._waiting[table]
        job = jobs.popleft()
        if not jobs:
            del self._waiting[table]
        return table, job

    def _dispatch(self) -> None:
        """Hand waiting moves to free workers, fairest first."""
        while len(self._busy) < self.workers:
            chosen = self._next()
            if chosen is None:
                return
            table, job = chosen
            pool = self._executor()
            try:
                submitted = pool.submit(choose_action, *job.args)
            except BrokenProcessPool:  # a worker died (killed?): new workers take the move
                self._replace_workers(pool)
                pool = self._executor()
                submitted = pool.submit(choose_action, *job.args)
            self._busy.add(table)
            started = time.monotonic()
            running: asyncio.Future[Action] = asyncio.wrap_future(submitted)
            running.add_done_callback(functools.partial(self._finished, table, job, started, pool))

    def _finished(
        self,
        table: str,
        job: _Job,
        started: float,
        pool: ProcessPoolExecutor,
        done: asyncio.Future[Action],
    ) -> None:
        now = time.monotonic()
        self._busy.discard(table)
        self._usage[table] = (self._usage_now(table, now) + now - started, now)
        for other in list(self._usage):  # forget long-quiet tables
            if other != table and self._usage_now(other, now) < 1e-3:
                del self._usage[other]
        if not done.cancelled() and isinstance(done.exception(), BrokenProcessPool):
            self._replace_workers(pool)  # its moves fail (their callers retry); no others
        if not job.future.done():
            if done.cancelled():
                job.future.cancel()
            elif (error := done.exception()) is not None:
                job.future.set_exception(error)
            else:
                job.future.set_result(done.result())
        self._dispatch()

    def _replace_workers(self, broken: ProcessPoolExecutor) -> None:
        """Drop a broken pool (once: its other moves' failures find it replaced)."""
        if self._pool is broken:
            broken.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def shutdown(self) -> None:
        for jobs in self._waiting.values():
            for job in jobs:
                job.future.cancel()
        self._waiting.clear()
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None
