"""A table closed because its seats were never all taken says so in the browser
(server setting `waiting_expiry_s`; README, "A server that keeps every move")."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import httpx

from skytotems.server.process import UNLIMITED_RATES, ServerProcess

if TYPE_CHECKING:
    from playwright.sync_api import Browser

EXPIRY_HOURS = 3 / 3600  # three seconds
START_TIMEOUT_S = 40.0


def test_a_table_nobody_joined_in_time_tells_its_visitors_it_is_closed(
    browser: Browser, tmp_path: Path
) -> None:
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'skytotems.db'}",
        env={"SKYTOTEMS_WAITING_EXPIRY_HOURS": str(EXPIRY_HOURS), **UNLIMITED_RATES},
        log_path=tmp_path / "server.log",
        start_timeout=START_TIMEOUT_S,
    ).start()
    context = browser.new_context(base_url=server.base)
    errors: list[str] = []
    try:
        seats = [{"type": "human"}, {"type": "open"}]
        created = httpx.post(server.base + "/api/tables", json={"seats": seats}, timeout=10)
        table_id = created.json()["table"]["id"]
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"/table.html?t={table_id}")
        page.wait_for_function(
            "() => document.querySelector('#status-text')?.textContent.includes('was closed')",
            timeout=20_000,
        )
        summary = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=10).json()
        assert summary["status"] == "expired"
        assert page.locator("#start-choice").is_hidden()
        assert page.locator("#waiting").is_hidden()  # no join form for a closed table
        assert not errors, errors
    finally:
        context.close()
        server.terminate()
