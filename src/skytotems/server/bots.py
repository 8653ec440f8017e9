"""Bot seats: each move is computed in a worker process so the event loop never blocks.

A bot sees what a player sees: the view of its seat and its legal actions, nothing
more (DESIGN.md §2). The levels are the bot registry's names (`skytotems.bots.registry`).
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import os
import random
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from skytotems import Action
from skytotems.bots.registry import BOT_NAMES, make_bot

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


def _watch_parent(parent: int) -> None:
    """Worker initializer: exit when the server dies, even by kill -9 (no orphans)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="skytotems-parent-watch", daemon=True).start()


class BotPool:
    """The worker processes that compute bot moves (started on first use)."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fork of a process running an event loop and threads is unsafe
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=context,
                initializer=_watch_parent,
                initargs=(os.getpid(),),
            )
        return self._pool

    def warm(self) -> None:
        """Start the workers now (a process spawning takes a second): a process that takes
        over the tables of one that died moves their bots at once."""
        for _ in range(self.workers):
            self._executor().submit(os.getpid)

    async def choose(
        self, level: str, seed: int, view: dict[str, Any], legal: list[Action]
    ) -> Action:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), choose_action, level, seed, view, legal)

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
