"""WebSocket connections: per-seat views and filtered events fanned out after each change.

Protocol (JSON text frames; `seq` counts the table's log entries, undo entries included):

client → server
  {"type": "hello", "token": "<seat token>" | null, "seq": <last seq seen> | null}
  {"type": "act", "id": <any>, "seq": <last seq seen>, "action": {<engine action>}}
  {"type": "undo", "id": <any>, "seq": <last seq seen>, "to": "last" | "turn"}
  {"type": "takeover", "id": <any>, "player": <player whose time ran out>}
  {"type": "ping", "id": <any>}
  {"type": "chat", "id": <any>, "text": "<plain text>", "name": "<spectator's name>" | null}
    (a seated player speaks in the "players" channel; a spectator, under `name`, in the
    "spectators" channel; at most Settings.chat_max_chars characters and
    chat_rate_count messages per chat_rate_window_s)

server → client
  {"type": "welcome", "table": {...summary}, "player": n | null, "seats": [...],
   "deck": {...deck file...}, "chat": [<chat message>...], "protocol": 1}
  {"type": "state", "seq": n, "status": ..., "player": n | null, "view": {...},
   "events": [...], "clocks": {...} | null, "undo": {"last": b, "turn": b},
   "reset": true (only after an undo or when the events since `seq` are gone),
   "ack": <id> (only to the connection whose message caused it)}
  {"type": "error", "code": "...", "message": "...", "id": <id>}
  {"type": "done", "id": <id>}     (a take-over was made; everyone gets the new state)
  {"type": "pong", "id": <id>}
  {"type": "chat", "message": {"id": n, "at_ms": t, "player": n | null,
   "channel": "players" | "spectators", "name": "...", "text": "..."},
   "ack": <id> (only to the connection that said it)}

Message ids are integers within ±2^53 or strings of at most 64 characters (anything else:
`malformed`). Each socket may send Settings.ws_message_rate messages (more are answered
`rate_limited`, unread; a socket that keeps on is closed with 1008); a socket that stops
reading is aborted (server/connection.py). Limits and close codes: docs/wire-format.md.

Chat is plain text (clients show it as text, never as markup). Everyone at the table
reads the players' channel; only spectators read the spectators' channel (players are
not told what onlookers say about their game). `welcome` carries the last messages the
connection may read.
The `view` is `skytotems.view(game, seat)` without its `deck` (sent once, in welcome).
Events are the engine's, filtered for the seat by `events_for`, followed by the server's
own (player_joined, undone, time_out, taken_over, table_expired, table_cancelled,
table_abandoned). A connection resumes by sending the last seq it saw in hello: it gets
the events it missed, or `reset` and the view.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import orjson
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect

from skytotems import Event, events_for, view

from .bus import Ack
from .connection import POLICY_VIOLATION, Conn, RawSocket, Socket, stalled
from .errors import ServiceError
from .schemas import CLIENT_MESSAGE, Act, Chat, Hello, Ping, Takeover, Undo
from .service import TableService
from .settings import Settings
from .store import now_ms
from .table import Table
from .ws_limits import SocketLimits

log = logging.getLogger("skytotems.server")
PROTOCOL = 1

__all__ = ["Conn", "Hub", "RawSocket", "Socket", "serve_socket"]


class Hub:
    """Every open socket of this process, grouped by table; the in-process `Publisher`."""

    def __init__(self, settings: Settings) -> None:
        self.rooms: dict[str, set[Conn]] = {}
        self.settings = settings
        self.send_queue_limit = settings.send_queue_limit
        self.limits = SocketLimits(settings)
        self._decks: dict[str, dict[str, Any]] = {}
        self._watchdog: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the watchdog that cuts stalled sockets."""
        self._watchdog = asyncio.get_running_loop().create_task(self._watch())

    async def close(self) -> None:
        if self._watchdog is not None:
            self._watchdog.cancel()
            await asyncio.gather(self._watchdog, return_exceptions=True)

    def connect(self, ws: Socket, table_id: str, player: int | None) -> Conn:
        """A new connection of this hub (not yet attached to its table's room)."""
        return Conn(ws, table_id, player, self.send_queue_limit, self.settings.send_queue_bytes)

    async def _watch(self) -> None:
        """Every so often, abort the sockets that stopped reading (`connection.stalled`)."""
        stall_s, closing_s = self.settings.send_stall_s, self.settings.ws_ping_s
        loop = asyncio.get_running_loop()
        closing_since: dict[Conn, float] = {}
        while True:
            await asyncio.sleep(min(1.0, max(0.02, min(stall_s, closing_s) / 4)))
            now = loop.time()
            conns = [c for room in self.rooms.values() for c in room]
            for conn in conns:
                why = stalled(conn, now, stall_s, closing_s, closing_since)
                if why is not None:
                    conn.abort(why)
            for gone in set(closing_since) - set(conns):
                del closing_since[gone]

    def deck_json(self, table: Table) -> dict[str, Any]:
        """The table's deck file, serialised once per deck (it is in every welcome)."""
        data = self._decks.get(table.deck_id)
        if data is None:
            data = self._decks[table.deck_id] = table.deck.to_json()
        return data

    @property
    def connections(self) -> int:
        return sum(len(r) for r in self.rooms.values())

    def attach(self, conn: Conn) -> None:
        self.rooms.setdefault(conn.table_id, set()).add(conn)

    def detach(self, conn: Conn) -> None:
        room = self.rooms.get(conn.table_id)
        if room is not None:
            room.discard(conn)
            if not room:
                del self.rooms[conn.table_id]
        conn.close()

    def publish(
        self,
        table: Table,
        events: list[Event],
        server_events: list[dict[str, Any]],
        ack: Ack | None = None,
        reset: bool = False,
    ) -> None:
        """Send every socket of `table` its own state message (views computed once each)."""
        room = self.rooms.get(table.id)
        if not room:
            return
        groups: dict[int | None, list[Conn]] = {}
        for conn in room:
            groups.setdefault(conn.player, []).append(conn)
        now = now_ms()
        for player, conns in groups.items():
            try:
                data = orjson.dumps(state_message(table, player, events, server_events, reset, now))
                text = data.decode()  # one string shared by the group's queues
            except Exception:
                log.exception("skytotems: the state of table %s could not be made", table.id)
                for conn in conns:
                    conn.close()  # they reconnect and resume from their last seq
                continue
            for conn in conns:
                deliver(conn, data, text, ack)

    def publish_chat(self, table: Table, message: dict[str, Any], ack: Ack | None = None) -> None:
        """Send a chat message to every socket of `table` that may read its channel."""
        room = self.rooms.get(table.id)
        if not room:
            return
        data = orjson.dumps({"type": "chat", "message": message})
        text = data.decode()
        for conn in list(room):
            if may_read(conn.player, message):
                deliver(conn, data, text, ack)


def deliver(conn: Conn, data: bytes, text: str, ack: Ack | None) -> None:
    """Queue `text` (`data` with the ack if `conn` sent the message that caused it) for
    one socket; if that fails, that socket alone is closed and the fan-out goes on."""
    try:
        conn.send(with_ack(data, ack[1]) if ack is not None and conn is ack[0] else text)
    except Exception:
        log.exception("skytotems: a message to one socket of table %s failed", conn.table_id)
        with contextlib.suppress(Exception):
            conn.close()


def may_read(player: int | None, message: dict[str, Any]) -> bool:
    """Everyone reads the players' channel; only spectators read the spectators'."""
    return message["channel"] == "players" or player is None


def with_ack(data: bytes, msg_id: Any) -> bytes:
    """`data` (a JSON object) with an "ack" field first, without serialising it again."""
    return b'{"ack":' + orjson.dumps(msg_id) + b"," + data[1:]


def state_message(
    table: Table,
    player: int | None,
    events: list[Event] | None,
    server_events: list[dict[str, Any]],
    reset: bool,
    now: int,
) -> dict[str, Any]:
    """What `player` (None: a spectator) is sent after a change."""
    game = table.game
    seat = table.view_seat(player)
    seen = view(game, seat, include_deck=False)
    out: dict[str, Any] = {
        "type": "state",
        "seq": table.seq,
        "status": table.status,
        "player": player,
        "view": seen,
        "events": [e.to_json() for e in events_for(events or [], seat, game.options.solo)]
        + server_events,
        "clocks": table.clocks.public(now) if table.clocks is not None else None,
    }
    if player is not None:
        floor = table.undo_floor(player)
        out["undo"] = {"last": floor is not None, "turn": floor is not None}
    if reset or events is None:
        out["reset"] = True
    return out


def error_message(code: str, message: str, msg_id: Any = None) -> bytes:
    return orjson.dumps({"type": "error", "code": code, "message": message, "id": msg_id})


async def serve_socket(ws: Socket, table_id: str, service: TableService, hub: Hub) -> None:
    """One client's socket: hello, then actions until it closes."""
    settings = hub.settings
    limit_buffers = getattr(ws, "limit_buffers", None)
    if limit_buffers is not None:
        limit_buffers(settings.send_buffer_bytes, settings.receive_buffer_bytes)
    await ws.accept()
    try:
        table = await service.get(table_id)
        hello = await _read_hello(ws, settings)
    except ServiceError as exc:
        await ws.send_text(error_message(exc.code, exc.message).decode())
        await ws.close(code=4404 if exc.status == 404 else 4400)
        return
    except (WebSocketDisconnect, TimeoutError):
        return
    if hello.seq is not None and hello.seq > (await service.get(table_id)).seq:
        # seen through another process that is ahead of this one's copy: read it first
        await service.catch_up(table_id)
    table = await service.committed(table_id)  # never a state whose commit is pending
    player: int | None = None
    if hello.token is not None:
        player = table.player_by_token(hello.token)
        if player is None:
            await ws.send_text(error_message("bad_token", "this token opens no seat here").decode())
            await ws.close(code=4403)
            return
    conn = hub.connect(ws, table.id, player)
    # attach and send the first state with no await between: no update can slip by
    hub.attach(conn)
    conn.send(
        orjson.dumps(
            {
                "type": "welcome",
                "protocol": PROTOCOL,
                "table": table.summary(),
                "player": player,
                "seats": list(table.engine_seats(player)) if player is not None else [],
                "deck": hub.deck_json(table),
                "chat": [m for m in table.chat if may_read(player, m)],
            }
        )
    )
    missed = table.events_since(hello.seq) if hello.seq is not None else []
    conn.send(orjson.dumps(state_message(table, player, missed, [], False, now_ms())))
    try:
        await _receive_loop(ws, conn, table_id, service, hub)
    finally:
        hub.detach(conn)  # closes it once what is queued is sent (a close code included)
        done, _ = await asyncio.wait({conn.sender}, timeout=settings.send_stall_s)
        if not done:
            conn.abort("its last messages could not be written")


async def _read_hello(ws: Socket, settings: Settings) -> Hello:
    text = await asyncio.wait_for(_receive_text(ws), settings.hello_timeout_s)
    if text is None:
        raise WebSocketDisconnect()
    message = _parse(text, settings.max_message_bytes)
    if not isinstance(message, Hello):
        raise ServiceError("hello_first", "the first message must be a hello")
    return message


async def _receive_text(ws: Socket) -> str | None:
    """The next text (or UTF-8 bytes) frame, or None once the socket is closed."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is None:
        raw = message.get("bytes") or b""
        text = raw.decode("utf-8", errors="replace")
    return str(text)


def _parse(text: str, max_bytes: int) -> Hello | Act | Undo | Takeover | Ping | Chat:
    if len(text) > max_bytes or (4 * len(text) > max_bytes and len(text.encode()) > max_bytes):
        raise ServiceError("oversized", f"messages are limited to {max_bytes} bytes")
    try:
        return CLIENT_MESSAGE.validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        why = first["msg"].removeprefix("Value error, ")
        raise ServiceError("malformed", f"{where}: {why}" if where else why) from None


def _id_of(text: str) -> Any:
    """The id of a message that will not be read (over the rate), if it has a valid one."""
    with contextlib.suppress(Exception):
        return _parse(text, 1024).id  # type: ignore[union-attr]
    return None


async def _receive_loop(
    ws: Socket, conn: Conn, table_id: str, service: TableService, hub: Hub
) -> None:
    limits = hub.limits
    counts = limits.socket_counts()
    max_bytes = hub.settings.max_message_bytes
    while True:
        # let every other socket and timer run between two messages of this one, even
        # when its messages are already waiting (a flood arrives many to a read)
        await asyncio.sleep(0)
        try:
            text = await _receive_text(ws)
        except WebSocketDisconnect:
            return
        if text is None:
            return
        if not counts.message_allowed():
            if not counts.still_tolerated():
                conn.close(POLICY_VIOLATION)  # it kept sending over the rate
                return
            conn.send(
                error_message(
                    "rate_limited",
                    f"too many messages on this socket ({limits.messages}); this one was "
                    "not read: slow down",
                    _id_of(text),
                )
            )
            continue
        msg_id: Any = None
        try:
            message = _parse(text, max_bytes)
            msg_id = getattr(message, "id", None)
            table = await service.get(table_id)
            if isinstance(message, Ping):
                conn.send(orjson.dumps({"type": "pong", "id": msg_id}))
                continue
            if isinstance(message, Hello):
                raise ServiceError("hello_again", "this socket has already said hello")
            player = conn.player
            if isinstance(message, Chat):
                await service.say(table, player, message.text, message.name, conn, msg_id)
                continue
            if player is None:
                raise ServiceError("spectator", "a spectator cannot play; join a seat")
            if isinstance(message, Act):
                await service.act(table, player, message.seq, message.action, conn, msg_id)
            elif isinstance(message, Undo):
                await service.undo(table, player, message.seq, message.to, conn, msg_id)
            else:
                await service.takeover(table, player, message.player)
                conn.send(orjson.dumps({"type": "done", "id": msg_id}))
        except ServiceError as exc:
            conn.send(error_message(exc.code, exc.message, msg_id))
