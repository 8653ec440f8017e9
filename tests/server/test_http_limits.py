"""HTTP limits through the real server: body size (413, before reading), per-address
request and table-creation rates (429 with Retry-After), the client's address behind a
trusted proxy, and the replay cache."""

from __future__ import annotations

import math
import socket
import time
from collections.abc import Callable, Iterator

import httpx
import pytest
from wsclient import ThreadServer, create_table

from skytotems.server import client_address

HUMAN = {"type": "human"}
BOT = {"type": "bot", "level": "random"}


def test_a_body_over_the_limit_is_refused_with_413(start_server: Callable[..., ThreadServer]):
    server = start_server(max_body_bytes=1024)
    padding = "x" * 2000
    body = {"seats": [HUMAN, HUMAN], "padding": padding}
    response = httpx.post(server.base + "/api/tables", json=body)
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it streams
        yield b'{"seats": [{"type": "human"}, {"type": "human"}], "padding": "'
        for _ in range(20):
            yield b"x" * 100
        yield b'"}'

    chunked = httpx.post(server.base + "/api/tables", content=chunks())
    assert chunked.status_code == 413
    assert httpx.get(server.base + "/api/tables").json()["tables"] == []  # nothing created
    assert httpx.post(server.base + "/api/tables", json={"seats": [HUMAN, HUMAN]}).is_success


def test_a_declared_huge_body_is_refused_before_it_is_sent(
    start_server: Callable[..., ThreadServer],
):
    """200 MB announced, nothing sent: the answer comes at once, without reading."""
    server = start_server()
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 200000000\r\n\r\n{"
        )
        head = sock.recv(4096)
    assert head.startswith(b"HTTP/1.1 413"), head


def test_requests_over_the_rate_get_429_with_retry_after(
    start_server: Callable[..., ThreadServer],
):
    server = start_server(http_rate="5/minute")
    for _ in range(5):
        assert httpx.get(server.base + "/api/health").status_code == 200
    refused = httpx.get(server.base + "/api/bots")  # every route shares the address's rate
    assert refused.status_code == 429
    assert refused.json()["code"] == "rate_limited"
    assert 1 <= int(refused.headers["retry-after"]) <= 60


def test_retry_after_is_when_the_oldest_counted_request_leaves_the_window(
    start_server: Callable[..., ThreadServer],
):
    """A trial saw Retry-After: 1 where the window freed later. Moving window of 4 s:
    requests at t0, then t0+2 s twice; the next is allowed once t0's request leaves, at
    t0+4, so Retry-After is about 2 (the newest's leaving, t0+6, would say 4), and a
    request after waiting that long is allowed. Not reproduced: this passes as is."""
    server = start_server(http_rate="3 per 4 seconds")
    before_first = time.time()
    assert httpx.get(server.base + "/api/health").status_code == 200
    after_first = time.time()
    time.sleep(2)
    for _ in range(2):
        assert httpx.get(server.base + "/api/health").status_code == 200
    before_refused = time.time()
    refused = httpx.get(server.base + "/api/health")
    after_refused = time.time()
    assert refused.status_code == 429
    retry = int(refused.headers["retry-after"])
    frees_at = (before_first + 4, after_first + 4)  # when t0's request leaves the window
    assert max(1, math.ceil(frees_at[0] - after_refused)) <= retry
    assert retry <= max(1, math.ceil(frees_at[1] - before_refused))
    time.sleep(retry)
    assert httpx.get(server.base + "/api/health").status_code == 200


def test_table_creation_has_its_own_rate(start_server: Callable[..., ThreadServer]):
    server = start_server(create_rate="2/minute")
    for _ in range(2):
        create_table(server.base, [HUMAN, BOT])
    refused = httpx.post(server.base + "/api/tables", json={"seats": [HUMAN, BOT]})
    assert refused.status_code == 429 and "retry-after" in refused.headers
    assert len(httpx.get(server.base + "/api/tables").json()["tables"]) == 2
    assert httpx.get(server.base + "/api/health").status_code == 200  # reading goes on


def test_openapi_documents_413_and_429_on_every_route(start_server: Callable[..., ThreadServer]):
    """/api/openapi.json names the limits' answers on every route, with the refusal's
    schema and 429's Retry-After; real 413 and 429 answers fit that schema."""
    server = start_server(max_body_bytes=1024, http_rate="3/minute")
    spec = httpx.get(server.base + "/api/openapi.json").json()
    refusal = spec["components"]["schemas"]["Refusal"]
    assert set(refusal["required"]) == {"code", "message"}
    operations = [op for ops in spec["paths"].values() for op in ops.values()]
    assert len(operations) >= 10
    for op in operations:
        for status in ("413", "429"):
            content = op["responses"][status]["content"]["application/json"]
            assert content["schema"] == {"$ref": "#/components/schemas/Refusal"}
        assert "Retry-After" in op["responses"]["429"]["headers"]
    too_large = httpx.post(server.base + "/api/tables", json={"padding": "x" * 2000})
    responses = [httpx.get(server.base + "/api/health") for _ in range(3)]
    assert too_large.status_code == 413 and responses[-1].status_code == 429
    for answer in (too_large, responses[-1]):
        assert set(answer.json()) == set(refusal["properties"])
    assert int(responses[-1].headers["retry-after"]) >= 1


def _statuses(server: ThreadServer, forwarded: list[str]) -> list[int]:
    return [
        httpx.get(server.base + "/api/health", headers={"X-Forwarded-For": f}).status_code
        for f in forwarded
    ]


def test_forwarded_for_names_the_client_behind_a_trusted_proxy(
    start_server: Callable[..., ThreadServer],
):
    server = start_server(http_rate="2/minute", trusted_proxies=("127.0.0.0/8",))
    assert _statuses(server, ["203.0.113.5"] * 3) == [200, 200, 429]
    # another client behind the same proxy has its own rate; the proxy's own hop is skipped
    assert _statuses(server, ["203.0.113.6, 127.0.0.1", "203.0.113.6"]) == [200, 200]


def test_forwarded_for_from_an_untrusted_peer_is_ignored(
    start_server: Callable[..., ThreadServer],
):
    """A client cannot escape its limit by writing any address in the header."""
    server = start_server(http_rate="2/minute", trusted_proxies=("10.0.0.0/8",))
    assert _statuses(server, ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) == [200, 200, 429]


@pytest.mark.parametrize(
    ("peer", "header", "expected"),
    [
        ("10.0.0.2", ["198.51.100.7"], "198.51.100.7"),
        ("10.0.0.2", ["1.2.3.4, 198.51.100.7, 10.0.0.9"], "198.51.100.7"),  # spoofed left part
        ("10.0.0.2", [], "10.0.0.2"),
        ("192.0.2.1", ["198.51.100.7"], "192.0.2.1"),  # not a trusted proxy
        ("10.0.0.2", ["not-an-address"], "not-an-address"),
    ],
)
def test_client_address_resolution(peer: str, header: list[str], expected: str):
    trusted = client_address.trusted_networks(["10.0.0.0/8"])
    assert client_address.resolve(peer, header, trusted) == expected
