"""The game server: an ASGI app (FastAPI on uvicorn) that stores every move.

`create_app(Settings(...))` builds the app; `skytotems serve` (`command.py`) runs it.
`app.py` is the HTTP API and wiring, `hub.py` the WebSocket protocol and the in-process
`Publisher` (`bus.py`), `connection.py` one socket's queue and how a stalled one is cut,
`ws_limits.py` and `http_limits.py` the per-address and per-socket limits, `service.py`
the only code that changes a table (`table.py`: one table in memory and the folding of
its log; `cache.py`: the tables held in memory),
`autoplay.py` bots and clocks, `archive.py` finished games, `store.py` the database,
`errors.py` the refusals. Imports are lazy so that the command line starts fast when it
does not serve.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .settings import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "Settings":
        from .settings import Settings

        return Settings
    raise AttributeError(name)
