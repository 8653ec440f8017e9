"""The browsable API page at /api/docs, with Swagger UI's assets served from the package
`fastapi-offline` (which ships Swagger UI 5, able to read OpenAPI 3.1), so that the page
works without a content network (offline, or on a network that blocks one)."""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

DOCS_URL = "/api/docs"
ASSETS_URL = f"{DOCS_URL}/assets"
ASSETS_DIR = Path(fastapi_offline.__file__).parent / "static"


def add_api_docs(app: FastAPI, title: str) -> None:
    """Serve the page and its assets (create the app with `docs_url=None`)."""
    app.mount(ASSETS_URL, StaticFiles(directory=ASSETS_DIR), name="api-docs-assets")
    openapi_url = app.openapi_url or "/api/openapi.json"

    @app.get(DOCS_URL, include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{title}: API",
            swagger_js_url=f"{ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url="/img/favicon.svg",
        )

    # where FastAPI apps usually keep the page: a trial looked there first and found a 404
    @app.get("/docs", include_in_schema=False)
    async def usual_docs_address() -> RedirectResponse:
        return RedirectResponse(DOCS_URL, status_code=308)
