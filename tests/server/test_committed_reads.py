"""Nothing derived from an entry whose commit is pending is served: the last move's
record (with the seed), the view, the summary and a new socket's first state wait for
the commit (the database's write lock is held meanwhile)."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import httpx
from wsclient import Client, ThreadServer, clients_for, create_table, db_rows, tables_locked

from skytotems import Game, GameOptions, action_from_json, default_deck

HUMAN = {"type": "human"}


def _get_later(url: str, into: dict[str, Any]) -> threading.Thread:
    def get() -> None:
        into["response"] = httpx.get(url, timeout=30)

    thread = threading.Thread(target=get)
    thread.start()
    return thread


def test_a_pending_move_is_not_served(server: ThreadServer, db_url: str):
    table = create_table(server.base, [HUMAN], options={"players": 1})
    table_id = table["table"]["id"]
    with clients_for(server.base, table) as (client,):
        seq = client.seq
        with tables_locked(db_url):
            client.send({"type": "act", "seq": seq, "action": client.view["legal_actions"][0]})
            time.sleep(0.5)  # the server has applied it in memory and waits for the lock
            got: dict[str, Any] = {}
            reader = _get_later(f"{server.base}/api/tables/{table_id}/view", got)
            reader.join(1.0)
            assert "response" not in got, "a view was served before its commit"
        reader.join(30)
        assert got["response"].json()["seq"] == seq + 1


def test_the_record_waits_for_the_final_commit(server: ThreadServer, db_url: str):
    """A solo game played against a replica of the server's game (same seed and deck),
    so the test knows which move ends it; that move's commit is held back."""
    table = create_table(server.base, [HUMAN], options={"players": 1})
    table_id = table["table"]["id"]
    ((seed,),) = db_rows(db_url, "SELECT seed FROM tables WHERE id = :id", id=table_id)
    replica = Game(GameOptions.from_json({"players": 1}), int(seed), default_deck())
    rng = random.Random(11)
    with clients_for(server.base, table) as (client,):
        while True:
            action = rng.choice(client.view["legal_actions"])
            replica.apply(action_from_json(action))
            if replica.is_over:
                break
            assert client.act(action)["type"] == "state"
        record_url = f"{server.base}/api/tables/{table_id}/record"
        with tables_locked(db_url):
            client.send({"type": "act", "seq": client.seq, "action": action})
            time.sleep(0.5)
            got: dict[str, Any] = {}
            reader = _get_later(record_url, got)
            reader.join(1.0)
            assert "response" not in got, "the record (with the seed) was served uncommitted"
            late = Client(server.base, table_id, None, hello=False)
            late.send({"type": "hello", "token": None, "seq": None})
            try:
                late.recv_type("welcome", timeout=1.0)
                raise AssertionError("a new socket was welcomed to an uncommitted state")
            except TimeoutError:
                pass
        reader.join(30)
        assert got["response"].status_code == 200
        assert got["response"].json()["seed"] == int(seed)
        late.recv_type("welcome")
        assert late.recv_type("state")["status"] == "finished"
        late.close()
    ((status,),) = db_rows(db_url, "SELECT status FROM tables WHERE id = :id", id=table_id)
    assert status == "finished"
