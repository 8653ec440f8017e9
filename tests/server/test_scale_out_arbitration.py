"""Several real server processes on one PostgreSQL database (no Redis: each client reads
its own replies): the database arbitrates every change of a table (docs/scale-out.md,
"Leases and arbitration"). Moves raced through two processes: exactly one wins each
seq, the other is answered `stale` with the fresh state; two joiners of one seat on two
processes: exactly one gets it."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import httpx
from wsclient import Client, Start, create_table, db_rows, wait_for

HUMAN = {"type": "human"}
OPEN = {"type": "open"}
BOT = {"type": "bot", "level": "random"}


def stored_log(db_url: str, table_id: str) -> list[tuple[int, dict[str, Any]]]:
    rows = db_rows(
        db_url, "SELECT seq, data FROM actions WHERE table_id = :id ORDER BY seq", id=table_id
    )
    return [(int(seq), data) for seq, data in rows]


def caught_up(client: Client, seq: int) -> bool:
    client.drain(0.01)
    return client.seq == seq


def race(*calls: Callable[[], Any]) -> list[Any]:
    """Run `calls` at once (threads released together); their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def test_moves_raced_through_two_processes_one_wins_each_seq_the_other_is_stale(
    start_process: Start, postgres_url: str
):
    """The same seat's token on two processes; both send a move for the same seq at
    once, round after round: exactly one is acknowledged, the other is answered
    `stale` after the fresh state; the log has every seq once, no gap, and holds each
    acknowledged move at its seq."""
    a, b = start_process(), start_process()
    table = create_table(a.base, [HUMAN], options={"players": 1})
    table_id, token = table["table"]["id"], table["token_of"][0]
    on_a, on_b = Client(a.base, table_id, token), Client(b.base, table_id, token)
    # both starting choices (simultaneous), through A, until the first real turn
    while on_a.view["decision"]["kind"] != "turn":
        assert on_a.act(on_a.view["legal_actions"][0])["type"] == "state"
    wait_for(partial(caught_up, on_b, on_a.seq), timeout=10)
    acked: list[tuple[int, dict[str, Any]]] = []
    rng = random.Random(14)
    rounds = 0
    stale_answers = 0
    while rounds < 40 and on_a.state is not None and on_a.state["status"] == "playing":
        seq = on_a.seq
        assert on_b.seq == seq
        legal = on_a.view["legal_actions"]
        ours, theirs = rng.choice(legal), rng.choice(legal)
        reply_a, reply_b = race(partial(on_a.act, ours, seq), partial(on_b.act, theirs, seq))
        kinds = sorted([reply_a["type"], reply_b["type"]])
        assert kinds == ["error", "state"], (reply_a, reply_b)
        winner, loser = (reply_a, reply_b) if reply_a["type"] == "state" else (reply_b, reply_a)
        assert loser["code"] == "stale", loser
        assert winner["seq"] == seq + 1
        acked.append((seq + 1, ours if winner is reply_a else theirs))
        losing_client = on_b if winner is reply_a else on_a
        # the loser was sent the fresh state (read back from the database) with its error
        assert losing_client.state is not None and losing_client.seq == seq + 1
        stale_answers += 1
        for client in (on_a, on_b):
            wait_for(partial(caught_up, client, seq + 1), timeout=10)
        rounds += 1
    assert rounds >= 20, "the game ended too soon to race"
    log = stored_log(postgres_url, table_id)
    assert [seq for seq, _ in log] == list(range(1, len(log) + 1))
    stored = dict(log)
    for seq, action in acked:
        assert stored[seq] == action
    assert stale_answers == rounds


def test_two_joiners_of_one_seat_on_two_processes_one_gets_it(
    start_process: Start, postgres_url: str
):
    """A table with one open seat, joined at once through two processes: exactly one
    joiner is seated (their token opens the seat), the other is told the table is
    full; with two open seats both are seated, on different seats."""
    a, b = start_process(), start_process()

    def join(base: str, table_id: str, name: str) -> httpx.Response:
        return httpx.post(f"{base}/api/tables/{table_id}/join", json={"name": name}, timeout=30)

    for _ in range(8):
        table_id = create_table(a.base, [HUMAN, OPEN])["table"]["id"]
        httpx.get(f"{b.base}/api/tables/{table_id}", timeout=10)  # cached by both
        ra, rb = race(partial(join, a.base, table_id, "Ann"), partial(join, b.base, table_id, "Bo"))
        codes = sorted([ra.status_code, rb.status_code])
        assert codes == [200, 409], (ra.text, rb.text)
        won, lost = (ra, rb) if ra.status_code == 200 else (rb, ra)
        assert lost.json()["code"] == "table_full"
        seated = db_rows(
            postgres_url,
            "SELECT name, kind FROM seats WHERE table_id = :id AND player = 1",
            id=table_id,
        )
        assert seated == [("Ann" if won is ra else "Bo", "human")]
        client = Client(b.base, table_id, won.json()["token"])  # the winner's token works
        assert client.welcome is not None and client.welcome["player"] == 1
        client.close()
        assert db_rows(postgres_url, "SELECT status FROM tables WHERE id = :id", id=table_id) == [
            ("playing",)
        ]

    table_id = create_table(a.base, [HUMAN, OPEN, OPEN], options={"players": 3})["table"]["id"]
    ra, rb = race(lambda: join(a.base, table_id, "Ann"), lambda: join(b.base, table_id, "Bo"))
    assert ra.status_code == rb.status_code == 200, (ra.text, rb.text)
    assert {ra.json()["player"], rb.json()["player"]} == {1, 2}
    names = db_rows(
        postgres_url, "SELECT name FROM seats WHERE table_id = :id ORDER BY player", id=table_id
    )
    assert sorted(n for (n,) in names[1:]) == ["Ann", "Bo"]
