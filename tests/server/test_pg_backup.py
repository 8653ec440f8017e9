"""The backup of docs/deploy.md works as written: `pg_dump --format=custom` taken while a
game is played, then `pg_restore --clean --if-exists` into the stopped server's
database, gives back every game as it was at the dump, and play goes on from there
(on a private PostgreSQL, so the shared one is never touched)."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path
from typing import Any

import httpx
from wsclient import Client, ProcessServer, create_table, play_until

from private_postgres import private_postgres

HUMAN = {"type": "human"}


def test_pg_dump_while_playing_then_pg_restore_gives_the_games_back(tmp_path: Path) -> None:
    rng = random.Random(4)
    dump = tmp_path / "skytotems.dump"
    with private_postgres() as pg:
        server = ProcessServer(pg.url).start()
        try:
            table = create_table(server.base, [HUMAN, HUMAN])
            table_id = table["table"]["id"]
            seats = [Client(server.base, table_id, t) for t in table["token_of"].values()]
            play_until(seats, rng, lambda: seats[0].seq >= 10)
            for c in seats:
                c.drain(0.1)
            at_dump: dict[str, Any] = httpx.get(f"{server.base}/api/tables/{table_id}/view").json()
            run(pg.bin / "pg_dump", "--format=custom", f"--file={dump}", pg.url)
            play_until(seats, rng, lambda: seats[0].seq >= at_dump["seq"] + 5)  # lost below
            for c in seats:
                c.close()
        finally:
            server.terminate()
        run(pg.bin / "pg_restore", "--clean", "--if-exists", f"--dbname={pg.url}", str(dump))
        server = ProcessServer(pg.url).start()
        try:
            restored = httpx.get(f"{server.base}/api/tables/{table_id}/view").json()
            assert restored == at_dump
            seats = [Client(server.base, table_id, t) for t in table["token_of"].values()]
            play_until(seats, rng, lambda: seats[0].seq >= at_dump["seq"] + 3)
            for c in seats:
                c.close()
        finally:
            server.terminate()


def run(*command: object) -> None:
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
