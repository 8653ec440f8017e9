"""Abuse benchmark of the game server: what one hostile client costs everyone else.

Starts the real server process (`python -m skytotems.server`, SQLite file in a temporary
folder, 127.0.0.1 only) for each part, measures, and stops it. Bounded in time; it stops
by itself. Parts (`--parts`, comma-separated; default: all):

  bodies   an 8 MB and a 200 MB POST to /api/tables: the answer and its time, the server's
           peak resident memory (VmHWM) after each, and the longest ping round trip of a
           spectator socket on another table while the body is sent (the stall of games)
  flood    other players' ping round trips (p50/p99) on their own tables, quiet and then
           while another process floods pings and stale moves as fast as the kernel
           takes them, from one socket and from as many as the per-address cap allows
           (reconnecting at once whenever cut); the bar: flood p99 under
           max(250 ms, 5 x quiet p99)
  sleepers 300 and 600 sockets that say hello and never read again while a 4-player table
           moves as fast as its players can: peak process memory (VmHWM), peak kernel
           send queues of the server's sockets, and how long after the play stops until
           every sleeper is released (the server's sockets closed, their queues freed)

`--src` runs the server from another checkout's `src` folder (for instance the base
commit in a `git worktree`), so both can be compared in one run on the same machine.

    python benchmarks/abuse.py
    python benchmarks/abuse.py --parts bodies --src ../base/src
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import multiprocessing
import os
import random
import socket
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect

from skytotems.server.process import UNLIMITED_RATES, ServerProcess

MB = 1024 * 1024


def peak_rss_mb(pid: int) -> float:
    """The process's peak resident memory so far (VmHWM), in MB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def started(folder: Path, src: str | None, env: dict[str, str] | None = None) -> ServerProcess:
    env = {**(env or {}), **({"PYTHONPATH": src} if src else {})}
    return ServerProcess(f"sqlite:///{folder / 'abuse.db'}", env, folder / "server.log").start()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def ws_frame(text: str) -> bytes:
    """One masked text frame, as a client sends it (RFC 6455 §5.2)."""
    payload = text.encode()
    mask = os.urandom(4)
    n = len(payload)
    assert n < 126, "short frames only"
    return bytes([0x81, 0x80 | n]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def raw_socket(port: int, table_id: str, token: str | None, rcvbuf: int = 0) -> socket.socket:
    """A table socket opened by hand (handshake and hello); OSError if refused."""
    sock = socket.socket()
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(30)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws/tables/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            sock.close()
            raise ConnectionError("closed during the handshake")
        head += chunk
    if not head.startswith(b"HTTP/1.1 101"):
        sock.close()
        raise ConnectionRefusedError(head.split(b"\r\n", 1)[0].decode())
    sock.sendall(ws_frame(json.dumps({"type": "hello", "token": token})))
    return sock


def kernel_send_queue_bytes(port: int) -> int:
    """Bytes in the kernel send queues of the sockets whose local port is `port` (the
    server's side of every connection), from /proc/net/tcp*."""
    total = 0
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(name) as f:
            next(f)
            for line in f:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == port:
                    total += int(fields[4].split(":")[0], 16)
    return total


def health(base: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(base + "/api/health", timeout=30).json()
    return data


# ------------------------------------------------------------------- bodies


# a player pinging every 100 ms stays within the per-socket message rate
ROUND_TRIP_EVERY_S = 0.1


async def _pinger(
    base: str, table_id: str, stop: asyncio.Event, rtts: list[float], every_s: float = 0.01
) -> None:
    """A spectator of `table_id` pinging every `every_s`; each round trip recorded."""
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
            await asyncio.sleep(every_s)


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


# -------------------------------------------------------------------- flood

FLOOD_S = 10.0
QUIET_S = 5.0


def _flood_worker(port: int, table_id: str, token: str, until: float, counts: Any) -> None:
    """One flooding socket, opened again at once whenever the server cuts it."""
    stale = ws_frame(json.dumps({"type": "act", "id": 1, "seq": 0,
                                 "action": {"type": "pass", "seat": 0}}))  # fmt: skip
    batch = (ws_frame(json.dumps({"type": "ping", "id": 1})) + stale) * 200
    while time.monotonic() < until:
        try:
            sock = raw_socket(port, table_id, token)
            sock.settimeout(max(0.1, until - time.monotonic()))
        except OSError:
            with counts.get_lock():
                counts[1] += 1  # a refused handshake (429) or a failed one
            time.sleep(0.01)
            continue
        with counts.get_lock():
            counts[0] += 1
        try:  # blocking writes: the flooder sleeps while the kernel will take nothing more
            while time.monotonic() < until:
                sock.sendall(batch)
                with counts.get_lock():
                    counts[2] += len(batch)
        except OSError:
            pass
        finally:
            sock.close()


def _flood_process(port: int, table_id: str, token: str, sockets: int, until: float,
                   counts: Any) -> None:  # fmt: skip
    threads = [
        threading.Thread(target=_flood_worker, args=(port, table_id, token, until, counts))
        for _ in range(sockets)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


async def _measure_flood(server: ServerProcess, sockets: int, players: int) -> dict[str, Any]:
    tables = [
        httpx.post(server.base + "/api/tables", json={"seats": [{"type": "human"}] * 2}).json()
        for _ in range(players)
    ]
    target = httpx.post(server.base + "/api/tables", json={"seats": [{"type": "human"}] * 2})
    target_id, token = target.json()["table"]["id"], target.json()["tokens"][0]["token"]
    rtts: list[float] = []
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(_pinger(server.base, t["table"]["id"], stop, rtts, ROUND_TRIP_EVERY_S))
        for t in tables
    ]
    await asyncio.sleep(QUIET_S)
    quiet = list(rtts)
    counts = multiprocessing.Array("q", 3)
    until = time.monotonic() + FLOOD_S
    flooder = multiprocessing.Process(
        target=_flood_process, args=(server.port, target_id, token, sockets, until, counts)
    )
    began = len(rtts)
    flooder.start()
    await asyncio.to_thread(flooder.join, FLOOD_S + 60)
    during = rtts[began:]
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    quiet_p99 = percentile(quiet, 0.99)
    bar = max(0.25, 5 * quiet_p99)
    flood_p99 = percentile(during, 0.99)
    return {
        "players": players,
        "flooding_sockets": sockets,
        "quiet_round_trips": len(quiet),
        "quiet_p50_ms": round(percentile(quiet, 0.5) * 1000, 1),
        "quiet_p99_ms": round(quiet_p99 * 1000, 1),
        "flood_round_trips": len(during),
        "flood_p50_ms": round(percentile(during, 0.5) * 1000, 1),
        "flood_p99_ms": round(flood_p99 * 1000, 1),
        "flood_max_ms": round(max(during, default=float("nan")) * 1000, 1),
        "bar_ms": round(bar * 1000, 1),
        "under_bar": flood_p99 < bar,
        "flooder_sockets_opened": counts[0],
        "flooder_handshakes_refused": counts[1],
        "flooder_mb_written": round(counts[2] / MB, 1),
    }


async def flood(src: str | None) -> dict[str, Any]:
    """The default limits, except that the players' own sockets (from this address too)
    leave the flooder the rest of the per-address socket cap."""
    results: dict[str, Any] = {}
    for sockets in (1, 90):
        with tempfile.TemporaryDirectory() as tmp:
            server = started(Path(tmp), src, {"SKYTOTEMS_CREATE_RATE": "1000/minute"})
            try:
                results[f"{sockets}_socket(s)"] = await _measure_flood(server, sockets, 8)
            finally:
                server.terminate()
    return results


# ----------------------------------------------------------------- sleepers

PLAY_S = 15.0
RELEASE_WAIT_S = 90.0


def _can_move(state: dict[str, Any] | None) -> bool:
    return bool(state and state["status"] == "playing" and state["view"]["legal_actions"])


async def _play_fast(base: str, table: dict[str, Any], until: float) -> int:
    """The table's four players play random legal moves as fast as they are answered."""
    url = base.replace("http", "ws") + f"/ws/tables/{table['table']['id']}"
    rng = random.Random(1)
    seats = []
    for token in table["tokens"]:
        ws = await connect(url, max_size=2**24)
        await ws.send(orjson.dumps({"type": "hello", "token": token["token"]}).decode())
        seats.append({"ws": ws, "state": None})
    moves = 0

    async def read(seat: dict[str, Any]) -> None:
        async for text in seat["ws"]:
            message = orjson.loads(text)
            if message["type"] == "state":
                seat["state"] = message

    readers = [asyncio.create_task(read(seat)) for seat in seats]
    while time.monotonic() < until:
        movers = [s for s in seats if _can_move(s["state"])]
        if not movers:
            if all(s["state"] and s["state"]["status"] == "finished" for s in seats):
                break
            await asyncio.sleep(0.002)
            continue
        seat = rng.choice(movers)
        state = seat["state"]
        action = rng.choice(state["view"]["legal_actions"])
        await seat["ws"].send(
            orjson.dumps(
                {"type": "act", "id": moves, "seq": state["seq"], "action": action}
            ).decode()
        )
        seat["state"] = None  # wait for the next state before this seat moves again
        moves += 1
        await asyncio.sleep(0)
    for seat in seats:
        await seat["ws"].close()
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    return moves


async def _sleepers(src: str | None, count: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        server = started(Path(tmp), src, dict(UNLIMITED_RATES))
        assert server.proc is not None
        pid, port = server.proc.pid, server.port
        try:
            table = httpx.post(
                server.base + "/api/tables",
                json={"options": {"players": 4}, "seats": [{"type": "human"}] * 4},
            ).json()
            table_id = table["table"]["id"]
            sleepers = [
                await asyncio.to_thread(raw_socket, port, table_id, None, 4096)
                for _ in range(count)
            ]
            peak_queue = 0
            done = asyncio.Event()

            async def sample() -> None:
                nonlocal peak_queue
                while not done.is_set():
                    peak_queue = max(peak_queue, kernel_send_queue_bytes(port))
                    await asyncio.sleep(0.25)

            sampler = asyncio.create_task(sample())
            began = time.monotonic()
            moves = await _play_fast(server.base, table, began + PLAY_S)
            stopped = time.monotonic()
            released: float | None = None
            while time.monotonic() - stopped < RELEASE_WAIT_S:
                queued = kernel_send_queue_bytes(port)
                if health(server.base)["connections"] == 0 and queued < 64 * 1024:
                    released = time.monotonic() - stopped
                    break
                await asyncio.sleep(0.25)
            done.set()
            await sampler
            cut = 0
            for sock in sleepers:
                sock.setblocking(False)
                try:
                    while sock.recv(1 << 20):
                        pass
                except ConnectionResetError:
                    cut += 1
                except BlockingIOError:
                    pass
                sock.close()
            return {
                "moves": moves,
                "play_s": round(stopped - began, 1),
                "peak_rss_mb": round(peak_rss_mb(pid), 1),
                "peak_kernel_send_queues_mb": round(peak_queue / MB, 1),
                "release_s": round(released, 1) if released is not None else
                f"not within {RELEASE_WAIT_S:g} s",
                "sleepers_reset_by_server": cut,
            }  # fmt: skip
        finally:
            server.terminate()


async def sleepers(src: str | None) -> dict[str, Any]:
    return {f"{n}_sleepers": await _sleepers(src, n) for n in (300, 600)}


PARTS: dict[str, Callable[[str | None], Awaitable[dict[str, Any]]]] = {
    "bodies": bodies,
    "flood": flood,
    "sleepers": sleepers,
}


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
