"""The table option "every turn ends with a confirmation" (RULES.md §11) in the browser:
offered in the lobby's setup form, and its prompt, even with nothing to reveal, waits for
the person's click (the browser never answers it for them); the bot answers its own."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from webplay import MY_TURN, click_until

if TYPE_CHECKING:
    from conftest import LiveServer, Pages

# the page asks this player to end the turn, and ending it is the only thing it can do
BARE_PROMPT_JS = """() => {
    const v = window.skytotems && window.skytotems.screen.view;
    return !!v && !!v.decision && v.decision.kind === 'end_turn'
        && v.legal_actions.length === 1 && v.legal_actions[0].type === 'end_turn';
}"""
MY_NEW_TURN_JS = """() => {
    const v = window.skytotems.screen.view;
    return !!v && !!v.decision && v.decision.kind === 'turn' && v.legal_actions.length > 0;
}"""


def test_the_prompt_waits_for_the_human(pages: Pages, live_server: LiveServer) -> None:
    lobby = pages.open("/", reduced_motion="reduce")
    lobby.wait_for_selector(".seat-row[data-seat='1'] select")
    lobby.fill("#my-name", "Aiko")
    lobby.select_option(".seat-row[data-seat='1'] select", "bot:random")
    lobby.check("#confirm-turns")
    lobby.click("#create-button")
    lobby.wait_for_url("**/table.html?t=*")
    page = lobby
    match = re.search(r"[?&]t=([^&#]+)", page.url)
    assert match
    summary: dict[str, Any] = live_server.get(f"/api/tables/{match.group(1)}")
    assert summary["options"]["confirm_turns"] is True

    assert click_until(page, lambda: page.evaluate(BARE_PROMPT_JS), seed=3, limit=400)
    move = page.locator("#table-root").get_attribute("data-move")
    button = page.locator("[data-action=end_turn]")
    assert button.is_visible()
    assert "end it when you are ready" in page.locator("#table-root").inner_text()
    # a single choice, yet nothing answers it for the player: the table waits
    page.wait_for_timeout(2_000)
    assert page.locator("#table-root").get_attribute("data-move") == move
    assert page.evaluate(BARE_PROMPT_JS)
    assert page.locator(MY_TURN).count() == 1

    button.click()
    # the turn ends on the click; the bot answers its own prompt at once, and play
    # comes back to this player
    page.wait_for_function(MY_NEW_TURN_JS, timeout=30_000)
    assert page.locator("#table-root").get_attribute("data-move") != move
