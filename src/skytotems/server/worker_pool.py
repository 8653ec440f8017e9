"""The server's worker processes (bot moves, post-game analysis): spawned, never forked
(a fork of a process running an event loop and threads is unsafe), and each exits when
the server dies, even by kill -9, so none is left behind."""

from __future__ import annotations

import multiprocessing
import os
import signal
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


def stop_pool(pool: ProcessPoolExecutor, timeout_s: float = 5.0) -> None:
    """Stop a pool at once as the server stops: waiting work is cancelled, the workers
    are ended mid-task (an unacknowledged bot move is chosen again by the next server;
    an analysis job's claim is released), then joined, so that the pool's queues and
    their semaphores are closed (`shutdown(wait=False)` left them to the resource
    tracker, which warned of leaked semaphores at every stop)."""
    processes = list((pool._processes or {}).values())  # no public API before 3.14
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout_s)
    pool.shutdown(wait=True)


def _watch_parent(parent: int) -> None:
    """Worker initializer: exit when the server dies (no orphans), and leave Ctrl-C to
    the server: the terminal sends SIGINT to the whole process group, and workers that
    died of it mid-task failed the server's shutdown (tracebacks, an analysis claim not
    released) before the server could stop them itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="skytotems-parent-watch", daemon=True).start()
