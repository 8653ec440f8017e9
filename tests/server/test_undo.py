"""Undo against the real server: "undo last" and "restart turn", within one's own turn,
never past a reveal (random draw, goal card, choice from the bag) or another's move."""

from __future__ import annotations

import random
from typing import Any

import httpx
from wsclient import Client, ThreadServer, create_table, db_rows, reach_first_turn

from skytotems import replay, score_sheet

# What the issue calls "something revealed", read from the events a client receives, plus
# the events that mark a turn changing hands.
REVEALING = {
    "card_revealed",
    "design_chosen",
    "start_cards_revealed",
    "start_chosen",
    "slot_filled",
    "hoard_added",
    "turn_started",
    "turn_ended",
    "round_ended",
    "phase_started",
    "game_ended",
}


def reveals(events: list[dict[str, Any]]) -> bool:
    return any(
        e["type"] in REVEALING or (e["type"] == "pedestals_drawn" and e["source"] != "wolf")
        for e in events
    )


def expected_floor(acts: list[tuple[int, bool]], player: int) -> int | None:
    k = len(acts)
    while k > 0 and acts[k - 1][0] == player and not acts[k - 1][1]:
        k -= 1
    return k if k < len(acts) else None


def state_at(client: Client, seq: int) -> dict[str, Any]:
    """The state message numbered `seq` (skipping older ones still in the socket)."""
    while client.state is None or client.state["seq"] < seq:
        client.recv_type("state")
    assert client.state["seq"] == seq
    return client.state


def test_undo_obeys_its_limits_through_whole_games(server: ThreadServer, db_url: str):
    rng = random.Random(4)
    data = create_table(server.base, [{"type": "human"}, {"type": "human"}])
    table_id = data["table"]["id"]
    clients = [Client(server.base, table_id, data["token_of"][p]) for p in (0, 1)]
    acts: list[tuple[int, bool]] = []  # (player, revealed something) per effective action
    past: list[dict[int, dict[str, Any]]] = [{}, {}]  # each player's view by move
    undos = refusals = long_restarts = 0

    def remember(player: int, state: dict[str, Any]) -> None:
        past[player][state["view"]["move"]] = state["view"]

    for p, c in enumerate(clients):
        remember(p, c.state or {})
    while clients[0].state and clients[0].state["status"] != "finished":
        for c in clients:
            c.drain(0.0)
        movers = [p for p, c in enumerate(clients) if c.view["legal_actions"]]
        if not movers:
            clients[0].drain(0.02)
            continue
        p = rng.choice(movers)
        me, other = clients[p], clients[1 - p]
        floor = expected_floor(acts, p)
        assert me.state is not None and me.state["undo"]["last"] == (floor is not None)
        if floor is not None and rng.random() < 0.35:
            to = rng.choice(["last", "turn"])
            target = len(acts) - 1 if to == "last" else floor
            seq = me.seq
            reply = me.undo(to)
            assert reply["seq"] == seq + 1
            assert reply["reset"] and reply["events"][-1]["type"] == "undone"
            assert reply["view"] == past[p][target]
            other_state = state_at(other, reply["seq"])
            assert other_state["view"] == past[1 - p][target]
            long_restarts += to == "turn" and len(acts) - target >= 2
            del acts[target:]
            undos += 1
            continue
        if floor is None and rng.random() < 0.15:
            seq = me.seq
            reply = me.undo(rng.choice(["last", "turn"]))
            assert reply["type"] == "error" and reply["code"] == "cannot_undo"
            assert me.seq == seq
            refusals += 1
            continue
        action = rng.choice(me.view["legal_actions"])
        reply = me.act(action)
        if reply["type"] == "error":  # the other seat's simultaneous start choice came first
            assert reply["code"] == "stale"
            continue
        remember(p, reply)
        acts.append((p, reveals(reply["events"])))
        remember(1 - p, state_at(other, reply["seq"]))
        # the other player can never undo what this one just did
        assert other.state is not None and other.state["undo"] == {"last": False, "turn": False}

    assert undos >= 10 and refusals >= 5 and long_restarts >= 1
    rows = db_rows(
        db_url, "SELECT kind, count(*) FROM actions WHERE table_id = :id GROUP BY kind", id=table_id
    )
    assert dict(rows)["undo"] == undos  # every undo is an entry of its own in the log
    record = httpx.get(f"{server.base}/api/tables/{table_id}/record").json()
    assert len(record["actions"]) == len(acts)  # the record holds the effective actions
    final = clients[0].state
    assert final is not None
    game = replay(record)
    totals = [score_sheet(game, seat).total for seat in range(2)]
    assert totals == [s["total"] for s in final["view"]["score_sheets"]]


def test_undo_is_refused_on_a_stale_view_and_for_a_spectator(server: ThreadServer):
    data = create_table(server.base, [{"type": "human"}, {"type": "human"}])
    table_id = data["table"]["id"]
    clients = [Client(server.base, table_id, data["token_of"][p]) for p in (0, 1)]
    me = reach_first_turn(clients)
    take = [a for a in me.view["legal_actions"] if a["type"] == "take_slot"]
    assert take, "at the first turn every slot is full"
    me.act(take[0])
    assert me.state is not None and me.state["undo"]["last"]
    stale = me.request({"type": "undo", "seq": me.seq - 1, "to": "last"})
    assert stale["code"] == "stale"
    spectator = Client(server.base, table_id, None)
    refused = spectator.request({"type": "undo", "seq": spectator.seq, "to": "last"})
    assert refused["code"] == "spectator"
    seen_take = me.seq
    assert me.undo("turn")["view"]["decision"]["kind"] == "turn"
    # resuming: a socket that saw the undone move starts again from the view; one that
    # saw nothing gets every effective event, and none of the undone move's
    token = data["token_of"][0]
    after_undo = Client(server.base, table_id, token, seq=seen_take).state
    assert after_undo is not None and after_undo["reset"] and after_undo["events"] == []
    from_start = Client(server.base, table_id, token, seq=0).state
    assert from_start is not None and "reset" not in from_start
    kinds = [e["type"] for e in from_start["events"]]
    assert "start_cards_revealed" in kinds and "slot_taken" not in kinds
