"""Load benchmark of the game server: the production path under many tables at once.

Starts the real server process (`python -m skytotems.server`, 127.0.0.1 only), or
`--processes N` of them on one database, opens `--tables` two-player tables with two
sockets each, and has every table play random legal moves (chosen from the views the
server sends) at a paced total rate, stage after stage. For each stage it prints the
moves per second achieved, p50/p99 latency from sending a move to receiving the
resulting view, and the CPU per move of the server processes, of PostgreSQL (the
backends serving them) and of Redis; at the end, the highest stage held (at least 90 %
of its target rate with p99 <= 100 ms) and its total CPU per move. Bounded in time and
moves; it stops by itself.

The database is a SQLite file in a temporary folder, or `--db postgresql://...`: the
benchmark creates a database of its own on that server and drops it at the end. `--redis URL`
is given to every server process (SKYTOTEMS_REDIS). The tables are spread round robin
over the processes. `--placement hash` (the default) sends both sockets of a table to
the process its id hashes to, as docs/deploy.md's nginx routes them (for N-1 tables in N
that is not the process that created the table and drives it, which keeps a copy too);
`--placement table` sends them to the process that created the table (no second copy
anywhere); `--placement seat` puts the two seats of a table on different processes, so
that every move is applied and sent by both (the worst case).

    python benchmarks/load.py                       # 500 tables = 1,000 sockets
    python benchmarks/load.py --rates 500,1000,2000 --duration 15 --json
    python benchmarks/load.py --db postgresql://postgres@127.0.0.1/test
    python benchmarks/load.py --processes 2 --db postgresql://... --redis redis://127.0.0.1:6379/0
    python benchmarks/load.py --processes 2 --db ... --redis ... --placement seat
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import tempfile
import time
import uuid
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import psycopg
import redis
from sqlalchemy.engine import make_url
from websockets.asyncio.client import ClientConnection, connect

from skytotems.server.process import UNLIMITED_RATES, ServerProcess

REPO = Path(__file__).resolve().parents[1]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# how this run's server backends are found in pg_stat_activity (another run may be going)
APPLICATION_NAME = f"skytotems-load-{os.getpid()}"
HELD_SHARE = 0.9
HELD_P99_MS = 100.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (from /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


@dataclass
class Stats:
    """Moves acknowledged and their latencies, for the stage being measured."""

    recording: bool = False
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    games: int = 0


class Seat:
    """One socket: its latest state and the move in flight, if any."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.sent_at: float | None = None
        self.next_id = 0


class TablePlayer:
    """Two sockets playing one table; starts a new table when the game is over."""

    def __init__(self, bench: Bench) -> None:
        self.bench = bench
        self.seats: list[Seat] = []
        self.table_id = ""
        self.index = len(bench.tables)
        self.rng = random.Random(self.index)
        self.readers: list[asyncio.Task[None]] = []

    async def open(self) -> None:
        response = await self.bench.http_of(self.index).post(
            "/api/tables", json={"seats": [{"type": "human"}, {"type": "human"}]}
        )
        data = response.json()
        self.table_id = data["table"]["id"]
        self.seats = []
        for player, token in enumerate(data["tokens"]):
            base = self.bench.ws_base(self.index, player, self.table_id)
            ws = await connect(
                f"{base}/ws/tables/{self.table_id}",
                max_size=2**22,
                compression=None,
                ping_interval=None,
            )
            await ws.send(orjson.dumps({"type": "hello", "token": token["token"]}).decode())
            seat = Seat(ws)
            self.seats.append(seat)
            await self._read_until_state(seat)
        self.readers = [asyncio.create_task(self._reader(s)) for s in self.seats]

    async def _read_until_state(self, seat: Seat) -> None:
        while seat.state is None:
            message = orjson.loads(await seat.ws.recv())
            if message["type"] == "state":
                seat.state = message

    async def _reader(self, seat: Seat) -> None:
        try:
            async for raw in seat.ws:
                message = orjson.loads(raw)
                kind = message["type"]
                stats = self.bench.stats
                if kind == "state":
                    seat.state = message
                    if "ack" in message and seat.sent_at is not None:
                        if stats.recording:
                            stats.moves += 1
                            stats.latencies.append(time.perf_counter() - seat.sent_at)
                        seat.sent_at = None
                elif kind == "error":
                    seat.sent_at = None
                    stats.errors += message["code"] != "stale"
        except Exception:
            return

    def finished(self) -> bool:
        return any(s.state is not None and s.state["status"] == "finished" for s in self.seats)

    async def move(self) -> None:
        """One paced tick: the seat to move plays a random legal move (if none in flight)."""
        if self.finished():
            await self.close()
            self.bench.stats.games += 1
            await self.open()
            return
        if any(s.sent_at is not None for s in self.seats):
            return  # the previous move is still on its way
        movers = [s for s in self.seats if s.state and s.state["view"]["legal_actions"]]
        if not movers:
            return
        seat = self.rng.choice(movers)
        assert seat.state is not None
        action = self.rng.choice(seat.state["view"]["legal_actions"])
        seat.next_id += 1
        seat.sent_at = time.perf_counter()
        await seat.ws.send(
            orjson.dumps(
                {"type": "act", "id": seat.next_id, "seq": seat.state["seq"], "action": action}
            ).decode()
        )

    async def close(self) -> None:
        for task in self.readers:
            task.cancel()
        for seat in self.seats:
            await seat.ws.close()


class CpuMeter:
    """CPU seconds used so far by the server processes, the PostgreSQL backends serving
    them (found by their application_name) and the Redis server (its INFO cpu)."""

    def __init__(self, server_pids: list[int], pg_url: str | None, redis_url: str | None):
        self.server_pids = server_pids
        self.pg = None if pg_url is None else psycopg.connect(pg_url, autocommit=True)
        self.redis = None if redis_url is None else redis.Redis.from_url(redis_url)

    def snapshot(self) -> dict[tuple[str, int], float]:
        used = {("server", pid): cpu_seconds(pid) for pid in self.server_pids}
        if self.pg is not None:
            rows = self.pg.execute(
                "SELECT pid FROM pg_stat_activity WHERE application_name = %s",
                (APPLICATION_NAME,),
            ).fetchall()
            for (pid,) in rows:
                with contextlib.suppress(OSError):  # a backend that just ended
                    used["postgres", pid] = cpu_seconds(pid)
        if self.redis is not None:
            info: dict[str, Any] = self.redis.info("cpu")  # type: ignore[assignment]
            used["redis", 0] = float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
        return used

    @staticmethod
    def spent(
        before: dict[tuple[str, int], float], after: dict[tuple[str, int], float]
    ) -> dict[str, float]:
        """CPU seconds by kind between two snapshots (a process new since: all of it)."""
        out = {"server": 0.0, "postgres": 0.0, "redis": 0.0}
        for key, seconds in after.items():
            out[key[0]] += seconds - before.get(key, 0.0)
        return out

    def close(self) -> None:
        if self.pg is not None:
            self.pg.close()
        if self.redis is not None:
            self.redis.close()


class Bench:
    def __init__(self, ports: list[int], placement: str) -> None:
        self.ports = ports
        self.placement = placement
        self.http = [
            httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) for port in ports
        ]
        self.tables: list[TablePlayer] = []
        self.stats = Stats()

    def http_of(self, table: int) -> httpx.AsyncClient:
        """The client of the process that creates table number `table` (round robin)."""
        return self.http[table % len(self.ports)]

    def ws_base(self, table: int, player: int, table_id: str) -> str:
        """Where a seat's socket goes (`placement`): the process that created the
        table; the process its id hashes to, whichever created it (as docs/deploy.md's
        nginx does); or the next process for the second seat (seats apart)."""
        if self.placement == "hash":
            process = zlib.crc32(table_id.encode()) % len(self.ports)
        else:
            process = (table + (player if self.placement == "seat" else 0)) % len(self.ports)
        return f"ws://127.0.0.1:{self.ports[process]}"

    async def open_tables(self, count: int) -> None:
        for start in range(0, count, 50):
            batch = [TablePlayer(self) for _ in range(min(50, count - start))]
            self.tables.extend(batch)
            await asyncio.gather(*(t.open() for t in batch))

    async def run_stage(
        self, rate: float, duration: float, warmup: float, meter: CpuMeter
    ) -> dict[str, Any]:
        """Pace `rate` moves per second over all tables for warmup + duration seconds."""
        interval = len(self.tables) / rate  # each table moves once per interval
        stop_at = time.perf_counter() + warmup + duration
        loop = asyncio.get_running_loop()

        async def pace(table: TablePlayer, offset: float) -> None:
            await asyncio.sleep(offset)
            next_at = time.perf_counter()
            while next_at < stop_at:
                await table.move()
                next_at += interval
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))

        tasks = [loop.create_task(pace(t, random.random() * interval)) for t in self.tables]
        await asyncio.sleep(warmup)
        self.stats = Stats(recording=True)
        cpu_before, client_before = meter.snapshot(), time.process_time()
        started = time.perf_counter()
        await asyncio.sleep(duration)
        elapsed = time.perf_counter() - started
        stats = self.stats
        stats.recording = False
        cpu = CpuMeter.spent(cpu_before, meter.snapshot())
        client_cpu = time.process_time() - client_before
        await asyncio.gather(*tasks)
        latencies = sorted(stats.latencies) or [float("nan")]

        def pct(p: float) -> float:
            return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

        def per_move(seconds: float) -> float:
            return round(seconds / max(1, stats.moves) * 1000, 3)

        backends = sum(1 for kind, _ in cpu_before if kind == "postgres")
        return {
            "target_rate": rate,
            "postgres_backends": backends,
            "moves_per_second": round(stats.moves / elapsed, 1),
            "p50_ms": round(pct(0.50), 2),
            "p99_ms": round(pct(0.99), 2),
            "max_ms": round(latencies[-1] * 1000, 2),
            "server_cpu_ms_per_move": per_move(cpu["server"]),
            "postgres_cpu_ms_per_move": per_move(cpu["postgres"]),
            "redis_cpu_ms_per_move": per_move(cpu["redis"]),
            "total_cpu_ms_per_move": per_move(sum(cpu.values())),
            "server_cpu_share": round(cpu["server"] / elapsed, 2),
            "client_cpu_share": round(client_cpu / elapsed, 2),
            "moves": stats.moves,
            "games_finished": stats.games,
            "errors": stats.errors,
            "open_sockets": sum(len(t.seats) for t in self.tables),
        }


def held(result: dict[str, Any]) -> bool:
    """A stage is held when at least 90 % of its target rate ran with p99 <= 100 ms."""
    return bool(
        result["moves_per_second"] >= HELD_SHARE * result["target_rate"]
        and result["p99_ms"] <= HELD_P99_MS
    )


async def main_async(args: argparse.Namespace, ports: list[int], meter: CpuMeter) -> list[Any]:
    bench = Bench(ports, args.placement)
    opened = time.perf_counter()
    await bench.open_tables(args.tables)
    print(
        f"opened {args.tables} tables ({2 * args.tables} sockets) on {len(ports)} "
        f"process(es) in {time.perf_counter() - opened:.1f} s"
        + (f", sockets placed by {args.placement}" if len(ports) > 1 else ""),
        flush=True,
    )
    results = []
    for rate in args.rates:
        result = await bench.run_stage(rate, args.duration, args.warmup, meter)
        results.append(result)
        print(
            f"target {rate:>6.0f}/s: {result['moves_per_second']:>7.1f} moves/s  "
            f"p50 {result['p50_ms']:6.2f} ms  p99 {result['p99_ms']:7.2f} ms  "
            f"CPU/move: server {result['server_cpu_ms_per_move']:.3f} ms "
            f"({result['server_cpu_share']:.2f} cores) + PostgreSQL "
            f"{result['postgres_cpu_ms_per_move']:.3f} ({result['postgres_backends']} backends)"
            f" + Redis "
            f"{result['redis_cpu_ms_per_move']:.3f} = {result['total_cpu_ms_per_move']:.3f} ms  "
            f"client {result['client_cpu_share']:.2f} cores  sockets {result['open_sockets']}  "
            f"errors {result['errors']}",
            flush=True,
        )
    best = max((r for r in results if held(r)), key=lambda r: r["target_rate"], default=None)
    if best is None:
        print(f"highest stage held (p99 <= {HELD_P99_MS:g} ms): none", flush=True)
    else:
        print(
            f"highest stage held (p99 <= {HELD_P99_MS:g} ms): {best['target_rate']:.0f}/s "
            f"({best['moves_per_second']:.1f} moves/s, p99 {best['p99_ms']:.2f} ms), "
            f"total CPU {best['total_cpu_ms_per_move']:.3f} ms/move",
            flush=True,
        )
    for table in bench.tables:
        await table.close()
    for client in bench.http:
        await client.aclose()
    return results


@contextlib.contextmanager
def benchmark_database(url: str | None, folder: Path) -> Iterator[tuple[str, str | None]]:
    """The servers' database URL and (PostgreSQL) the URL the CPU meter reads from: a
    SQLite file in `folder`, or a database of its own on the PostgreSQL server of `url`,
    created here and dropped at the end; the servers' connections carry APPLICATION_NAME."""
    if url is None:
        yield f"sqlite:///{folder / 'load.db'}", None
        return
    parsed = make_url(url)
    if parsed.get_backend_name() != "postgresql":
        yield url, None
        return
    libpq = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    database = f"skytotems_load_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(libpq, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{database}"')
    try:
        servers = parsed.set(database=database).update_query_dict(
            {"application_name": APPLICATION_NAME}
        )
        yield servers.render_as_string(hide_password=False), libpq
    finally:
        with psycopg.connect(libpq, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500, help="tables (2 sockets each)")
    parser.add_argument(
        "--rates",
        default="500,1000,2000",
        help="comma-separated target moves per second, one stage each",
    )
    parser.add_argument("--duration", type=float, default=15.0, help="measured seconds/stage")
    parser.add_argument("--warmup", type=float, default=3.0, help="unmeasured seconds/stage")
    parser.add_argument("--json", action="store_true", help="print a JSON line at the end")
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes on the one database (1-8)"
    )
    parser.add_argument(
        "--db",
        default=None,
        help="database URL (default: a SQLite file in a temporary folder); on PostgreSQL "
        "the benchmark creates a database of its own there, dropped at the end",
    )
    parser.add_argument(
        "--redis", default=None, help="Redis URL given to every server (SKYTOTEMS_REDIS)"
    )
    parser.add_argument(
        "--placement",
        choices=("hash", "table", "seat"),
        default="hash",
        help="where the sockets go: hash: both to the process the table id hashes to "
        "(as docs/deploy.md's nginx routes them); table: both to the process that created "
        "the table; seat: the two seats to different processes",
    )
    parser.add_argument(
        "--port",
        default="",
        help="use servers already running on 127.0.0.1:PORT[,PORT...] (for profiling)",
    )
    parser.add_argument(
        "--server-pid",
        default="",
        help="with --port: the pids whose CPU time is measured (comma-separated)",
    )
    args = parser.parse_args()
    try:
        args.rates = [float(r) for r in args.rates.split(",")]
    except ValueError:
        parser.error(f"--rates: {args.rates!r} is not a list of numbers")
    if not 1 <= args.processes <= 8:
        parser.error("--processes: between 1 and 8")
    if args.placement != "table" and args.processes > 1 and args.redis is None:
        parser.error(
            f"--placement {args.placement}: sockets away from their table's creator need --redis"
        )
    if args.processes > 1 and args.db is None:
        parser.error("--processes: several processes need a shared --db postgresql://...")
    args.tables = max(1, min(args.tables, 2000))
    args.duration = max(1.0, min(args.duration, 120.0))
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    if args.port:
        try:
            ports = [int(p) for p in args.port.split(",")]
            pids = [int(p) for p in args.server_pid.split(",") if p] or [os.getpid()]
        except ValueError:
            parser.error("--port and --server-pid: comma-separated numbers")
        meter = CpuMeter(pids, None, args.redis)
        results = asyncio.run(main_async(args, ports, meter))
    else:
        results = run_servers(args)
    if args.json:
        print(orjson.dumps({"stages": results}).decode())


def run_servers(args: argparse.Namespace) -> list[Any]:
    """Start the server processes, run the stages against them, stop them."""
    env = dict(UNLIMITED_RATES)
    if args.redis:
        env["SKYTOTEMS_REDIS"] = args.redis
    with (
        tempfile.TemporaryDirectory() as folder,
        benchmark_database(args.db, Path(folder)) as (db_url, meter_url),
    ):
        servers = [
            ServerProcess(db_url, env, cwd=REPO, start_timeout=60) for _ in range(args.processes)
        ]
        meter: CpuMeter | None = None
        try:
            for server in servers:
                server.start()
            meter = CpuMeter(
                [s.proc.pid for s in servers if s.proc is not None], meter_url, args.redis
            )
            return asyncio.run(main_async(args, [s.port for s in servers], meter))
        except RuntimeError as exc:
            raise SystemExit(str(exc)) from None
        finally:
            if meter is not None:
                meter.close()
            for server in servers:
                if server.proc is not None:
                    server.terminate()


if __name__ == "__main__":
    main()
