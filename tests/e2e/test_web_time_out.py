"""A time-out in the browser (issue 13 item 8): the clock of the player out of time shows
0:00 (never a negative time), the status bar says who ran out, and the take-over button
is there, in the status bar; pressing it hands the seat to a bot. (The clocks are
drawn once the players' panels are, after the starting choices.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
from websockets.sync.client import connect

from skytotems.server.process import ServerProcess

if TYPE_CHECKING:
    from playwright.sync_api import Browser

START_TIMEOUT_S = 40.0
HUMAN = {"type": "human"}


def choose_start(base: str, table_id: str, token: str) -> None:
    """Player `token` makes its starting choice (through the WebSocket, as a client would)."""
    url = base.replace("http", "ws") + f"/ws/tables/{table_id}"
    with connect(url, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": token, "seq": None}))
        state = None
        while state is None or state.get("type") != "state":
            state = json.loads(ws.recv(timeout=10))
        action = state["view"]["legal_actions"][0]
        ws.send(json.dumps({"type": "act", "id": 1, "seq": state["seq"], "action": action}))
        while json.loads(ws.recv(timeout=10)).get("ack") != 1:
            pass


def test_a_time_out_is_shown_and_the_take_over_is_offered_in_the_status_bar(
    browser: Browser, tmp_path: Path
) -> None:
    # fast (3 min) scaled to 2.7 s; the take-over bot plays at random
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'skytotems.db'}",
        env={"SKYTOTEMS_CLOCK_SCALE": "0.015", "SKYTOTEMS_TAKEOVER_LEVEL": "random"},
        log_path=tmp_path / "server.log",
        start_timeout=START_TIMEOUT_S,
    ).start()
    context = browser.new_context(base_url=server.base, reduced_motion="reduce")
    errors: list[str] = []
    try:
        body = {"seats": [HUMAN, HUMAN], "clock": "fast"}
        created = httpx.post(server.base + "/api/tables", json=body, timeout=10).json()
        table_id = created["table"]["id"]
        tokens = {t["player"]: t["token"] for t in created["tokens"]}
        choose_start(server.base, table_id, tokens[0])  # player 1 never chooses
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"/table.html?t={table_id}#seat={tokens[0]}")
        page.wait_for_selector("#status-text .time-out-note", timeout=30_000)
        assert "Player 2" in page.locator("#status-text .time-out-note").inner_text()
        button = page.locator('#status-buttons [data-action="takeover-status"]')
        assert button.count() == 1 and button.is_visible()
        button.click()
        page.wait_for_function(
            "() => !document.querySelector('#status-buttons [data-action=\"takeover-status\"]')",
            timeout=20_000,
        )
        summary = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=10).json()
        assert summary["seats"][1]["kind"] == "bot"
        # the bot chose for player 2: the game is on, and the seat's clock stays at 0:00
        clock = page.locator('.clock[data-player="1"]')
        clock.wait_for(timeout=30_000)
        page.wait_for_timeout(1200)  # two ticks of the clocks, well after the time-out
        assert clock.inner_text() == "0:00"
        assert "-" not in page.locator('.clock[data-player="0"]').inner_text()
        assert not errors, errors
    finally:
        context.close()
        server.terminate()
