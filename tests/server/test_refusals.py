"""Stale, duplicate, forged, malformed, oversized and illegal messages: a clear error to the
sender, and nothing changes (the views, the seq and the stored log stay as they were)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from wsclient import Client, ThreadServer, create_table, db_rows, reach_first_turn

HUMAN = {"type": "human"}


class Table:
    """A 2-human table with both seats and a spectator connected."""

    def __init__(self, server: ThreadServer, db_url: str) -> None:
        self.server = server
        self.db_url = db_url
        self.data = create_table(server.base, [HUMAN, HUMAN])
        self.id = self.data["table"]["id"]
        self.tokens = self.data["token_of"]
        self.seats = [Client(server.base, self.id, self.tokens[p]) for p in (0, 1)]
        self.spectator = Client(server.base, self.id, None)

    def snapshot(self) -> tuple[Any, ...]:
        """Everything a refusal must leave alone: each seat's and the spectator's view,
        and the stored log."""
        views = []
        for token in (self.tokens[0], self.tokens[1], None):
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            views.append(
                httpx.get(f"{self.server.base}/api/tables/{self.id}/view", headers=headers).json()
            )
        rows = db_rows(
            self.db_url,
            "SELECT seq, kind, data FROM actions WHERE table_id = :id ORDER BY seq",
            id=self.id,
        )
        return (views, rows)

    def refused(self, client: Client, message: dict[str, Any] | str, code: str) -> None:
        before = self.snapshot()
        if isinstance(message, str):
            client.send_raw(message)
            reply = client.recv_type("error")
        else:
            reply = client.request(message)
        assert reply["type"] == "error", reply
        assert reply["code"] == code, reply
        assert reply["message"]
        assert self.snapshot() == before

    def to_move(self) -> tuple[Client, Client]:
        """Play to the first turn; the client to move and the other one."""
        mover = reach_first_turn(self.seats)
        other = next(c for c in self.seats if c is not mover)
        return mover, other


@pytest.fixture
def table(server: ThreadServer, db_url: str) -> Table:
    return Table(server, db_url)


def test_starting_cards_accepted_in_any_order_and_a_duplicate_is_refused(table: Table):
    a, b = table.seats
    choice_a = a.view["legal_actions"][0]
    assert a.act(choice_a, seq=0)["seq"] == 1
    # the same message again, and the other card on the fresh seq: a has chosen already
    table.refused(a, {"type": "act", "seq": 0, "action": choice_a}, "stale")
    other_card = a.view["seats"][0]["hand"][1]
    table.refused(
        a, {"type": "act", "seq": 1, "action": dict(choice_a, card=other_card)}, "not_your_decision"
    )
    # b's view is older (seq 0): the simultaneous choice is still accepted
    assert b.act(b.view["legal_actions"][1], seq=0)["seq"] == 2


def test_stale_and_duplicate_moves_are_refused(table: Table):
    mover, _ = table.to_move()
    action = mover.view["legal_actions"][0]
    seq = mover.seq
    table.refused(mover, {"type": "act", "seq": seq - 1, "action": action}, "stale")
    assert mover.act(action, seq=seq)["seq"] == seq + 1
    # the same message again: its seq is now outdated
    table.refused(mover, {"type": "act", "seq": seq, "action": action}, "stale")


def test_forged_and_out_of_turn_moves_are_refused(table: Table, server: ThreadServer):
    mover, other = table.to_move()
    action = mover.view["legal_actions"][0]
    seq = mover.seq
    # the other seat's token cannot play for the mover's seat
    table.refused(other, {"type": "act", "seq": seq, "action": action}, "not_your_seat")
    assert other.state is not None
    own = dict(action, seat=other.state["player"])
    table.refused(other, {"type": "act", "seq": seq, "action": own}, "not_your_decision")
    table.refused(table.spectator, {"type": "act", "seq": seq, "action": action}, "spectator")
    table.refused(mover, {"type": "takeover", "player": other.state["player"]}, "time_left")
    # a token opens its own seat at its own table and nothing else
    elsewhere = create_table(server.base, [HUMAN, HUMAN])
    for token in (elsewhere["token_of"][0], "x" * 32):
        intruder = Client(server.base, table.id, None, hello=False)
        intruder.send({"type": "hello", "token": token})
        assert intruder.recv()["code"] == "bad_token"
        with pytest.raises(ConnectionClosed):
            intruder.recv()


def test_illegal_moves_get_the_engines_reason(table: Table):
    mover, _ = table.to_move()
    seat = mover.view["legal_actions"][0]["seat"]
    assert mover.view["decision"]["kind"] == "turn"
    table.refused(
        mover,
        {
            "type": "act",
            "seq": mover.seq,
            "action": {"type": "take_slot", "seat": seat, "slot": 99},
        },
        "no_such_slot",
    )
    table.refused(
        mover,
        {
            "type": "act",
            "seq": mover.seq,
            "action": {"type": "place_cloud", "seat": seat, "cell": [5, 5]},
        },
        "wrong_decision",
    )


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("{not json", "malformed"),
        (json.dumps({"type": "dance"}), "malformed"),
        (json.dumps({"type": "act", "seq": "zero", "action": {}}), "malformed"),
        (json.dumps({"type": "act", "seq": -1, "action": {}}), "malformed"),
        (json.dumps({"type": "act", "seq": 0, "action": {}, "extra": 1}), "malformed"),
        (
            json.dumps({"type": "act", "seq": 0, "action": {"type": "fly", "seat": 0}}),
            "malformed_action",
        ),
        (
            json.dumps({"type": "act", "seq": 0, "action": {"type": "take_slot", "seat": 0}}),
            "malformed_action",
        ),
        (json.dumps({"type": "undo", "seq": 0, "to": "forever"}), "malformed"),
        (json.dumps({"type": "ping", "id": "x" * 9000}), "oversized"),
        (json.dumps({"type": "hello", "token": None}), "hello_again"),
    ],
)
def test_malformed_messages_are_refused(table: Table, message: str, code: str):
    table.refused(table.seats[0], message, code)


def test_a_binary_frame_is_read_as_text_and_refused_when_malformed(table: Table):
    before = table.snapshot()
    table.seats[0].send_raw(b"\xff\xfe garbage")
    assert table.seats[0].recv_type("error")["code"] == "malformed"
    assert table.snapshot() == before


def test_the_first_message_must_be_hello(server: ThreadServer, table: Table):
    client = Client(server.base, table.id, None, hello=False)
    client.send({"type": "ping"})
    assert client.recv()["code"] == "hello_first"
    with pytest.raises(ConnectionClosed):
        client.recv()


@pytest.mark.parametrize("spectator", [False, True])
def test_a_nul_character_in_chat_is_refused_as_malformed(table: Table, spectator: bool):
    """PostgreSQL cannot store U+0000 in text: such a chat message was answered `storage`
    ("try again", which can never succeed) after a failed commit. It is refused as
    `malformed` before anything is stored, on every database alike."""
    client = table.spectator if spectator else table.seats[0]
    rows = "SELECT count(*) FROM chat WHERE table_id = :id"
    stored = db_rows(table.db_url, rows, id=table.id)
    for message in (
        {"type": "chat", "text": "a\u0000b"},
        {"type": "chat", "text": "hi", "name": "x\u0000"},
    ):
        table.refused(client, json.dumps(message), "malformed")
    assert db_rows(table.db_url, rows, id=table.id) == stored


def test_a_nul_character_in_a_players_name_is_refused(server: ThreadServer, db_url: str):
    """A name with U+0000 was a 500 (create) or a 503 `storage` (join) on PostgreSQL; now
    a 422 on every database, and nothing is stored."""
    count = "SELECT count(*) FROM tables"
    before = db_rows(db_url, count)
    created = httpx.post(
        server.base + "/api/tables", json={"seats": [{"type": "human", "name": "a\u0000"}, HUMAN]}
    )
    assert created.status_code == 422, created.text
    assert db_rows(db_url, count) == before
    open_table = create_table(server.base, [HUMAN, {"type": "open"}])
    table_id = open_table["table"]["id"]
    joined = httpx.post(f"{server.base}/api/tables/{table_id}/join", json={"name": "b\u0000"})
    assert joined.status_code == 422, joined.text
    seats = db_rows(
        db_url, "SELECT kind FROM seats WHERE table_id = :id ORDER BY player", id=table_id
    )
    assert seats == [("human",), ("open",)]


def test_a_table_id_with_a_nul_character_is_no_such_table(server: ThreadServer):
    """`/api/tables/a%00b` was a 500 on every table route on PostgreSQL (which cannot
    compare text with U+0000), and a table socket was dropped without a close code;
    such an id names no table: 404 (4404 on the socket), as any unknown id."""
    base = f"{server.base}/api/tables/a%00b"
    for path in ("", "/view", "/record", "/replay/0", "/stats"):
        assert httpx.get(base + path).status_code == 404, path
    assert httpx.post(base + "/cancel").status_code == 404
    assert httpx.post(base + "/join", json={"name": "x"}).status_code == 404
    intruder = Client(server.base, "a%00b", None, hello=False)  # refused before its hello
    assert intruder.recv()["code"] == "not_found"
    with pytest.raises(ConnectionClosed) as closed:
        intruder.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
