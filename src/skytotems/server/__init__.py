"""The game server: an ASGI app (FastAPI on uvicorn) that stores every move.

`create_app(Settings(...))` builds the app; `skytotems serve` runs it. See `app.py` for
the HTTP API, `hub.py` for the WebSocket protocol and `tables.py` for the table service.
Imports are lazy so that the command line starts fast when it does not serve.
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
