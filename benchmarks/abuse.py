"""Abuse benchmark of the game server: what one hostile client costs everyone else.

Starts the real server process (`python -m skytotems.server`, SQLite file in a temporary
folder, 127.0.0.1 only) for each part, measures, and stops it. Bounded in time; it stops
by itself. Parts (`--parts`, comma-separated; default: all):

  bodies   an 8 MB and a 200 MB POST to /api/tables: the answer and its time, the server's
           peak resident memory (VmHWM) after each, and the longest ping round trip of a
           spectator socket on another table while the body is sent (the stall of games)

`--src` runs the server from another checkout's `src` folder (for instance the base
commit in a `git worktree`), so both can be compared in one run on the same machine.

    python benchmarks/abuse.py
    python benchmarks/abuse.py --parts bodies --src ../base/src
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect

from skytotems.server.process import ServerProcess

MB = 1024 * 1024


def peak_rss_mb(pid: int) -> float:
    """The process's peak resident memory so far (VmHWM), in MB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def started(folder: Path, src: str | None) -> ServerProcess:
    env = {"PYTHONPATH": src} if src else {}
    return ServerProcess(f"sqlite:///{folder / 'abuse.db'}", env, folder / "server.log").start()


# ------------------------------------------------------------------- bodies


async def _pinger(base: str, table_id: str, stop: asyncio.Event, rtts: list[float]) -> None:
    """A spectator on another table pinging every 10 ms; each round trip recorded."""
    url = base.replace("http", "ws") + f"/ws/tables/{table_id}"
    async with connect(url, max_size=2**24) as ws:
        await ws.send(orjson.dumps({"type": "hello", "token": None, "seq": None}).decode())
        while orjson.loads(await ws.recv())["type"] != "state":
            pass
        n = 0
        while not stop.is_set():
            n += 1
            sent = time.perf_counter()
            await ws.send(orjson.dumps({"type": "ping", "id": n}).decode())
            while orjson.loads(await ws.recv()).get("id") != n:
                pass
            rtts.append(time.perf_counter() - sent)
            await asyncio.sleep(0.01)


def _post_body(port: int, size: int) -> tuple[str, float]:
    """POST `size` bytes of JSON to /api/tables in 1 MB writes; the status line and time.
    A server that answers before reading stops the upload early (a reset is expected)."""
    began = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {size}\r\n\r\n".encode()
        )
        chunk = b" " * MB
        sent = 0
        try:
            while sent < size:
                piece = chunk[: min(MB, size - sent)]
                sock.sendall(piece)
                sent += len(piece)
        except (BrokenPipeError, ConnectionResetError):
            pass
        try:
            status = sock.recv(4096).split(b"\r\n", 1)[0].decode(errors="replace")
        except (ConnectionResetError, TimeoutError) as exc:
            status = f"({type(exc).__name__})"
    return f"{status} after {sent / MB:.0f} MB sent", time.perf_counter() - began


async def bodies(src: str | None) -> dict[str, Any]:
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        server = started(Path(tmp), src)
        try:
            assert server.proc is not None
            pid = server.proc.pid
            created = httpx.post(
                server.base + "/api/tables",
                json={"seats": [{"type": "human"}, {"type": "human"}]},
            ).json()
            table_id = created["table"]["id"]
            results["rss_mb_at_start"] = round(peak_rss_mb(pid), 1)
            for size_mb in (8, 200):
                quiet: list[float] = []
                stop = asyncio.Event()
                task = asyncio.create_task(_pinger(server.base, table_id, stop, quiet))
                await asyncio.sleep(1.0)
                rtts: list[float] = []
                quiet_count = len(quiet)
                status, elapsed = await asyncio.to_thread(_post_body, server.port, size_mb * MB)
                await asyncio.sleep(0.2)
                stop.set()
                await task
                rtts = quiet[quiet_count:]
                quiet = quiet[:quiet_count]
                results[f"{size_mb}MB"] = {
                    "answer": status,
                    "seconds": round(elapsed, 3),
                    "peak_rss_mb": round(peak_rss_mb(pid), 1),
                    "quiet_ping_max_ms": round(max(quiet) * 1000, 1),
                    "ping_max_during_ms": round(max(rtts, default=0.0) * 1000, 1),
                }
        finally:
            server.terminate()
    return results


PARTS: dict[str, Callable[[str | None], Awaitable[dict[str, Any]]]] = {"bodies": bodies}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", default=",".join(PARTS), help="comma-separated parts")
    parser.add_argument("--src", default=None, help="run the server from this src folder")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    out: dict[str, Any] = {}
    for name in args.parts.split(","):
        out[name] = asyncio.run(PARTS[name](args.src))
        if not args.json:
            print(f"== {name}")
            for key, value in out[name].items():
                print(f"  {key}: {value}")
    if args.json:
        print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
