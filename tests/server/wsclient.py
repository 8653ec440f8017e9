"""Scripted clients and server launchers for the server tests (real sockets, a real
SQLite or PostgreSQL database), and a reader of what the database holds."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import random
import socket
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx
import uvicorn
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text
from websockets.sync.client import ClientConnection, connect

from skytotems.server import Settings, create_app, store
from skytotems.server.process import UNLIMITED_RATES, ServerProcess

REPO = Path(__file__).resolve().parents[2]
T = TypeVar("T")
# the `start_process` fixture (tests/server/conftest.py): a started server process
Start = Callable[..., ServerProcess]


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run` in a thread of its own: the browser tests' Playwright (sync API) keeps
    an event loop running in the main thread of their worker for the whole session, where
    `asyncio.run` would refuse to start."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def db_rows(db_url: str, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    """Rows of a query on the server's database (any dialect); JSON columns decoded."""
    engine = store.make_engine(db_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(text(sql), params).all()
    finally:
        engine.dispose()
    return [tuple(_decoded(v) for v in row) for row in rows]


@contextlib.contextmanager
def tables_locked(db_url: str) -> Iterator[None]:
    """Hold a lock that makes every write to the tables wait (SQLite's write lock, or a
    PostgreSQL table lock that still lets readers through) until the block ends."""
    engine = store.make_engine(db_url)
    try:
        with engine.connect() as conn:
            if engine.dialect.name == "sqlite":
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            else:
                conn.begin()
                conn.exec_driver_sql("LOCK TABLE tables IN EXCLUSIVE MODE")
            try:
                yield
            finally:
                conn.rollback()
    finally:
        engine.dispose()


def _decoded(value: Any) -> Any:
    """SQLite hands JSON columns back as text, PostgreSQL as Python values."""
    if isinstance(value, str) and value[:1] in ("{", "["):
        return json.loads(value)
    return value


class ThreadServer:
    """The real app under uvicorn in a thread of the test process, on a port of its own."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.app = create_app(settings)
        config = uvicorn.Config(
            self.app,
            log_level="warning",
            ws_max_size=65536,
            ws_ping_interval=settings.ws_ping_s,
            ws_ping_timeout=settings.ws_ping_s,
            lifespan="on",
            proxy_headers=False,  # as `skytotems serve`: the app resolves addresses itself
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]})

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    @property
    def runtime(self) -> Any:
        """The running app's `Runtime` (hub, service, settings)."""
        return self.app.state.runtime

    def call(self, fn: Any) -> Any:
        """Run `fn()` on the server's event loop (its thread) and return what it returns."""
        loop = self.server.servers[0].get_loop()

        async def run() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), loop).result(10)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)
        self.sock.close()


class ProcessServer(ServerProcess):
    """`python -m skytotems.server` in a child process (for restart and kill -9 tests)."""

    def __init__(
        self, db_url: str, env: dict[str, str] | None = None, redis_url: str | None = None
    ) -> None:
        super().__init__(db_url, {**UNLIMITED_RATES, **(env or {})}, cwd=REPO, redis_url=redis_url)


def create_table(base: str, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    """POST /api/tables; returns the response with tokens by player."""
    response = httpx.post(base + "/api/tables", json={"seats": seats, **body}, timeout=10)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    data["token_of"] = {t["player"]: t["token"] for t in data["tokens"]}
    return data


class Client:
    """One scripted socket: hello, then send messages and read what comes back."""

    def __init__(
        self,
        base: str,
        table_id: str,
        token: str | None,
        seq: int | None = None,
        hello: bool = True,
    ) -> None:
        self._connection = connect(
            base.replace("http", "ws") + f"/ws/tables/{table_id}",
            open_timeout=10,
            max_size=2**22,
        )
        self.ws: ClientConnection = self._connection.__enter__()
        self.received: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.state: dict[str, Any] | None = None
        self.welcome: dict[str, Any] | None = None
        self._next_id = 0
        if hello:
            self.send({"type": "hello", "token": token, "seq": seq})
            self.welcome = self.recv_type("welcome")
            self.recv_type("state")

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def send_raw(self, text: str | bytes) -> None:
        self.ws.send(text)

    def send_at_once(self, messages: list[dict[str, Any]]) -> None:
        """Send `messages` in one write: the server has them all before it answers the
        first, so what it answers (a close among it) cannot race the sending."""
        ws = self.ws
        with ws.protocol_mutex:  # what the connection's own sends and replies hold
            for message in messages:
                ws.protocol.send_text(json.dumps(message).encode())
            ws.socket.sendall(b"".join(ws.protocol.data_to_send()))

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        message: dict[str, Any] = json.loads(text)
        self.received.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def recv_type(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if message["type"] == kind:
                return message

    def drain(self, quiet: float = 0.05) -> None:
        """Read whatever arrives until nothing has come for `quiet` seconds."""
        with contextlib.suppress(TimeoutError):
            while True:
                self.recv(quiet)

    def request(self, message: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        """Send with a fresh id; return the reply that names it (state+ack or error)."""
        self._next_id += 1
        message = dict(message, id=self._next_id)
        self.send(message)
        deadline = time.monotonic() + timeout
        while True:
            reply = self.recv(max(0.01, deadline - time.monotonic()))
            if reply.get("ack") == self._next_id or (
                reply["type"] in ("error", "done", "pong") and reply.get("id") == self._next_id
            ):
                return reply

    @property
    def seq(self) -> int:
        assert self.state is not None
        seq: int = self.state["seq"]
        return seq

    @property
    def view(self) -> dict[str, Any]:
        assert self.state is not None
        v: dict[str, Any] = self.state["view"]
        return v

    def act(self, action: dict[str, Any], seq: int | None = None) -> dict[str, Any]:
        return self.request(
            {"type": "act", "seq": self.seq if seq is None else seq, "action": action}
        )

    def undo(self, to: str = "last") -> dict[str, Any]:
        return self.request({"type": "undo", "seq": self.seq, "to": to})

    def close(self) -> None:
        self.ws.close()


def wait_for(predicate: Any, timeout: float = 10.0, step: float = 0.02) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(step)


def play_until(clients: list[Client], rng: random.Random, stop: Any, max_moves: int = 5000) -> int:
    """Every client plays uniformly random legal moves from its own view until `stop()`."""
    moves = 0
    idle_since = time.monotonic()
    while not stop() and moves < max_moves:
        for client in clients:
            client.drain(0.0)
        movers = [
            c
            for c in clients
            if c.state and c.view["legal_actions"] and c.state["status"] == "playing"
        ]
        if not movers:
            # a bot is to move, or a state is still on its way: wait for it
            assert time.monotonic() - idle_since < 20, "nobody can move"
            clients[0].drain(0.02)
            continue
        idle_since = time.monotonic()
        client = rng.choice(movers)
        reply = client.act(rng.choice(client.view["legal_actions"]))
        if reply["type"] == "error":
            assert reply["code"] == "stale", reply
            continue
        moves += 1
    return moves


def reach_first_turn(clients: list[Client]) -> Client:
    """Choose starting cards and place start clouds; return the client whose turn it is."""
    for c in clients:
        c.act(c.view["legal_actions"][0], seq=0)
    while True:
        for c in clients:
            c.drain(0.05)
        mover = next(c for c in clients if c.view["legal_actions"])
        if mover.view["decision"]["kind"] == "turn":
            return mover
        assert mover.act(mover.view["legal_actions"][0])["type"] == "state"


@contextlib.contextmanager
def clients_for(base: str, table: dict[str, Any]) -> Iterator[list[Client]]:
    clients = [Client(base, table["table"]["id"], tok) for tok in table["token_of"].values()]
    try:
        yield clients
    finally:
        for c in clients:
            c.close()


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(base: str) -> Samples:
    """Every sample of /metrics by (name, labels), read by prometheus_client's parser."""
    response = httpx.get(base + "/metrics", timeout=10)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    samples: Samples = {}
    for family in text_string_to_metric_families(response.text):
        for s in family.samples:
            samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def ws_frame(text: str) -> bytes:
    """One masked text frame, as a client sends it (RFC 6455 §5.2)."""
    payload = text.encode()
    mask = os.urandom(4)
    n = len(payload)
    if n < 126:
        head = bytes([0x81, 0x80 | n])
    elif n < 65536:
        head = bytes([0x81, 0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([0x81, 0x80 | 127]) + n.to_bytes(8, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class Sleeper:
    """A raw socket that opens a table's WebSocket, says hello, then never reads again
    (nor answers pings): a tiny receive buffer, so the server's side fills at once."""

    def __init__(
        self, base: str, table_id: str, token: str | None = None, send_buffer: int = 0
    ) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        if send_buffer:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
        self.sock.settimeout(10)
        self.sock.connect((host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET /ws/tables/{table_id} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            assert chunk, "closed during the handshake"
            head += chunk
        self.status = int(head.split(b" ", 2)[1])
        if self.status == 101:
            self.sock.sendall(ws_frame(json.dumps({"type": "hello", "token": token})))

    def read_until(self, marker: bytes, timeout: float = 20.0) -> bytes:
        """Read until `marker` has arrived (or the connection ends); everything read."""
        got = b""
        self.sock.settimeout(timeout)
        while marker not in got and (chunk := self.sock.recv(65536)):
            got += chunk
        return got

    def read_to_end(self, timeout: float = 30.0) -> tuple[int, str]:
        """Read everything the kernel holds for us, then how the connection ended:
        bytes read and "reset" (the server aborted), "eof" or "open" (still open)."""
        total = 0
        self.sock.settimeout(timeout)
        try:
            while chunk := self.sock.recv(65536):
                total += len(chunk)
        except ConnectionResetError:
            return total, "reset"
        except TimeoutError:
            return total, "open"
        return total, "eof"

    def close(self) -> None:
        self.sock.close()
