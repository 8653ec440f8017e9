"""schemathesis against the server's OpenAPI description (/api/openapi.json): generated
requests to every HTTP route of the real server; no 500, and every documented response
matches its schema and content type, on SQLite and on PostgreSQL (`db_url`). Bounded: a
fixed number of examples."""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)
from wsclient import ThreadServer, create_table

CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]


def test_generated_requests_get_no_500_and_match_the_schema(
    start_server: Any,
) -> None:
    server: ThreadServer = start_server(http_rate="100000/minute", create_rate="100000/minute")
    # a table to find, so that the table routes do more than answer 404
    table = create_table(server.base, [{"type": "human"}, {"type": "bot", "level": "random"}])
    table_id = table["table"]["id"]
    schema = schemathesis.openapi.from_url(server.base + "/api/openapi.json")
    # the table's own id, and generated ids (a U+0000 in one was a 500 on PostgreSQL only)
    strategy = schema.as_strategy(path_parameters={"table_id": table_id}) | schema.as_strategy()

    @settings(
        max_examples=60,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def check(case: Any) -> None:
        case.call_and_validate(base_url=server.base, session=None, checks=CHECKS)

    check()
