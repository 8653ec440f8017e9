"""`skytotems serve` (and `python -m skytotems.server`): the game server on uvicorn.

The command lives with the server, so running the server never loads the other
commands of the command line (which lists this one among its own).
"""

from __future__ import annotations

import click

from .settings import DEFAULT_DB_URL

MAX_WS_FRAME = 64 * 1024  # larger frames close the socket; the app refuses > 8 KB itself


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
@click.option(
    "--db",
    "db_url",
    default=DEFAULT_DB_URL,
    show_default=True,
    help="SQLAlchemy database URL (default: the SQLite file skytotems.db here).",
)
@click.option(
    "--bot-workers",
    default=1,
    show_default=True,
    type=int,
    help="Worker processes that compute bot moves.",
)
@click.option("--log-level", default="info", show_default=True, help="uvicorn log level.")
def serve(host: str, port: int, db_url: str, bot_workers: int, log_level: str) -> None:
    """Run the game server: the browser game at /, the API under /api, play on /ws."""
    import uvicorn

    from .app import create_app
    from .settings import Settings

    settings = Settings.from_env(db_url=db_url, bot_workers=bot_workers)
    app = create_app(settings)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=MAX_WS_FRAME,
        lifespan="on",
    )
