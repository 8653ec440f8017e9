"""kill -9 and restarts of the real server process in the middle of games: nothing
acknowledged is lost, and every game goes on to its end, bots included."""

from __future__ import annotations

import contextlib
import json
import os
import random
import sqlite3
import threading
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from wsclient import Client, ProcessServer, create_table, play_until, wait_for

from skytotems import replay

HUMAN = {"type": "human"}
BOT = {"type": "bot", "level": "random"}


def children_of(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError), open(f"/proc/{entry}/stat") as f:
                if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry))
    return out


def hammer(
    client: Client,
    rng: random.Random,
    acked: list[tuple[int, dict[str, Any]]],
    stop: threading.Event,
) -> None:
    """Play moves as fast as the server acknowledges them, until the socket dies."""
    try:
        while not stop.is_set():
            legal = client.view["legal_actions"]
            if not legal:
                client.recv_type("state", timeout=5)
                continue
            action = rng.choice(legal)
            reply = client.act(action)
            if reply["type"] == "state":
                acked.append((reply["seq"], action))
    except (ConnectionClosed, OSError, TimeoutError):
        return


def stored_log(db: Path, table_id: str) -> dict[int, dict[str, Any]]:
    rows = (
        sqlite3.connect(db)
        .execute("SELECT seq, data FROM actions WHERE table_id = ? ORDER BY seq", (table_id,))
        .fetchall()
    )
    return {seq: json.loads(data) for seq, data in rows}


def finish(base: str, table: dict[str, Any], rng: random.Random) -> None:
    table_id = table["table"]["id"]
    clients = [Client(base, table_id, token) for token in table["token_of"].values()]
    play_until(
        clients,
        rng,
        lambda: clients[0].state is not None and clients[0].state["status"] == "finished",
    )
    for c in clients:
        c.close()


def status(base: str, table_id: str) -> str:
    value: str = httpx.get(f"{base}/api/tables/{table_id}", timeout=5).json()["status"]
    return value


def test_kill_9_and_restarts_lose_nothing_acknowledged(tmp_path: Path):
    db = tmp_path / "skytotems.db"
    url = f"sqlite:///{db}"
    rng = random.Random(9)
    server = ProcessServer(url, env={"SKYTOTEMS_BOT_DELAY_MS": "150"}).start()
    try:
        solo_humans = create_table(server.base, [HUMAN, HUMAN])
        mixed = create_table(server.base, [HUMAN, BOT])
        bots = create_table(server.base, [BOT, BOT, BOT], options={"players": 3})
        humans_id, mixed_id, bots_id = (t["table"]["id"] for t in (solo_humans, mixed, bots))
        watcher = Client(server.base, bots_id, None)
        mixed_client = Client(server.base, mixed_id, mixed["token_of"][0])
        play_until([mixed_client], rng, lambda: mixed_client.seq >= 12)
        # the two seats of one table hammer moves while the server is killed
        seats = [Client(server.base, humans_id, t) for t in solo_humans["token_of"].values()]
        for c in seats:
            c.act(c.view["legal_actions"][0], seq=0)
        acked: list[tuple[int, dict[str, Any]]] = []
        stop = threading.Event()
        threads = [
            threading.Thread(target=hammer, args=(c, random.Random(i), acked, stop))
            for i, c in enumerate(seats)
        ]
        for t in threads:
            t.start()
        wait_for(lambda: len(acked) >= 15, timeout=20)
        assert server.proc is not None
        workers = children_of(server.proc.pid)
        assert workers, "the bots run in worker processes"
        watcher.drain(0.05)
        bots_seen = watcher.seq
        server.kill9()
        stop.set()
        for t in threads:
            t.join(10)
        # the bot workers do not outlive the server
        wait_for(lambda: not any(os.path.exists(f"/proc/{w}") for w in workers), timeout=5)
    finally:
        server.terminate()

    # every acknowledged move is in the log, as it was sent
    log = stored_log(db, humans_id)
    assert acked and max(s for s, _ in acked) <= max(log)
    for seq, action in acked:
        assert log[seq] == action
    assert bots_seen >= 1 and max(stored_log(db, bots_id)) >= bots_seen

    server = ProcessServer(url).start()
    try:
        # the humans resume from their last acknowledged seq; the state is the stored one
        last = max(log)
        back = Client(server.base, humans_id, solo_humans["token_of"][0], seq=max(acked)[0])
        assert back.seq == last
        back.close()
        # the bots' table goes on by itself; the mixed table's bot answers again
        wait_for(lambda: max(stored_log(db, bots_id)) > bots_seen, timeout=20)
        mixed_client = Client(server.base, mixed_id, mixed["token_of"][0])
        seq_before = mixed_client.seq
        play_until([mixed_client], rng, lambda: mixed_client.seq >= seq_before + 10)
        mixed_client.close()
        server.terminate()  # a clean stop in the middle, too
        server = ProcessServer(url).start()
        finish(server.base, solo_humans, rng)
        finish(server.base, mixed, rng)
        wait_for(lambda: status(server.base, bots_id) == "finished", timeout=60)
        for table_id in (humans_id, mixed_id, bots_id):
            record = httpx.get(f"{server.base}/api/tables/{table_id}/record", timeout=5).json()
            assert replay(record).is_over
    finally:
        server.terminate()
