"""Three people at one table, each in a browser of their own (issue 15): every one of
them sees the acting player's altar; the altar also reads as a table and turns. The
test writes the screenshots of the README (artifacts/screenshots/, see docs/web.md)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from webplay import MY_TURN, click_if_asked

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from conftest import LiveServer, Pages

Shot = Callable[["Page", str], Path]
NAMES = ["Aiko", "Bruno", "Chen"]


def test_three_players_each_see_the_acting_altar_and_its_grid(
    pages: Pages, live_server: LiveServer, screenshot: Shot
) -> None:
    created = live_server.post(
        "/api/tables",
        {"options": {"players": 3}, "seats": [{"type": "human", "name": n} for n in NAMES]},
    )
    tid = created["table"]["id"]
    players = [
        pages.open(f"/table.html?t={tid}#seat={seat['token']}", reduced_motion="reduce")
        for seat in created["tokens"]
    ]
    for page in players:
        page.wait_for_selector("#players .player-panel")
    rng = random.Random(3)
    # everyone plays by clicking until a dozen moves are made and someone is placing
    for _ in range(300):
        moves = [int(p.locator("#table-root").get_attribute("data-move") or 0) for p in players]
        placing = players[0].locator("#table-root[data-decision='place_pedestal']").count()
        if min(moves) >= 12 and placing and len(set(moves)) == 1:
            break
        for page in players:
            click_if_asked(page, rng, pause_ms=10)
    else:
        raise AssertionError("the three players did not reach a dozen moves")

    acting = next(i for i, page in enumerate(players) if page.locator(MY_TURN).count())
    for seat, page in enumerate(players):
        # whoever looks, the altar shown is the acting player's
        label = page.locator("#main-altar").get_attribute("aria-label")
        assert label == f"Altar of {NAMES[acting]}", (seat, label)
        screenshot(page, f"three-players-seen-by-{NAMES[seat].lower()}")
        page.set_viewport_size({"width": 390, "height": 844})
        page.locator("#altar-switch").scroll_into_view_if_needed()
        screenshot(page, f"three-players-seen-by-{NAMES[seat].lower()}")
        page.set_viewport_size({"width": 1280, "height": 800})

    page = players[acting]
    # the altar as a table: rows y, columns x, each cell saying what stands there
    page.locator("#altar-grid-box summary").click()
    grid = page.locator("#altar-grid table")
    assert grid.locator("caption").inner_text() == f"Altar of {NAMES[acting]}: rows y, columns x"
    cells = grid.locator("td")
    texts = [cells.nth(i).inner_text() for i in range(cells.count())]
    assert any(text.startswith("height ") for text in texts), texts
    # every cloud cell of the drawing is described: a column's height, or a free cloud
    described = [text for text in texts if text != "—"]
    assert all(text.startswith(("height ", "cloud")) for text in described), texts
    assert len(described) == page.locator("#main-altar .cloud").count()
    page.locator("#altar-grid-box").scroll_into_view_if_needed()
    screenshot(page, "altar-grid")
    page.locator("#altar-grid-box summary").click()
    # a quarter turn: the drawing changes, the cells keep their notation
    cells_before = sorted(
        page.locator("#main-altar .cloud").nth(i).get_attribute("data-cell") or ""
        for i in range(page.locator("#main-altar .cloud").count())
    )
    page.click("#rotate-altar")
    cells_after = sorted(
        page.locator("#main-altar .cloud").nth(i).get_attribute("data-cell") or ""
        for i in range(page.locator("#main-altar .cloud").count())
    )
    assert cells_before == cells_after
    page.locator("#main-altar").scroll_into_view_if_needed()
    screenshot(page, "altar-rotated")
