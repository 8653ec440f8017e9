"""A private redis-server for tests that stop and start it: its own port chosen at run
time and its own folder, so the shared Redis and tests running in parallel never notice."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import redis

from services import service_unavailable
from skytotems.server.process import free_port


class PrivateRedis:
    """redis-server on 127.0.0.1:`port`, nothing persisted; `stop` and `start` again."""

    def __init__(self, executable: str, folder: Path) -> None:
        self.executable = executable
        self.folder = folder
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start the server on its port; returns once it answers a ping."""
        command = [
            self.executable, "--port", str(self.port), "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no", "--dir", str(self.folder),
        ]  # fmt: skip
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while not self.running():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def running(self) -> bool:
        with (
            contextlib.suppress(redis.RedisError),
            redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=1) as client,
        ):
            return bool(client.ping())
        return False


@contextlib.contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    """A private Redis for the block; skips (fails under SKYTOTEMS_REQUIRE_SERVICES=1)
    where redis-server is not installed."""
    executable = shutil.which("redis-server")
    if executable is None:
        service_unavailable("redis-server not found (install redis-server)")
    with tempfile.TemporaryDirectory(prefix="skytotems-redis-") as folder:
        server = PrivateRedis(executable, Path(folder))
        server.start()
        try:
            yield server
        finally:
            server.stop()
