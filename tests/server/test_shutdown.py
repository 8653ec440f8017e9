"""A server that stops (SIGTERM, or Ctrl-C: SIGINT to its whole process group) ends its
worker processes (bot moves, post-game analysis) in the middle of their work, leaves
none behind, leaks none of their queues' semaphores (the resource tracker warned of 5 to
10 at every stop) and puts the analysis job in progress back in the queue."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import httpx
import pytest
from test_analysis_jobs import CHEAP_ENV, finished_game
from test_restart import children_of
from wsclient import create_table, db_rows, wait_for

from skytotems.server.process import UNLIMITED_RATES, ServerProcess


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("stop", ["sigterm", "ctrl-c"])
def test_a_stopping_server_ends_its_busy_workers_and_leaks_no_semaphore(
    tmp_path: Path, stop: str
) -> None:
    db_url = f"sqlite:///{tmp_path / 'skytotems.db'}"
    log = tmp_path / "server.log"
    server = ServerProcess(db_url, {**UNLIMITED_RATES, **CHEAP_ENV}, log_path=log).start()
    try:
        base = server.base
        table_id = finished_game(base)  # moved by the bot workers
        # a second bot table, still playing as the server stops
        create_table(base, [{"type": "human"}, {"type": "bot", "level": "greedy"}])
        assert httpx.post(f"{base}/api/tables/{table_id}/analysis").status_code == 202
        done = "SELECT done FROM analysis_jobs"
        wait_for(lambda: db_rows(db_url, done)[0][0] > 0, 120, 0.05)  # the analysis is busy
        assert server.proc is not None
        workers = children_of(server.proc.pid)
        assert len(workers) >= 2, workers  # a bot worker, an analysis worker (and a tracker)
        if stop == "ctrl-c":  # what a terminal does: the server and its children at once
            for pid in [server.proc.pid, *workers]:
                os.kill(pid, signal.SIGINT)
            server.proc.wait(15)
    finally:
        server.terminate()
    # uvicorn stops cleanly, then raises the signal again: killed by SIGTERM, not SIGKILL
    assert server.proc is not None and server.proc.returncode in (0, -signal.SIGTERM)
    output = log.read_text(errors="replace")
    assert "leaked semaphore" not in output, output[-2000:]
    assert "Traceback" not in output, output[-2000:]
    assert "never retrieved" not in output, output[-2000:]
    # a worker killed by the group's SIGINT left its job claimed until it went stale
    assert db_rows(db_url, "SELECT status FROM analysis_jobs") in ([("queued",)], [("done",)])
    # the workers are joined as the server stops; its resource tracker follows it out
    left = lambda: [pid for pid in workers if alive(pid)]  # noqa: E731
    try:
        wait_for(lambda: left() == [], 5)
    except AssertionError:
        raise AssertionError(f"processes left running: {left()}") from None
