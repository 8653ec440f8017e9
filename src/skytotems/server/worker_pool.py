"""The server's worker processes (bot moves, post-game analysis): spawned, never forked
(a fork of a process running an event loop and threads is unsafe), and each exits when
the server dies, even by kill -9, so none is left behind."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of at most `workers` processes, started as work comes."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_watch_parent,
        initargs=(os.getpid(),),
    )


def _watch_parent(parent: int) -> None:
    """Worker initializer: exit when the server dies (no orphans)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="skytotems-parent-watch", daemon=True).start()
