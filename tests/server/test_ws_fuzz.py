"""Property-based fuzzing of the table socket (issue 13): Hypothesis-generated messages
(protocol-shaped ones with wrong fields, ids and values; any JSON; any text; broken
UTF-8; oversized frames) sent to the real server while a game is on. Whatever comes:
the server never fails (no error logged), a socket it drops always gets a close code,
and a message answered with an error changes nothing. Bounded: 100 examples."""

from __future__ import annotations

import json
import logging
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from wsclient import Client, ThreadServer, create_table, db_rows, reach_first_turn

HUMAN = {"type": "human"}
TYPES = ["hello", "act", "undo", "takeover", "ping", "chat", "nonsense", ""]
FIELDS = ["id", "seq", "action", "to", "player", "text", "name", "token", "extra"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=80),
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def protocol_shaped(draw: st.DrawFn, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A message of a known (or unknown) type whose fields are mostly wrong somehow."""
    message: dict[str, Any] = {"type": draw(st.sampled_from(TYPES))}
    for name in draw(st.lists(st.sampled_from(FIELDS), max_size=5, unique=True)):
        message[name] = draw(json_values)
    if message["type"] == "act" and legal and draw(st.booleans()):
        action = dict(draw(st.sampled_from(legal)))
        if action and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(action)))
            action[key] = draw(json_values)  # one field of a legal action spoiled
        message["action"] = action
    return message


def frames(legal: list[dict[str, Any]]) -> st.SearchStrategy[str | bytes]:
    return st.one_of(
        protocol_shaped(legal).map(json.dumps),
        json_values.map(json.dumps),
        st.text(max_size=200),
        st.binary(max_size=200),  # a binary frame: often not UTF-8 at all
        st.integers(min_value=8193, max_value=70000).map(oversized),
    )


def oversized(n: int) -> str:
    """A ping of `n` + 25 bytes: over the 8 KiB message limit, or the 64 KiB frame limit."""
    return '{"type":"ping","id":"' + "x" * n + '"}'


def table_state(base: str, table_id: str, db_url: str) -> tuple[Any, ...]:
    summary = httpx.get(f"{base}/api/tables/{table_id}").json()
    chat = db_rows(db_url, "SELECT count(*) FROM chat WHERE table_id = :id", id=table_id)
    return summary["seq"], summary["status"], chat


def test_generated_messages_never_break_the_server_nor_change_it_when_refused(
    server: ThreadServer, db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    data = create_table(server.base, [HUMAN, HUMAN])
    table_id = data["table"]["id"]
    seats = [Client(server.base, table_id, data["token_of"][p]) for p in (0, 1)]
    mover = reach_first_turn(seats)
    token = data["token_of"][seats.index(mover)]
    legal = list(mover.view["legal_actions"])
    fuzzer = [Client(server.base, table_id, token)]
    probes = [0]
    caplog.set_level(logging.WARNING)

    @settings(max_examples=100, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(frame=frames(legal))
    def check(frame: str | bytes) -> None:
        before = table_state(server.base, table_id, db_url)
        client = fuzzer[0]
        probes[0] += 1
        probe = f"probe-{probes[0]}"
        replies: list[dict[str, Any]] = []
        try:
            client.send_raw(frame)
            client.send({"type": "ping", "id": probe})
            while (reply := client.recv(timeout=20)).get("id") != probe or reply["type"] != "pong":
                replies.append(reply)
        except ConnectionClosed as closed:
            # dropped: always with a close code (oversized frame, broken UTF-8, bad hello)
            assert closed.rcvd is not None and closed.rcvd.code not in (1006, 1011), closed
            fuzzer[0] = Client(server.base, table_id, token)
        if any(r["type"] == "error" for r in replies) or not replies:
            accepted = any(r["type"] in ("state", "chat", "done") for r in replies)
            if not accepted:
                assert table_state(server.base, table_id, db_url) == before, (frame, replies)

    check()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]
    for client in [*seats, *fuzzer]:
        client.close()
