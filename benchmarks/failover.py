"""Fail-over benchmark (issue 14): how long the games of a killed server process wait
before they move again.

Each round starts two server processes on a fresh PostgreSQL database (dropped at the
end of the round; with `--redis`, both also share that Redis). The first, the victim,
creates `--tables` tables of random bots, so it holds their leases and drives them; after
`--run` seconds it is killed with SIGKILL. From then on the benchmark reads every table's
log head from the database every 20 ms and notes when each unfinished table stores its
next entry: made by the survivor once its lease survey (every `lease_poll_s`, 1 s by
default) has taken the table over. It prints each round's waits and, over all rounds,
their distribution against the bar of 5 s. A bot waits `--bot-delay-ms` before each
move, so the usual gap between two moves is about that long, kill or not.

    python benchmarks/failover.py --rounds 8
    python benchmarks/failover.py --redis redis://127.0.0.1:6379/0
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
from load import benchmark_database
from sqlalchemy.engine import make_url

from skytotems.server.process import UNLIMITED_RATES, ServerProcess

REPO = Path(__file__).resolve().parents[1]
BAR_S = 5.0
POLL_S = 0.02
BOT = {"type": "bot", "level": "random"}


def heads(conn: psycopg.Connection[Any], table_ids: list[str]) -> dict[str, tuple[str, int]]:
    """Each table's status and number of log entries, as stored now."""
    rows = conn.execute(
        "SELECT t.id, t.status, (SELECT count(*) FROM actions a WHERE a.table_id = t.id) "
        "FROM tables t WHERE t.id = ANY(%s)",
        (table_ids,),
    ).fetchall()
    return {table_id: (status, int(entries)) for table_id, status, entries in rows}


def one_round(args: argparse.Namespace, url: str) -> list[float]:
    """Start victim and survivor, kill the victim, return its unfinished tables' waits."""
    env = dict(UNLIMITED_RATES, SKYTOTEMS_BOT_DELAY_MS=str(args.bot_delay_ms))
    if args.redis:
        env["SKYTOTEMS_REDIS"] = args.redis
    with (
        tempfile.TemporaryDirectory() as folder,
        benchmark_database(url, Path(folder)) as (db_url, _),
    ):
        libpq = make_url(db_url).set(drivername="postgresql").render_as_string(False)
        victim = ServerProcess(db_url, env, cwd=REPO, start_timeout=60).start()
        survivor = ServerProcess(db_url, env, cwd=REPO, start_timeout=60).start()
        try:
            with httpx.Client(base_url=victim.base, timeout=30) as http:
                table_ids = [
                    http.post("/api/tables", json={"seats": [BOT, BOT]}).json()["table"]["id"]
                    for _ in range(args.tables)
                ]
            time.sleep(args.run)
            with psycopg.connect(libpq, autocommit=True) as conn:
                killed_at = time.monotonic()
                victim.kill9()
                time.sleep(0.05)  # a commit the victim had already sent lands first
                at_kill = heads(conn, table_ids)
                waiting = {t for t, (status, _) in at_kill.items() if status == "playing"}
                waits: list[float] = []
                deadline = killed_at + args.timeout
                while waiting and time.monotonic() < deadline:
                    now_heads = heads(conn, sorted(waiting))
                    now = time.monotonic()
                    for table_id, (_, entries) in now_heads.items():
                        if entries > at_kill[table_id][1]:
                            waits.append(now - killed_at)
                            waiting.discard(table_id)
                    time.sleep(POLL_S)
                waits += [float("inf")] * len(waiting)  # never moved again in time
                return waits
        finally:
            for process in (victim, survivor):
                if process.proc is not None and process.proc.poll() is None:
                    process.terminate()


def describe(waits: list[float]) -> str:
    ordered = sorted(waits)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))]

    return (
        f"{len(ordered)} tables: min {ordered[0]:.2f} s, median {statistics.median(ordered):.2f}"
        f" s, p90 {pct(0.9):.2f} s, max {ordered[-1]:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--redis", default=None, help="Redis URL shared by both processes")
    parser.add_argument("--rounds", type=int, default=5, help="kills (1-50)")
    parser.add_argument("--tables", type=int, default=10, help="tables on the victim (1-200)")
    parser.add_argument("--run", type=float, default=2.0, help="seconds of play before a kill")
    parser.add_argument("--bot-delay-ms", type=int, default=100, help="a bot's pause per move")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait per kill")
    args = parser.parse_args()
    if make_url(args.db).get_backend_name() != "postgresql":
        parser.error("--db: leases need PostgreSQL (postgresql://...)")
    args.rounds = max(1, min(args.rounds, 50))
    args.tables = max(1, min(args.tables, 200))
    every: list[float] = []
    for number in range(1, args.rounds + 1):
        waits = one_round(args, args.db)
        every += waits
        shown = describe(waits) if waits else "no unfinished table"
        print(f"kill {number}: {shown}", flush=True)
    if not every:
        raise SystemExit("no table was unfinished at a kill: lower --run or raise --bot-delay-ms")
    worst = max(every)
    print(
        f"over {args.rounds} kills, {describe(every)}; bar < {BAR_S:g} s: "
        f"{'met' if worst < BAR_S else 'NOT met'}",
        flush=True,
    )


if __name__ == "__main__":
    main()
