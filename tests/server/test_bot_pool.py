"""The bot pool's own guarantees (server/bots.py), with its real worker process: a move
waiting for the worker can be withdrawn, and a worker that dies (kill -9) is replaced,
so one lost move does not stop every table's bots."""

from __future__ import annotations

import asyncio
import os
import signal
from concurrent.futures.process import BrokenProcessPool

import pytest
from wsclient import run_async

from bots.bot_helpers import first_real_turn
from skytotems import view
from skytotems.server.bots import BotPool


def test_a_waiting_move_is_withdrawn_and_a_killed_worker_is_replaced() -> None:
    game, seat = first_real_turn()
    seen, legal = view(game, seat), game.legal_actions(seat)

    async def scenario() -> None:
        pool = BotPool(1)
        try:
            worker = await asyncio.wrap_future(pool._executor().submit(os.getpid))
            # a search of seconds holds the one worker; a quick move of another table waits
            searching = asyncio.create_task(pool.choose("mcts-expert", 1, seen, legal, "a"))
            waiting = asyncio.create_task(pool.choose("random", 2, seen, legal, "b"))
            await asyncio.sleep(0)
            assert (pool.busy, pool.queued) == (1, 1)
            waiting.cancel()
            await asyncio.gather(waiting, return_exceptions=True)
            assert (pool.busy, pool.queued) == (1, 0)
            os.kill(worker, signal.SIGKILL)
            with pytest.raises(BrokenProcessPool):
                await searching
            assert pool.busy == 0
            # the next move gets a new worker
            assert await pool.choose("random", 3, seen, legal, "b") in legal
        finally:
            pool.shutdown()

    run_async(scenario())
