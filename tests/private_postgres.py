"""A private PostgreSQL server for tests that stop and start it (the restart tests): its
own data folder in a temporary directory, its own port chosen at run time, so it never
disturbs the shared server or tests running in parallel.

The binaries (initdb, pg_ctl) are found on PATH, else in `pg_config --bindir`, else in
Debian's versioned layout. PostgreSQL refuses to run as root: when the tests run as
root, the server runs as the `postgres` user (through runuser) in a folder it owns.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg

from services import service_unavailable
from skytotems.server.process import free_port

DEBIAN_BINDIRS = "/usr/lib/postgresql/*/bin"


def bindir() -> Path | None:
    """The folder holding initdb and pg_ctl, or None if PostgreSQL is not installed."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        configured = subprocess.run(
            ["pg_config", "--bindir"], capture_output=True, text=True, check=True
        ).stdout.strip()
        if (Path(configured) / "initdb").exists():
            return Path(configured)
    candidates = sorted(glob.glob(DEBIAN_BINDIRS), reverse=True)  # the newest version first
    for folder in candidates:
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


class PrivatePostgres:
    """One PostgreSQL server in `folder` on `port`, with a database `skytotems`."""

    def __init__(self, bin_folder: Path, folder: Path) -> None:
        self.bin = bin_folder
        self.folder = folder
        self.data = folder / "data"
        self.port = free_port()
        self.user: str | None = None
        if os.geteuid() == 0:  # initdb and postgres refuse to run as root
            self.user = "postgres"
            owner = pwd.getpwnam(self.user)
            os.chown(folder, owner.pw_uid, owner.pw_gid)

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/skytotems"

    def _run(self, *args: str, timeout: float = 60) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {done.stdout}{done.stderr}")

    def init(self) -> PrivatePostgres:
        """Create the cluster (trust authentication, no fsync: a test's data), start it and
        create the database."""
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-N")
        self.start()
        with psycopg.connect(
            f"postgresql://postgres@127.0.0.1:{self.port}/postgres", autocommit=True
        ) as conn:
            conn.execute("CREATE DATABASE skytotems")
        return self

    def start(self) -> None:
        """Start the server (again) on the same port and folder; returns once it answers."""
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder} "
            "-c fsync=off -c full_page_writes=off"
        )
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-o", options,
            "-w", "-t", "60", "start",
        )  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        """Stop the server: "fast" (every session is ended, as a restart by an operator)
        or "immediate" (as a crash)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def running(self) -> bool:
        with contextlib.suppress(psycopg.OperationalError):
            psycopg.connect(self.url, connect_timeout=2).close()
            return True
        return False

    def log(self) -> str:
        with contextlib.suppress(OSError):
            return (self.folder / "log").read_text(errors="replace")
        return ""


@contextlib.contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    """A private PostgreSQL for the block; stopped and deleted afterwards. Skips (fails
    under SKYTOTEMS_REQUIRE_SERVICES=1) where PostgreSQL is not installed."""
    found = bindir()
    if found is None:
        service_unavailable("PostgreSQL's initdb/pg_ctl not found (install postgresql)")
    # not under pytest's tmp_path: its parents are private to the user running the tests
    folder = Path(tempfile.mkdtemp(prefix="skytotems-pg-"))
    server = PrivatePostgres(found, folder)
    try:
        server.init()
        yield server
    finally:
        with contextlib.suppress(Exception):
            server.stop("immediate")
        deadline = time.monotonic() + 10
        while True:  # the server's files go once it has exited
            try:
                shutil.rmtree(folder)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
