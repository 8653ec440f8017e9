"""Server settings: one immutable value built by the CLI, the tests or the environment."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar

DEFAULT_DB_URL = "sqlite:///skytotems.db"
STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the app needs to start; nothing here is read at import time.

    `clock_scale` multiplies every clock length (1.0 in production; tests and demos
    shrink three minutes to a fraction of a second). `takeover_level` is the bot that
    takes over a seat whose time ran out (RULES of the table service: mcts-medium).
    `sqlite_synchronous` is SQLite's durability: NORMAL (the default, with WAL) keeps
    every committed action through a crash or kill -9 of the server; FULL also through
    a power cut, at the price of one fsync per group commit. `waiting_expiry_s`: a table
    whose game has not started that long after its creation is closed (status
    "expired"), so abandoned invitations leave the lobby and the server's memory.
    `chat_max_chars`, `chat_rate_count` per `chat_rate_window_s` and `chat_history`: a
    chat message's length, how many one sender may say in a window, and how many of a
    table's last messages a new connection is sent.
    `clock_heartbeat_s`: how often the moment the server is alive is stored with every
    running clock; after a crash or restart the clocks stop at that moment, so at most
    this much of the server's downtime is charged to a player.

    Limits (README, "Limits"): `max_body_bytes` caps an HTTP request body (413, checked
    before reading); `http_rate` and `create_rate` are per client address ("N/period",
    the `limits` library's notation; 429 with Retry-After), kept per process;
    `trusted_proxies` are the peers whose X-Forwarded-For is believed;
    `replay_cache_size` is how many finished games keep their replayed states.
    `idle_without_clock_s` and `idle_clock_limits` say when a playing table whose
    humans stopped acting is abandoned (its humans' seats taken over by bots and the
    game played out); a real-time table is abandoned once every human is out of time.

    `lease_poll_s` (several processes on PostgreSQL, docs/scale-out.md): how often a
    process looks for tables whose driving process died (it takes their leases over)
    and catches its tables in memory up with the database.

    Table sockets (server/ws_limits.py, server/connection.py): `ws_sockets_per_address`
    open sockets and `ws_handshake_rate` new ones per client address (429 before the
    upgrade); `ws_message_rate` messages per socket (more are answered `rate_limited`)
    and `ws_abuse_rate` refusals before the socket is closed with 1008;
    `hello_timeout_s` for a new socket's hello. A socket is cut (aborted) when more than
    `send_queue_limit` messages or `send_queue_bytes` wait for it, or when a message has
    waited `send_stall_s` to be written; `send_buffer_bytes` and `receive_buffer_bytes`
    cap its kernel buffers; `ws_ping_s` is the keepalive ping's period and its time to
    answer, and how long a socket's close may wait on a buffer that does not drain
    before it is aborted.

    Bot moves (server/bots.py): `bot_workers` processes compute them, at most that many
    at once (by default one fewer than this process may use cores, at least one: the
    event loop keeps a core); the moves waiting are served fairly across tables.

    Scale-out (docs/scale-out.md): `redis_url` (None: one process, the in-process hub)
    is the Redis through which several processes tell each other that a table changed;
    `redis_channel` is the pub/sub channel they share (one per deployment on a Redis).

    Post-game analysis (docs/analysis.md, "On the server"): `analysis_workers` worker
    processes of their own compute the jobs (0: this process computes none, others do);
    `analysis_level` is the level asked for when a request names none;
    `analysis_determinizations` replaces every level's K when not 0 (tests and small
    machines); `analysis_rate` is how many new jobs one client address may queue
    ("N/period"; asking for a job that exists is free); a job whose process has not said
    it is alive for `analysis_stale_s` is resumed by another (or the restarted) process.
    """

    db_url: str = DEFAULT_DB_URL
    static_dir: Path | None = field(default_factory=lambda: STATIC_DIR)
    bot_workers: int = field(default_factory=lambda: default_bot_workers())
    bot_delay_ms: int = 0
    clock_scale: float = 1.0
    takeover_level: str = "mcts-medium"
    max_message_bytes: int = 8192
    send_queue_limit: int = 256
    sqlite_synchronous: str = "NORMAL"
    finished_cache_size: int = 64
    waiting_expiry_s: float = 14 * 24 * 3600.0
    chat_max_chars: int = 300
    chat_rate_count: int = 5
    chat_rate_window_s: float = 10.0
    chat_history: int = 200
    clock_heartbeat_s: float = 5.0
    max_body_bytes: int = 64 * 1024
    http_rate: str = "600/minute"
    create_rate: str = "20/minute"
    trusted_proxies: tuple[str, ...] = ()
    replay_cache_size: int = 16
    idle_without_clock_s: float = 7 * 24 * 3600.0
    idle_clock_limits: float = 3.0
    lease_poll_s: float = 1.0
    hello_timeout_s: float = 5.0
    send_queue_bytes: int = 512 * 1024
    send_buffer_bytes: int = 64 * 1024
    receive_buffer_bytes: int = 64 * 1024
    send_stall_s: float = 15.0
    ws_ping_s: float = 20.0
    ws_sockets_per_address: int = 100
    ws_handshake_rate: str = "120/minute"
    ws_message_rate: str = "40/2 seconds"
    ws_abuse_rate: str = "40/10 seconds"
    redis_url: str | None = None
    redis_channel: str = "skytotems"
    analysis_workers: int = 1
    analysis_level: str = "greedy"
    analysis_determinizations: int = 0
    analysis_rate: str = "10/hour"
    analysis_stale_s: float = 30.0

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        """Settings from SKYTOTEMS_* environment variables, then explicit overrides.

        A variable whose value cannot be used raises `SettingError` naming it (the serve
        command turns that into a one-line usage error), never a traceback later on; one
        whose setting an option gives is not read (the option wins, even over a bad value).
        """
        given = {k for k, v in overrides.items() if v is not None}
        values: dict[str, object] = {}
        for variable, (name, read) in ENVIRONMENT.items():
            raw = os.environ.get(variable)
            if raw is None or name in given:
                continue
            try:
                values[name] = read(raw)
            except ValueError as exc:
                raise SettingError(variable, raw, str(exc)) from None
        values.update({k: v for k, v in overrides.items() if v is not None})
        return replace(cls(), **values)  # type: ignore[arg-type]


def default_bot_workers() -> int:
    """One fewer bot worker than the cores this process may use, at least one."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


class SettingError(ValueError):
    """An environment variable whose value the server cannot use."""

    def __init__(self, variable: str, value: str, reason: str) -> None:
        super().__init__(f"{variable}={value!r}: {reason}")
        self.variable = variable


Number = TypeVar("Number", int, float)


def _number_in(
    convert: Callable[[str], Number], raw: str, fits: Callable[[Number], bool], expected: str
) -> Number:
    """`raw` read by `convert` (int or float) when it `fits`; otherwise one ValueError
    saying what was expected, for a text that is no number too (not the converter's own)."""
    try:
        value = convert(raw)
    except ValueError:
        raise ValueError(f"must be {expected}") from None
    if not fits(value):
        raise ValueError(f"must be {expected}")
    return value


def _count(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    within = f"from {minimum} to {maximum}" if maximum is not None else f"of at least {minimum}"

    def fits(value: int) -> bool:
        return value >= minimum and (maximum is None or value <= maximum)

    return lambda raw: _number_in(int, raw, fits, f"an integer {within}")


MAX_SOCKET_BUFFER = 2**30  # what setsockopt takes (a C int), rounded down; Linux caps it lower


def _bot_level(raw: str) -> str:
    """A bot of the registry (`skytotems.bots.registry`): a seat handed to an unknown
    level would never move."""
    from skytotems.bots.registry import BOT_NAMES

    if raw not in BOT_NAMES:
        raise ValueError(f"must be one of {', '.join(BOT_NAMES)}")
    return raw


def _positive(scale: float = 1.0) -> Callable[[str], float]:
    def fits(value: float) -> bool:
        return math.isfinite(value) and value > 0

    return lambda raw: _number_in(float, raw, fits, "a number greater than 0") * scale


def _rate(raw: str) -> str:
    """A rate in the `limits` library's notation ("600/minute", "10 per second")."""
    from limits import parse

    try:
        parse(raw)
    except ValueError:
        raise ValueError('must be a rate such as "600/minute" or "10/second"') from None
    return raw


def _proxies(raw: str) -> tuple[str, ...]:
    """Addresses or networks, separated by commas or spaces."""
    from .client_address import trusted_networks

    entries = tuple(p for p in raw.replace(",", " ").split() if p)
    try:
        trusted_networks(entries)
    except ValueError as exc:
        raise ValueError(f"not an IP address or network ({exc})") from None
    return entries


def _synchronous(raw: str) -> str:
    mode = raw.upper()
    if mode not in SQLITE_SYNCHRONOUS:
        raise ValueError(f"must be one of {', '.join(SQLITE_SYNCHRONOUS)}")
    return mode


def _channel(raw: str) -> str:
    if not raw.strip():
        raise ValueError("must name a channel")
    return raw


def _analysis_level(raw: str) -> str:
    from skytotems.bots.analysis import LEVELS

    if raw not in LEVELS:
        raise ValueError(f"must be one of {', '.join(LEVELS)}")
    return raw


def _determinizations(raw: str) -> int:
    return _number_in(
        int, raw, lambda v: v == 0 or 2 <= v <= 256, "0 (the level's) or from 2 to 256"
    )


SQLITE_SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
HOUR = 3600.0

# Each variable: the setting it gives and how its text is read (ValueError: unusable).
ENVIRONMENT: dict[str, tuple[str, Callable[[str], object]]] = {
    "SKYTOTEMS_DB": ("db_url", str),
    "SKYTOTEMS_BOT_WORKERS": ("bot_workers", _count(1, 256)),
    "SKYTOTEMS_BOT_DELAY_MS": ("bot_delay_ms", _count(0)),
    "SKYTOTEMS_CLOCK_SCALE": ("clock_scale", _positive()),
    "SKYTOTEMS_TAKEOVER_LEVEL": ("takeover_level", _bot_level),
    "SKYTOTEMS_SQLITE_SYNCHRONOUS": ("sqlite_synchronous", _synchronous),
    "SKYTOTEMS_WAITING_EXPIRY_HOURS": ("waiting_expiry_s", _positive(HOUR)),
    "SKYTOTEMS_MAX_BODY_BYTES": ("max_body_bytes", _count(1)),
    "SKYTOTEMS_HTTP_RATE": ("http_rate", _rate),
    "SKYTOTEMS_CREATE_RATE": ("create_rate", _rate),
    "SKYTOTEMS_TRUSTED_PROXIES": ("trusted_proxies", _proxies),
    "SKYTOTEMS_IDLE_DAYS": ("idle_without_clock_s", _positive(24 * HOUR)),
    "SKYTOTEMS_IDLE_CLOCK_LIMITS": ("idle_clock_limits", _positive()),
    "SKYTOTEMS_LEASE_POLL_S": ("lease_poll_s", _positive()),
    "SKYTOTEMS_CLOCK_HEARTBEAT_S": ("clock_heartbeat_s", _positive()),
    "SKYTOTEMS_HELLO_TIMEOUT_S": ("hello_timeout_s", _positive()),
    "SKYTOTEMS_SEND_QUEUE_LIMIT": ("send_queue_limit", _count(1)),
    "SKYTOTEMS_SEND_QUEUE_BYTES": ("send_queue_bytes", _count(1)),
    "SKYTOTEMS_SEND_BUFFER_BYTES": ("send_buffer_bytes", _count(0, MAX_SOCKET_BUFFER)),
    "SKYTOTEMS_RECEIVE_BUFFER_BYTES": ("receive_buffer_bytes", _count(0, MAX_SOCKET_BUFFER)),
    "SKYTOTEMS_SEND_STALL_S": ("send_stall_s", _positive()),
    "SKYTOTEMS_WS_PING_S": ("ws_ping_s", _positive()),
    "SKYTOTEMS_WS_SOCKETS_PER_ADDRESS": ("ws_sockets_per_address", _count(1)),
    "SKYTOTEMS_WS_HANDSHAKE_RATE": ("ws_handshake_rate", _rate),
    "SKYTOTEMS_WS_MESSAGE_RATE": ("ws_message_rate", _rate),
    "SKYTOTEMS_WS_ABUSE_RATE": ("ws_abuse_rate", _rate),
    "SKYTOTEMS_REDIS_CHANNEL": ("redis_channel", _channel),
    "SKYTOTEMS_ANALYSIS_WORKERS": ("analysis_workers", _count(0)),
    "SKYTOTEMS_ANALYSIS_LEVEL": ("analysis_level", _analysis_level),
    "SKYTOTEMS_ANALYSIS_DETERMINIZATIONS": ("analysis_determinizations", _determinizations),
    "SKYTOTEMS_ANALYSIS_RATE": ("analysis_rate", _rate),
    "SKYTOTEMS_ANALYSIS_STALE_S": ("analysis_stale_s", _positive()),
}
