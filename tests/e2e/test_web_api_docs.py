"""The API docs page (/api/docs) works offline: Swagger UI's assets come from the server
itself, so the page renders the API's operations with every other host unreachable."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import httpx

if TYPE_CHECKING:
    from playwright.sync_api import Route

    from conftest import LiveServer, Pages


def test_the_api_docs_render_with_no_other_host_reachable(
    pages: Pages, live_server: LiveServer
) -> None:
    own = urlsplit(live_server.base).netloc
    elsewhere: list[str] = []

    def only_our_server(route: Route) -> None:
        if urlsplit(route.request.url).netloc == own:
            route.continue_()
        else:  # as offline: nothing else answers
            elsewhere.append(route.request.url)
            route.abort()

    page = pages.open("about:blank")
    page.route("**/*", only_our_server)
    page.goto(live_server.base + "/api/docs")
    page.get_by_role("heading", name="Sky Totems server").first.wait_for()
    page.get_by_text("/api/tables/{table_id}/join").first.wait_for()
    assert elsewhere == []


def test_the_usual_docs_address_leads_to_the_api_docs(live_server: LiveServer) -> None:
    """/docs, where FastAPI servers keep the page, answered 404 (a trial looked there)."""
    moved = httpx.get(live_server.base + "/docs")
    assert moved.status_code == 308 and moved.headers["location"] == "/api/docs"
    assert "swagger" in httpx.get(live_server.base + "/docs", follow_redirects=True).text.lower()
