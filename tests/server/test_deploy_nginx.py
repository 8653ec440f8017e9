"""The nginx configuration of docs/deploy.md, taken from the page itself, runs Debian's
nginx (a prefix of its own, ports chosen at run time) in front of two real server
processes on one PostgreSQL database: HTTP and the WebSocket upgrade go through it,
readiness answers, /metrics is kept from the outside, and a game is played to its end
through nginx."""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import random
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
from wsclient import (
    REPO,
    Client,
    ProcessServer,
    create_table,
    db_rows,
    play_until,
    scrape,
    value,
    wait_for,
)

from services import service_unavailable
from skytotems.server.process import free_port

DEPLOY_DOC = REPO / "docs" / "deploy.md"
NGINX_BLOCK = re.compile(r"```nginx\n(.*?)```", re.DOTALL)
RATE = 30  # HTTP requests per minute and client address, in each process
TEMP_PATHS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")


def documented_config(port: int, upstreams: list[int]) -> str:
    """The page's nginx block, listening on `port` and passing to `upstreams`."""
    blocks = NGINX_BLOCK.findall(DEPLOY_DOC.read_text(encoding="utf-8"))
    assert len(blocks) == 1, "docs/deploy.md has one nginx block"
    config: str = blocks[0]
    replacements = {
        "listen 80;": (f"listen 127.0.0.1:{port};", 1),
        # each process is in both upstreams: HTTP's and the table sockets'
        "server 127.0.0.1:8001 ": (f"server 127.0.0.1:{upstreams[0]} ", 2),
        "server 127.0.0.1:8002 ": (f"server 127.0.0.1:{upstreams[1]} ", 2),
    }
    for old, (new, times) in replacements.items():
        assert config.count(old) == times, f"the documented block has {old!r} {times}x"
        config = config.replace(old, new)
    return config


@contextlib.contextmanager
def nginx(site: str) -> Iterator[None]:
    """Debian's nginx with `site` in its http block, in a temporary prefix."""
    executable = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if executable is None:
        service_unavailable("nginx not found (install Debian's nginx)")
    folder = Path(tempfile.mkdtemp(prefix="skytotems-nginx-"))
    user = ""
    if os.geteuid() == 0:  # the workers drop to nobody: they must reach their folders
        nobody = pwd.getpwnam("nobody")
        user = f"user nobody {grp.getgrgid(nobody.pw_gid).gr_name};"
        folder.chmod(0o755)
    for name in TEMP_PATHS:
        (folder / name).mkdir()
        (folder / name).chmod(0o777)
    (folder / "skytotems.conf").write_text(site)
    temp_paths = "\n".join(f"    {n}_temp_path {folder / n};" for n in TEMP_PATHS)
    (folder / "nginx.conf").write_text(
        f"""{user}
worker_processes 1;
daemon off;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} warn;
events {{ worker_connections 512; }}
http {{
    access_log off;
{temp_paths}
    include {folder / "skytotems.conf"};
}}
"""
    )
    command = [executable, "-p", str(folder), "-c", str(folder / "nginx.conf")]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


def test_documented_nginx_config_in_front_of_two_processes(postgres_url: str) -> None:
    # nginx is the trusted proxy; a rate low enough to see whom the servers count
    env = {"SKYTOTEMS_TRUSTED_PROXIES": "127.0.0.1", "SKYTOTEMS_HTTP_RATE": f"{RATE}/minute"}
    servers = [ProcessServer(postgres_url, env=env) for _ in range(2)]
    for server in servers:
        server.start()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    try:
        with nginx(documented_config(port, [s.port for s in servers])):
            wait_for(lambda: _answers(base + "/api/health"), timeout=20, step=0.1)
            for _ in range(4):  # round robin: both processes answer
                ready = httpx.get(base + "/api/ready", timeout=10)
                assert ready.status_code == 200
                assert ready.json()["checks"]["database"] == "ok"
            assert httpx.get(base + "/metrics", timeout=10).status_code == 403
            # WebSockets through nginx: one table's sockets meet on one process, and
            # the tables spread over both (each check is one scrape of each process:
            # every request counts against this test's low rate)
            table = create_table(base, [{"type": "human"}], options={"players": 1})
            table_id = table["table"]["id"]
            watchers = [Client(base, table_id, None) for _ in range(3)]
            counts = sockets_open(servers)
            assert sorted(counts) == [0, 3], counts
            home, rest = sorted(servers, key=lambda s: -counts[servers.index(s)])
            others = [
                create_table(base, [{"type": "human"}], options={"players": 1}) for _ in range(10)
            ]
            spread = [Client(base, t["table"]["id"], None) for t in others]
            counts = sockets_open(servers)
            assert counts[servers.index(home)] > 3 and counts[servers.index(rest)] > 0, counts
            assert sum(counts) == 13, counts
            for w in [*watchers, *spread]:
                w.close()
            # a whole game on one socket through nginx, every move acknowledged
            player = Client(base, table_id, table["token_of"][0])
            assert player.welcome is not None and player.welcome["player"] == 0
            moves = play_until(
                [player],
                random.Random(1),
                lambda: player.state is not None and player.state["status"] == "finished",
            )
            player.close()
            assert moves > 10
            rows = db_rows(postgres_url, "SELECT status FROM tables WHERE id = :t", t=table_id)
            assert rows == [("finished",)]

            # nginx tells the servers who the client is (its address, whatever it says in
            # X-Forwarded-For): a client over its rate is refused, another is not
            def from_client(address: str, claimed: str) -> int:
                transport = httpx.HTTPTransport(local_address=address)
                with httpx.Client(transport=transport, timeout=10) as client:
                    headers = {"X-Forwarded-For": claimed}
                    return client.get(base + "/api/bots", headers=headers).status_code

            codes = [from_client("127.0.0.3", f"198.51.100.{i}") for i in range(2 * RATE + 4)]
            assert codes[0] == 200 and 429 in codes
            assert from_client("127.0.0.4", "198.51.100.1") == 200

            # the process a table's sockets go to stops: nginx sends them to the other
            home.terminate()
            rescued = Client(base, table_id, None)
            assert rescued.state is not None and rescued.state["status"] == "finished"
            rescued.close()
    finally:
        for server in servers:
            server.terminate()


def sockets_open(servers: list[ProcessServer]) -> list[float]:
    return [value(scrape(s.base), "skytotems_sockets") for s in servers]


def _answers(url: str) -> bool:
    with contextlib.suppress(httpx.HTTPError):
        return httpx.get(url, timeout=2).status_code == 200
    return False
