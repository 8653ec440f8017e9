"""Run the server (`python -m skytotems.server`, what `skytotems serve` runs) in a child
process on 127.0.0.1 and wait until it answers: for tests, benchmarks and demos."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO, Self


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


# per-address and per-socket rates high enough for tests and benchmarks that play many
# tables from one address as fast as the server answers (the real limits are tested on
# their own)
UNLIMITED_RATES = {
    "SKYTOTEMS_HTTP_RATE": "1000000/minute",
    "SKYTOTEMS_CREATE_RATE": "1000000/minute",
    "SKYTOTEMS_WS_HANDSHAKE_RATE": "1000000/minute",
    "SKYTOTEMS_WS_SOCKETS_PER_ADDRESS": "1000000",
    "SKYTOTEMS_WS_MESSAGE_RATE": "1000000/second",
}


class ServerProcess:
    """The real server process; its output goes to `log_path` (or is read on failure)."""

    def __init__(
        self,
        db_url: str,
        env: dict[str, str] | None = None,
        log_path: Path | None = None,
        cwd: Path | None = None,
        start_timeout: float = 30.0,
        redis_url: str | None = None,
    ) -> None:
        self.db_url = db_url
        self.redis_url = redis_url  # several processes: their shared Redis
        self.env = env or {}
        self.log_path = log_path
        self.cwd = cwd
        self.start_timeout = start_timeout
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Self:
        """Start the process and return once GET /api/health answers 200."""
        command = [
            sys.executable, "-m", "skytotems.server",
            "--host", "127.0.0.1", "--port", str(self.port),
            "--db", self.db_url, "--log-level", "warning",
        ]  # fmt: skip
        if self.redis_url is not None:
            command += ["--redis", self.redis_url]
        log: IO[bytes] | None = self.log_path.open("wb") if self.log_path else None
        try:
            self.proc = subprocess.Popen(
                command,
                env=dict(os.environ, **self.env),
                cwd=self.cwd,
                stdout=log if log else subprocess.DEVNULL,
                stderr=subprocess.STDOUT if log else subprocess.PIPE,
            )
        finally:
            if log:
                log.close()
        deadline = time.monotonic() + self.start_timeout
        while not self._healthy():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.proc.kill()
                raise RuntimeError(f"the server did not start:\n{self._output()[-3000:]}")
            time.sleep(0.05)
        return self

    def _healthy(self) -> bool:
        try:
            with urllib.request.urlopen(self.base + "/api/health", timeout=1) as response:
                return bool(response.status == 200)
        except (urllib.error.URLError, OSError):
            return False

    def _output(self) -> str:
        if self.log_path:
            return self.log_path.read_text(errors="replace")
        if self.proc and self.proc.stderr:
            return self.proc.stderr.read().decode(errors="replace")
        return ""

    def kill9(self) -> None:
        """SIGKILL: the crash the restart tests survive."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)

    def terminate(self) -> None:
        """Stop gracefully, killing it if it does not stop within 15 s."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
