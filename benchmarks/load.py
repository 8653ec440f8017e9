"""Load benchmark of the game server: the production path under many tables at once.

Starts the real server process (`python -m skytotems.server`, SQLite file in a temporary
folder, 127.0.0.1 only), opens `--tables` two-player tables with two sockets each, and
has every table play random legal moves (chosen from the views the server sends) at a
paced total rate, stage after stage. For each stage it prints the moves per second
achieved, p50/p99 latency from sending a move to receiving the resulting view, and the
server's CPU seconds per move. Bounded in time and moves; it stops by itself.

    python benchmarks/load.py                       # 500 tables = 1,000 sockets
    python benchmarks/load.py --rates 500,1000,2000 --duration 15 --json
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

from skytotems.server.process import UNLIMITED_RATES, ServerProcess

REPO = Path(__file__).resolve().parents[1]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


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
        self.rng = random.Random(len(bench.tables))
        self.readers: list[asyncio.Task[None]] = []

    async def open(self) -> None:
        response = await self.bench.http.post(
            "/api/tables", json={"seats": [{"type": "human"}, {"type": "human"}]}
        )
        data = response.json()
        self.table_id = data["table"]["id"]
        self.seats = []
        for token in data["tokens"]:
            ws = await connect(
                f"{self.bench.ws_base}/ws/tables/{self.table_id}",
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


class Bench:
    def __init__(self, port: int) -> None:
        self.http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30)
        self.ws_base = f"ws://127.0.0.1:{port}"
        self.tables: list[TablePlayer] = []
        self.stats = Stats()

    async def open_tables(self, count: int) -> None:
        for start in range(0, count, 50):
            batch = [TablePlayer(self) for _ in range(min(50, count - start))]
            self.tables.extend(batch)
            await asyncio.gather(*(t.open() for t in batch))

    async def run_stage(
        self, rate: float, duration: float, warmup: float, server_pid: int
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
        cpu_before, client_before = cpu_seconds(server_pid), time.process_time()
        started = time.perf_counter()
        await asyncio.sleep(duration)
        elapsed = time.perf_counter() - started
        stats = self.stats
        stats.recording = False
        cpu = cpu_seconds(server_pid) - cpu_before
        client_cpu = time.process_time() - client_before
        await asyncio.gather(*tasks)
        latencies = sorted(stats.latencies) or [float("nan")]

        def pct(p: float) -> float:
            return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

        return {
            "target_rate": rate,
            "moves_per_second": round(stats.moves / elapsed, 1),
            "p50_ms": round(pct(0.50), 2),
            "p99_ms": round(pct(0.99), 2),
            "max_ms": round(latencies[-1] * 1000, 2),
            "server_cpu_ms_per_move": round(cpu / max(1, stats.moves) * 1000, 3),
            "server_cpu_share": round(cpu / elapsed, 2),
            "client_cpu_share": round(client_cpu / elapsed, 2),
            "moves": stats.moves,
            "games_finished": stats.games,
            "errors": stats.errors,
            "open_sockets": sum(len(t.seats) for t in self.tables),
        }


async def main_async(args: argparse.Namespace, port: int, pid: int) -> list[dict[str, Any]]:
    bench = Bench(port)
    opened = time.perf_counter()
    await bench.open_tables(args.tables)
    print(
        f"opened {args.tables} tables ({2 * args.tables} sockets) in "
        f"{time.perf_counter() - opened:.1f} s",
        flush=True,
    )
    results = []
    for rate in args.rates:
        result = await bench.run_stage(rate, args.duration, args.warmup, pid)
        results.append(result)
        print(
            f"target {rate:>6.0f}/s: {result['moves_per_second']:>7.1f} moves/s  "
            f"p50 {result['p50_ms']:6.2f} ms  p99 {result['p99_ms']:7.2f} ms  "
            f"server CPU {result['server_cpu_ms_per_move']:.3f} ms/move "
            f"({result['server_cpu_share']:.2f} cores)  client {result['client_cpu_share']:.2f}"
            f" cores  sockets {result['open_sockets']}  errors {result['errors']}",
            flush=True,
        )
    for table in bench.tables:
        await table.close()
    await bench.http.aclose()
    return results


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
        "--port",
        type=int,
        default=0,
        help="use a server already running on 127.0.0.1:PORT (for profiling)",
    )
    parser.add_argument(
        "--server-pid", type=int, default=0, help="with --port: the pid whose CPU time is measured"
    )
    args = parser.parse_args()
    args.rates = [float(r) for r in args.rates.split(",")]
    args.tables = max(1, min(args.tables, 2000))
    args.duration = max(1.0, min(args.duration, 120.0))
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    if args.port:
        results = asyncio.run(main_async(args, args.port, args.server_pid or os.getpid()))
        if args.json:
            print(orjson.dumps({"stages": results}).decode())
        return
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(
            f"sqlite:///{Path(folder) / 'load.db'}", UNLIMITED_RATES, cwd=REPO, start_timeout=60
        )
        try:
            server.start()
        except RuntimeError as exc:
            raise SystemExit(str(exc)) from None
        assert server.proc is not None
        try:
            results = asyncio.run(main_async(args, server.port, server.proc.pid))
        finally:
            server.terminate()
    if args.json:
        print(orjson.dumps({"stages": results}).decode())


if __name__ == "__main__":
    main()
