"""Post-game analysis on the server (docs/analysis.md, "On the server"): one job per table
and level, claimed by exactly one worker, resumed from its stored decisions after its
process is killed, rate limited per client address, and the same report as the CLI's.
Every test runs on SQLite and on PostgreSQL unless it says otherwise; the analysis runs
at the fast level with 2 determinizations so that a whole game takes a few seconds."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command
from alembic.config import Config
from click.testing import CliRunner
from sqlalchemy import insert, inspect
from wsclient import Start, ThreadServer, create_table, db_rows, wait_for

from skytotems.bots.analysis import analyse_game
from skytotems.cli.analyse import analyse
from skytotems.rules.record import replay
from skytotems.server import Settings, analysis_store, store

CHEAP = {"analysis_level": "fast", "analysis_determinizations": 2}
CHEAP_ENV = {"SKYTOTEMS_ANALYSIS_LEVEL": "fast", "SKYTOTEMS_ANALYSIS_DETERMINIZATIONS": "2"}
# The kill tests' jobs: long enough to be killed half-way (with 2 sampled games the
# compiled search analysed a whole game in 0.7 s, and a kill at the first stored
# decisions, 0.5 s in, came after the job had finished)
RESUMABLE = {"analysis_level": "fast", "analysis_determinizations": 8}
RESUMABLE_ENV = {**CHEAP_ENV, "SKYTOTEMS_ANALYSIS_DETERMINIZATIONS": "8"}
BOTS = [{"type": "bot", "level": "random"}, {"type": "bot", "level": "random"}]


def finished_game(base: str) -> str:
    """The id of a game two random bots played to its end."""
    table_id: str = create_table(base, BOTS)["table"]["id"]
    wait_for(lambda: httpx.get(f"{base}/api/tables/{table_id}").json()["status"] == "finished", 120)
    return table_id


def analysis_of(base: str, table_id: str, timeout: float = 180.0) -> dict[str, Any]:
    """Poll the job until it is done (or failed); the deadline is generous, for a
    loaded machine (a few seconds of CPU)."""
    found: dict[str, Any] = {}

    def over() -> bool:
        found.update(httpx.get(f"{base}/api/tables/{table_id}/analysis").json())
        return found["status"] in ("done", "failed")

    wait_for(over, timeout, 0.2)
    return found


def without_time(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k != "seconds"}


def alembic_config(engine: Any) -> Config:
    config = Config()
    config.set_main_option("script_location", str(Path(store.__file__).parent / "migrations"))
    config.set_main_option(
        "sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%")
    )
    return config


def test_migration_0005_adds_the_jobs_table_and_goes_back(db_url: str) -> None:
    engine = store.make_engine(db_url)
    try:
        store.migrate(engine)
        columns = {c["name"] for c in inspect(engine).get_columns("analysis_jobs")}
        assert {"table_id", "level", "status", "done", "total", "decisions", "result"} <= columns
        assert {"claimed_by", "heartbeat_ms", "attempts", "requested_by"} <= columns
        config = alembic_config(engine)
        with engine.begin() as conn:
            config.attributes["connection"] = conn
            command.downgrade(config, "0004")
        assert "analysis_jobs" not in inspect(engine).get_table_names()
        store.migrate(engine)
        assert "analysis_jobs" in inspect(engine).get_table_names()
    finally:
        engine.dispose()


def stored_job(db_url: str) -> tuple[Any, int]:
    """A migrated database with one table and one queued job on it."""
    engine = store.make_engine(db_url)
    store.migrate(engine)
    with engine.begin() as conn:
        conn.execute(insert(store.DECKS).values(id="d", data={}))
        conn.execute(
            insert(store.TABLES).values(
                id="t", created_ms=0, updated_ms=0, options={}, deck_id="d", seed=1,
                status="finished", clock="none",
            )
        )  # fmt: skip
    assert analysis_store.create(engine, "t", "fast", "someone")
    assert not analysis_store.create(engine, "t", "fast", "someone else")  # one per level
    with engine.connect() as conn:
        row = analysis_store.get(conn, "t", "fast")
    assert row is not None and row["status"] == "queued"
    return engine, row["id"]


def test_a_job_is_claimed_once_among_racing_workers_and_again_once_stale(db_url: str) -> None:
    engine, job_id = stored_job(db_url)
    engines = [store.make_engine(db_url) for _ in range(8)]
    try:
        with ThreadPoolExecutor(len(engines)) as pool:
            claims = list(
                pool.map(
                    lambda e: analysis_store.claim(e, 60_000, analysis_store.new_claim()), engines
                )
            )
        won = [c for c in claims if c is not None]
        assert len(won) == 1 and won[0]["id"] == job_id and won[0]["attempts"] == 1
        first = won[0]["claimed_by"]
        # its worker stores progress while it holds the claim
        decision = {"move": 3, "seat": 0}
        assert analysis_store.progress(engine, job_id, first, [decision], 10)
        # fresh heartbeat: nobody else may claim it
        assert analysis_store.claim(engine, 60_000, analysis_store.new_claim()) is None
        time.sleep(0.05)  # its heartbeat is now older than a stale time of 10 ms
        second = analysis_store.claim(engine, 10, analysis_store.new_claim())
        assert second is not None and second["attempts"] == 2
        assert second["decisions"] == [decision]  # resumed where the first stopped
        # the first worker, presumed dead, can store nothing any more
        assert not analysis_store.progress(engine, job_id, first, [decision, decision], 10)
        assert not analysis_store.finish(engine, job_id, first, {"decisions": []})
        assert analysis_store.heartbeat(engine, {job_id: first}) == set()
        assert analysis_store.heartbeat(engine, {job_id: second["claimed_by"]}) == {job_id}
    finally:
        for e in engines:
            e.dispose()
        engine.dispose()


def test_a_job_whose_worker_keeps_dying_is_given_up(db_url: str) -> None:
    engine, job_id = stored_job(db_url)
    try:
        # a process that stops cleanly gives its job back without counting an attempt
        row = analysis_store.claim(engine, 60_000, analysis_store.new_claim())
        assert row is not None and row["attempts"] == 1
        analysis_store.release(engine, {job_id: row["claimed_by"]}, crashed=False)
        for attempt in range(1, analysis_store.MAX_ATTEMPTS + 1):
            row = analysis_store.claim(engine, 60_000, analysis_store.new_claim())
            assert row is not None and row["attempts"] == attempt
            analysis_store.release(engine, {job_id: row["claimed_by"]}, crashed=True)
        assert analysis_store.claim(engine, 60_000, analysis_store.new_claim()) is None
        with engine.connect() as conn:
            row = analysis_store.get(conn, "t", "fast")
        assert row is not None and row["status"] == "failed" and "stopped" in row["error"]
    finally:
        engine.dispose()


def test_the_analysis_of_a_finished_game_is_queued_shared_and_equals_the_cli(
    start_server: Callable[..., ThreadServer], tmp_path: Path
) -> None:
    server = start_server(**CHEAP)
    base = server.base
    table_id = finished_game(base)
    url = f"{base}/api/tables/{table_id}/analysis"
    assert httpx.get(url).json()["status"] == "none"  # nobody asked yet
    first = httpx.post(url)
    assert first.status_code == 202, first.text
    assert first.json()["status"] in ("queued", "running", "done")
    again = httpx.post(url)  # the same job, not a second one
    assert again.status_code == 200 and again.json()["level"] == "fast"
    job = analysis_of(base, table_id)
    assert job["status"] == "done", job
    assert job["done"] == job["total"] == len(job["result"]["decisions"]) > 0
    attempts = db_rows(server.settings.db_url, "SELECT attempts FROM analysis_jobs")
    assert attempts == [(1,)]
    # the CLI on the record the server serves gives the same report
    record = httpx.get(f"{base}/api/tables/{table_id}/record").json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    options = ["--level", "fast", "--determinizations", "2", "--json", "--no-progress"]
    ran = CliRunner().invoke(analyse, [str(path), *options])
    assert ran.exit_code == 0, ran.output
    cli = json.loads(ran.output.strip().splitlines()[-1])
    assert without_time(job["result"]) == without_time(cli)
    # each decision is the action the replay viewer shows after that move
    decision = job["result"]["decisions"][0]
    step = httpx.get(f"{base}/api/tables/{table_id}/replay/{decision['move'] + 1}").json()
    assert step["action"] == decision["played"]


def test_only_a_finished_game_is_analysed_and_levels_are_checked(
    start_server: Callable[..., ThreadServer],
) -> None:
    server = start_server(analysis_workers=0)
    table_id = create_table(server.base, [{"type": "human"}, {"type": "human"}])["table"]["id"]
    url = f"{server.base}/api/tables/{table_id}/analysis"
    refused = httpx.post(url)
    assert refused.status_code == 409 and refused.json()["code"] == "not_finished"
    assert httpx.post(url, params={"level": "deepest"}).status_code == 422
    assert httpx.post(f"{server.base}/api/tables/nosuch/analysis").status_code == 404
    assert httpx.get(f"{server.base}/api/tables/nosuch/analysis").status_code == 404
    assert db_rows(server.settings.db_url, "SELECT count(*) FROM analysis_jobs") == [(0,)]


def test_new_jobs_are_rate_limited_per_address_with_retry_after(
    start_server: Callable[..., ThreadServer],
) -> None:
    # no workers: the jobs stay queued (only their creation is limited)
    server = start_server(analysis_workers=0, analysis_rate="2/hour")
    table_id = finished_game(server.base)
    url = f"{server.base}/api/tables/{table_id}/analysis"
    assert httpx.post(url, params={"level": "fast"}).status_code == 202
    assert httpx.post(url, params={"level": "greedy"}).status_code == 202
    refused = httpx.post(url, params={"level": "thorough"})
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert 3000 <= int(refused.headers["Retry-After"]) <= 3600
    # asking for a job that exists costs nothing
    assert httpx.post(url, params={"level": "fast"}).status_code == 200
    assert httpx.get(url, params={"level": "thorough"}).json()["status"] == "none"
    assert db_rows(server.settings.db_url, "SELECT count(*) FROM analysis_jobs") == [(2,)]


def test_a_killed_worker_process_is_replaced_and_its_job_resumed(tmp_path: Path) -> None:
    """kill -9 of the analysis worker process alone (the server lives on): the job goes
    back to the queue at once and a new worker finishes it from the stored decisions."""
    settings = Settings(
        db_url=f"sqlite:///{tmp_path / 'skytotems.db'}", static_dir=None, **RESUMABLE
    )
    server = ThreadServer(settings).start()
    try:
        table_id = finished_game(server.base)
        assert httpx.post(f"{server.base}/api/tables/{table_id}/analysis").status_code == 202
        sql = "SELECT done, attempts FROM analysis_jobs"
        wait_for(lambda: db_rows(settings.db_url, sql)[0][0] > 0, 120, 0.05)
        workers = server.app.state.runtime.analysis.pids()
        assert len(workers) == 1
        os.kill(workers[0], signal.SIGKILL)
        result = analysis_of(server.base, table_id)
        assert result["status"] == "done"
        assert db_rows(settings.db_url, sql)[0][1] == 2
        assert server.app.state.runtime.analysis.pids() not in ([], workers)
        record = httpx.get(f"{server.base}/api/tables/{table_id}/record").json()
        expected = analyse_game(replay(record), None, "fast", 0, None, 8)
        assert without_time(result["result"]) == without_time(expected)
    finally:
        server.stop()


@pytest.mark.usefixtures("postgres_url")
def test_two_processes_claim_once_and_a_kill_9_is_resumed_by_the_other(
    start_process: Start, postgres_url: str
) -> None:
    """Two server processes on one PostgreSQL database: the job is claimed by one; that
    one is killed (kill -9) after storing some decisions, and the other resumes it from
    them to the same report as an uninterrupted analysis."""
    env = {**RESUMABLE_ENV, "SKYTOTEMS_ANALYSIS_STALE_S": "1"}
    first, second = start_process(env), start_process(env)
    table_id = finished_game(first.base)
    for process in (first, second):  # both asked: still one job
        assert httpx.post(f"{process.base}/api/tables/{table_id}/analysis").status_code in (
            200,
            202,
        )

    def job() -> dict[str, Any]:
        sql = "SELECT status, done, attempts, claimed_by FROM analysis_jobs"
        status, done, attempts, claimed_by = db_rows(postgres_url, sql)[0]
        return {"status": status, "done": done, "attempts": attempts, "claimed_by": claimed_by}

    wait_for(lambda: job()["done"] > 0, 120, 0.05)
    running = job()
    assert running["status"] == "running" and running["attempts"] == 1
    holder_pid = int(running["claimed_by"].split("-")[0])
    holder, other = (
        (first, second) if first.proc and first.proc.pid == holder_pid else (second, first)
    )
    assert holder.proc is not None and holder.proc.pid == holder_pid
    holder.kill9()
    result = analysis_of(other.base, table_id)
    assert result["status"] == "done"
    assert job()["attempts"] == 2  # claimed once more, after the holder died
    record = httpx.get(f"{other.base}/api/tables/{table_id}/record").json()
    expected = analyse_game(replay(record), None, "fast", 0, None, 8)
    assert without_time(result["result"]) == without_time(expected)


def test_a_report_stored_before_the_totals_changed_is_read_with_todays_totals() -> None:
    """A job finished while total_loss added up every loss (before it counted the clear
    ones only) kept showing that total: the totals are counted again when read."""
    decisions = [
        {"seat": 0, "loss": 2.0, "loss_ci95": [0.5, 3.5], "mark": "mistake"},
        {"seat": 0, "loss": 1.0, "loss_ci95": [-1.0, 3.0], "mark": "fine"},
        {"seat": 1, "loss": 0.4, "loss_ci95": [-0.2, 1.0], "mark": "fine"},
    ]
    stale = {"total_loss": {"0": 3.0, "1": 0.4}, "mistakes": {"0": 0, "1": 0}}
    result = {"decisions": decisions, **stale, "blunders": {"0": 0, "1": 0}, "level": "fast"}
    row = {"table_id": "t", "level": "fast", "status": "done", "done": 3, "total": 3}
    row.update(decisions=decisions, result=result, error=None, claimed_by=None)
    shown = analysis_store.public(row)["result"]
    assert shown["total_loss"] == {"0": 2.0, "1": 0.0}
    assert shown["mistakes"] == {"0": 1, "1": 0} and shown["level"] == "fast"
    assert analysis_store.public({**row, "result": None})["result"] is None
