"""Server settings: one immutable value built by the CLI, the tests or the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

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
    """

    db_url: str = DEFAULT_DB_URL
    static_dir: Path | None = field(default_factory=lambda: STATIC_DIR)
    bot_workers: int = 1
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

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        """Settings from SKYTOTEMS_* environment variables, then explicit overrides."""
        env = os.environ
        settings = cls()
        values: dict[str, object] = {}
        if "SKYTOTEMS_DB" in env:
            values["db_url"] = env["SKYTOTEMS_DB"]
        if "SKYTOTEMS_BOT_WORKERS" in env:
            values["bot_workers"] = int(env["SKYTOTEMS_BOT_WORKERS"])
        if "SKYTOTEMS_BOT_DELAY_MS" in env:
            values["bot_delay_ms"] = int(env["SKYTOTEMS_BOT_DELAY_MS"])
        if "SKYTOTEMS_CLOCK_SCALE" in env:
            values["clock_scale"] = float(env["SKYTOTEMS_CLOCK_SCALE"])
        if "SKYTOTEMS_TAKEOVER_LEVEL" in env:
            values["takeover_level"] = env["SKYTOTEMS_TAKEOVER_LEVEL"]
        if "SKYTOTEMS_SQLITE_SYNCHRONOUS" in env:
            values["sqlite_synchronous"] = env["SKYTOTEMS_SQLITE_SYNCHRONOUS"].upper()
        if "SKYTOTEMS_WAITING_EXPIRY_HOURS" in env:
            values["waiting_expiry_s"] = float(env["SKYTOTEMS_WAITING_EXPIRY_HOURS"]) * 3600
        if "SKYTOTEMS_MAX_BODY_BYTES" in env:
            values["max_body_bytes"] = int(env["SKYTOTEMS_MAX_BODY_BYTES"])
        if "SKYTOTEMS_HTTP_RATE" in env:
            values["http_rate"] = env["SKYTOTEMS_HTTP_RATE"]
        if "SKYTOTEMS_CREATE_RATE" in env:
            values["create_rate"] = env["SKYTOTEMS_CREATE_RATE"]
        if "SKYTOTEMS_TRUSTED_PROXIES" in env:
            values["trusted_proxies"] = tuple(
                p for p in env["SKYTOTEMS_TRUSTED_PROXIES"].replace(",", " ").split() if p
            )
        if "SKYTOTEMS_IDLE_DAYS" in env:
            values["idle_without_clock_s"] = float(env["SKYTOTEMS_IDLE_DAYS"]) * 24 * 3600
        if "SKYTOTEMS_IDLE_CLOCK_LIMITS" in env:
            values["idle_clock_limits"] = float(env["SKYTOTEMS_IDLE_CLOCK_LIMITS"])
        values.update({k: v for k, v in overrides.items() if v is not None})
        return replace(settings, **values)  # type: ignore[arg-type]
