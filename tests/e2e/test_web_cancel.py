"""A seated player cancels a table still waiting for players from the table page: after
a second click that says what closing means, every visitor sees it closed and the join
form goes away, and it leaves the host's list of tables (server route POST
/api/tables/{id}/cancel)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from playwright.sync_api import Page

    from conftest import LiveServer, Pages

CLOSED = "() => document.querySelector('#status-text')?.textContent.includes('was closed')"


def test_the_host_cancels_a_waiting_table_and_a_visitor_sees_it_closed(
    pages: Pages, live_server: LiveServer, screenshot: Callable[[Page, str], Path]
) -> None:
    seats = [{"type": "human", "name": "Aiko"}, {"type": "open"}]
    created = httpx.post(live_server.base + "/api/tables", json={"seats": seats}, timeout=10)
    table_id = created.json()["table"]["id"]
    token = created.json()["tokens"][0]["token"]
    host = pages.open(f"/table.html?t={table_id}#seat={token}", reduced_motion="reduce")
    visitor = pages.open(f"/table.html?t={table_id}", reduced_motion="reduce")
    visitor.wait_for_selector("#waiting .join-form")
    assert visitor.locator("[data-action='cancel-table']").count() == 0  # not seated

    host.click("#waiting [data-action='cancel-table']")
    assert "Nobody will be able to join" in host.locator("#waiting").inner_text()
    screenshot(host, "cancel-waiting-table")
    assert httpx.get(f"{live_server.base}/api/tables/{table_id}").json()["status"] == "waiting"
    host.click("#waiting [data-action='cancel-table-confirm']")

    for page in (host, visitor):
        page.wait_for_function(CLOSED, timeout=15_000)
        assert page.locator("#waiting").is_hidden()
    assert "cancelled the table" in visitor.locator("#log").inner_text()
    summary = httpx.get(f"{live_server.base}/api/tables/{table_id}", timeout=10).json()
    assert summary["status"] == "expired"

    # the host's lobby no longer offers it among their tables
    host.goto("/")
    host.wait_for_selector("#my-tables li")
    assert host.locator(f"#my-tables li[data-table='{table_id}']").count() == 0
