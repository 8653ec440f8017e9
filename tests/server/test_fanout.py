"""Issue 13, bug 1: a message id that no JSON client can hold exactly (an integer beyond
±2^53, a float, a long string...) is refused before anything is done, and one socket whose
message cannot be sent never stops the others nor what follows a change (bots, lobby)."""

from __future__ import annotations

from typing import Any

import pytest
from test_refusals import Table
from wsclient import Client, ThreadServer, create_table, wait_for

from skytotems.server.schemas import MAX_ID_INT

BAD_IDS: list[Any] = [2**64, 2**53 + 1, -(2**53) - 1, 1.5, True, "x" * 65, [1], {"a": 1}]


@pytest.fixture
def table(server: ThreadServer, db_url: str) -> Table:
    return Table(server, db_url)


@pytest.mark.parametrize("bad_id", BAD_IDS, ids=repr)
def test_a_message_id_beyond_what_json_clients_hold_is_refused_and_nothing_changes(
    table: Table, bad_id: Any
) -> None:
    mover, other = table.to_move()
    legal = mover.view["legal_actions"][0]
    messages = [
        {"type": "act", "id": bad_id, "seq": mover.seq, "action": legal},
        {"type": "undo", "id": bad_id, "seq": mover.seq, "to": "last"},
        {"type": "ping", "id": bad_id},
        {"type": "chat", "id": bad_id, "text": "hello"},
        {"type": "takeover", "id": bad_id, "player": 0},
    ]
    for message in messages:
        before = table.snapshot()
        mover.send(message)
        reply = mover.recv_type("error")
        assert reply["code"] == "malformed", reply
        assert reply["id"] is None and "message ids" in reply["message"], reply
        assert table.snapshot() == before
    # the sender's socket still works and the move is still to be made, by anyone's view
    assert mover.request({"type": "ping"})["type"] == "pong"
    other.drain()
    assert other.seq == mover.seq
    assert mover.act(legal)["type"] == "state"


@pytest.mark.parametrize("good_id", [MAX_ID_INT, -MAX_ID_INT, "k" * 64, "", 0])
def test_ids_within_the_bounds_are_echoed_exactly(server: ThreadServer, good_id: Any) -> None:
    data = create_table(server.base, [{"type": "human"}, {"type": "human"}])
    client = Client(server.base, data["table"]["id"], data["token_of"][0])
    client.send({"type": "ping", "id": good_id})
    pong = client.recv_type("pong")
    assert pong["id"] == good_id and type(pong["id"]) is type(good_id)
    client.close()


class BrokenConn:
    """A connection whose every send fails (as one whose reply cannot be written did)."""

    def __init__(self, table_id: str, player: int | None) -> None:
        self.table_id = table_id
        self.player = player
        self.sends = 0
        self.closed = False

    def send(self, data: bytes) -> None:
        self.sends += 1
        raise RuntimeError("this socket cannot send")

    def close(self) -> None:
        self.closed = True


def test_a_socket_failing_mid_fan_out_stops_neither_the_others_nor_the_bot(
    server: ThreadServer,
) -> None:
    data = create_table(server.base, [{"type": "human"}, {"type": "bot", "level": "random"}])
    table_id = data["table"]["id"]
    human = Client(server.base, table_id, data["token_of"][0])
    spectator = Client(server.base, table_id, None)
    broken = [BrokenConn(table_id, None), BrokenConn(table_id, 0), BrokenConn(table_id, 1)]
    hub = server.runtime.hub
    server.call(lambda: [hub.attach(conn) for conn in broken])
    moves = 0
    while moves < 6:
        human.drain(0.05)
        if not human.view["legal_actions"]:
            # the bot's turn: it must move (the change before it did not stop at the
            # broken sockets), and its move must reach the human
            wait_for(lambda seq=human.seq: human.drain(0.05) or human.seq > seq, timeout=20)
            continue
        reply = human.act(human.view["legal_actions"][0])
        assert reply["type"] == "state", reply  # acknowledged: the sender's socket lives
        moves += 1
    assert human.state is not None and human.state["status"] == "playing"
    spectator.drain()
    assert spectator.seq == human.seq  # every change reached the spectator too
    assert all(conn.sends > 0 and conn.closed for conn in broken)
    human.close()
    spectator.close()
