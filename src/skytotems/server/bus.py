"""How the table service tells the world that a table changed, without knowing who listens.

The service publishes every committed change through a `Publisher`. In one process that
is the hub itself (`hub.Hub`), which sends each socket of the table its own view. With
several processes, a publisher that also carries the change to the other processes
(through Redis) takes its place; the service code stays the same (DESIGN.md §4).
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from skytotems import Event

from .table import Table

log = logging.getLogger("skytotems.server")

# The connection whose message caused a change (opaque to the service: the hub made it)
# and that message's id; the hub acknowledges it in that connection's state message.
Ack = tuple[object, Any]


class Publisher(Protocol):
    """Where the service sends a change once it is committed (never before)."""

    def publish(
        self,
        table: Table,
        events: list[Event],
        server_events: list[dict[str, Any]],
        ack: Ack | None = None,
        reset: bool = False,
    ) -> None:
        """Announce `table`'s new state: the engine `events` of its last entry and the
        server's own notices; `reset` when watchers must start again from the view."""

    def publish_chat(self, table: Table, message: dict[str, Any], ack: Ack | None = None) -> None:
        """Announce a stored chat message of `table` (channel "players": everyone there;
        "spectators": the spectators only)."""


class GuardedPublisher:
    """A `Publisher` whose failures are logged, never raised: a change is committed by
    the time it is published, so whatever follows it (the lobby, the bots, the clocks:
    `TableService._after_change`) must happen even if telling the sockets went wrong."""

    __slots__ = ("inner",)

    def __init__(self, inner: Publisher) -> None:
        self.inner = inner

    def publish(
        self,
        table: Table,
        events: list[Event],
        server_events: list[dict[str, Any]],
        ack: Ack | None = None,
        reset: bool = False,
    ) -> None:
        try:
            self.inner.publish(table, events, server_events, ack, reset)
        except Exception:
            log.exception("skytotems: publishing a change of table %s failed", table.id)

    def publish_chat(self, table: Table, message: dict[str, Any], ack: Ack | None = None) -> None:
        try:
            self.inner.publish_chat(table, message, ack)
        except Exception:
            log.exception("skytotems: publishing a chat message of table %s failed", table.id)
