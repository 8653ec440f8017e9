"""Connect once to the database before `serve` starts the server.

A database that does not exist, a refused connection or a driver that is not installed
used to surface as a traceback from the app's startup (exit 3); checked here first, it
is a one-line usage error naming the option (server/command.py).
"""

from __future__ import annotations


def _one_line(error: BaseException | None) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def database_problem(url: str) -> str | None:
    """Why `url` cannot be used as the server's database, or None when a connection opens."""
    from sqlalchemy.exc import DBAPIError, SQLAlchemyError

    from . import store

    try:
        engine = store.make_engine(url)
    except ImportError as exc:  # create_engine imports the dialect's driver
        return f"its driver is not installed ({_one_line(exc)})"
    try:
        with engine.connect():
            pass
    except DBAPIError as exc:
        return f"cannot connect ({_one_line(exc.orig)})"
    except SQLAlchemyError as exc:
        return f"cannot connect ({_one_line(exc)})"
    finally:
        engine.dispose()
    return None
