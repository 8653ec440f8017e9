"""`skytotems serve` (and `python -m skytotems.server`): the game server on uvicorn.

The command lives with the server, so running the server never loads the other
commands of the command line (which lists this one among its own). Every argument is
checked before anything starts, and the database is connected to once: a bad one is a
one-line usage error naming the option (exit code 2), never a traceback.
"""

from __future__ import annotations

import errno
from pathlib import Path

import click

from .. import __version__, native
from .settings import DEFAULT_DB_URL

MAX_WS_FRAME = 64 * 1024  # larger frames close the socket; the app refuses > 8 KB itself
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


def _check_db_url(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """A SQLAlchemy URL of an installed dialect; for a SQLite file, an existing folder."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        url = make_url(value)
        url.get_dialect()
    except (ArgumentError, NoSuchModuleError, ValueError) as exc:
        raise click.BadParameter(f"{value!r} is not a usable database URL ({exc})") from None
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        folder = Path(url.database).parent
        if not folder.is_dir():
            raise click.BadParameter(
                f"the folder {str(folder)!r} of the SQLite file does not exist"
            )
    return value


def _check_redis_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A Redis URL redis-py can connect with (redis://, rediss:// or unix://), naming a
    host or a socket; nothing is connected yet."""
    if value is None:
        return None
    from redis.connection import parse_url

    try:
        parts = parse_url(value)  # type: ignore[no-untyped-call]
    except ValueError as exc:
        raise click.BadParameter(f"{value!r} is not a usable Redis URL ({exc})") from None
    if not parts.get("host") and not parts.get("path"):
        raise click.BadParameter(f"{value!r} names no Redis host (redis://HOST:6379/0)")
    return value


def _check_address(host: str, port: int) -> None:
    """Bind `host`:`port` once, as uvicorn will: a name that does not resolve, an address
    not on this machine or a port in use is a usage error naming the option, not
    uvicorn's log line and exit code 3 after the app has started."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise click.BadParameter(
            f"{host!r} does not resolve ({exc})", param_hint="'--host'"
        ) from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            hint = "'--port'" if exc.errno == errno.EADDRINUSE else "'--host'"
            raise click.BadParameter(
                f"cannot listen on {host}:{port} ({exc.strerror or exc})", param_hint=hint
            ) from None


def _check_database(db_url: str) -> None:
    """Connect once to the database: one that cannot be used is a usage error naming
    --db (or SKYTOTEMS_DB), before uvicorn starts. (Redis is not checked: a process
    whose Redis does not answer starts, logs it and keeps trying, docs/scale-out.md.)"""
    from . import preflight

    problem = preflight.database_problem(db_url)
    if problem is not None:
        ctx = click.get_current_context()
        from_env = ctx.get_parameter_source("db_url") == click.core.ParameterSource.ENVIRONMENT
        hint = "'--db' (from SKYTOTEMS_DB)" if from_env else "'--db'"
        raise click.BadParameter(problem, param_hint=hint)


@click.command("serve")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (checked before starting: it must resolve and be free).",
)
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on (0: any free port).",
)
@click.option(
    "--db",
    "db_url",
    default=DEFAULT_DB_URL,
    show_default=True,
    envvar="SKYTOTEMS_DB",
    show_envvar=True,
    callback=_check_db_url,
    help="SQLAlchemy database URL (default: the SQLite file skytotems.db here).",
)
@click.option(
    "--redis",
    "redis_url",
    default=None,
    envvar="SKYTOTEMS_REDIS",
    show_envvar=True,
    callback=_check_redis_url,
    help="Redis URL (redis://HOST:6379/0) through which several server processes on one "
    "PostgreSQL database share their tables (docs/scale-out.md); default: none, one process.",
)
@click.option(
    "--bot-workers",
    default=None,
    type=click.IntRange(1, 256),
    help="Worker processes that compute bot moves, shared fairly by the tables "
    "[default: SKYTOTEMS_BOT_WORKERS, else one fewer than the cores, at least 1].",
)
@click.option(
    "--log-level",
    default="info",
    show_default=True,
    type=click.Choice(LOG_LEVELS, case_sensitive=False),
    help="uvicorn log level.",
)
def serve(
    host: str,
    port: int,
    db_url: str,
    redis_url: str | None,
    bot_workers: int | None,
    log_level: str,
) -> None:
    """Run the game server: the browser game at /, the API under /api, play on /ws."""
    import uvicorn

    from .app import create_app
    from .settings import SettingError, Settings

    try:
        settings = Settings.from_env(db_url=db_url, redis_url=redis_url, bot_workers=bot_workers)
    except SettingError as exc:
        raise click.UsageError(f"environment variable {exc}") from None
    _check_address(host, port)
    _check_database(db_url)
    app = create_app(settings)
    # which path the bots run (an install without a compiler is slower; docs/deploy.md)
    click.echo(f"skytotems {__version__}: {native.describe()}", err=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level.lower(),
        ws_max_size=MAX_WS_FRAME,
        # keepalive: a socket whose ping is not answered within ws_ping_s is closed, and
        # aborted by the hub if that close cannot complete (server/connection.py)
        ws_ping_interval=settings.ws_ping_s,
        ws_ping_timeout=settings.ws_ping_s,
        lifespan="on",
        # the client's address is resolved by the app (server/client_address.py), which
        # believes X-Forwarded-For only from the configured trusted proxies
        proxy_headers=False,
    )
