"""The post-game analysis in the replay viewer (issue 18, docs/analysis.md): "Analyse"
queues the server's job, its progress shows, then each analysed decision shows the
played and the best move, the loss and its interval, and "Next mistake" goes to the
next marked decision. The server runs the fast level with 2 determinizations."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from playwright.sync_api import expect
from test_web_accessibility import serious_violations

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from playwright.sync_api import Page

    from conftest import LiveServer, Pages

BOTS = [{"type": "bot", "level": "random"}, {"type": "bot", "level": "random"}]


def fresh_finished_game(live_server: LiveServer) -> str:
    """A game nobody has analysed yet (the shared finished game may have been)."""
    tid: str = live_server.post("/api/tables", {"seats": BOTS})["table"]["id"]
    deadline = time.monotonic() + 60
    while live_server.get(f"/api/tables/{tid}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not finish within 60 s"
        time.sleep(0.2)
    return tid


def test_analyse_shows_progress_then_losses_and_jumps_to_the_next_mistake(
    pages: Pages, live_server: LiveServer, screenshot: Callable[[Page, str], Path]
) -> None:
    tid = fresh_finished_game(live_server)
    page = pages.open(f"/table.html?t={tid}&replay=1", reduced_motion="reduce")
    page.wait_for_function("() => document.getElementById('table-root').dataset.move === '0'")
    start = page.get_by_role("button", name="Analyse")
    expect(start).to_be_visible()
    start.click()
    # the job's progress (queued, then n of N decisions) until the result arrives
    expect(page.locator("#analysis-progress-text")).to_contain_text("Waiting")
    page.wait_for_selector("#analysis-panel[data-analysed='true']", timeout=90_000)
    job: dict[str, Any] = live_server.get(f"/api/tables/{tid}/analysis")
    assert job["status"] == "done"
    marked = [d for d in job["result"]["decisions"] if d["mark"]]
    assert marked, "a random bot's game has mistakes"
    # from the start, "Next mistake" goes to the first marked decision
    page.get_by_role("button", name="Next mistake").click()
    first = marked[0]
    page.wait_for_function(
        f"() => document.getElementById('table-root').dataset.move === '{first['move']}'"
    )
    decision = page.locator("#analysis-decision")
    expect(decision).to_have_attribute("data-mark", first["mark"])
    shown = decision.locator(".analysis-loss").get_attribute("data-loss")
    assert shown is not None and float(shown) == first["loss"]
    expect(decision).to_contain_text(f"{first['loss']:.1f}")
    expect(decision).to_contain_text("Mistake" if first["mark"] == "mistake" else "Blunder")
    if first["best"] != first["played"]:
        expect(decision).to_contain_text("Best:")
    # the played and the best move on the altar, where they name cells
    cells = [first[k].get("cell") for k in ("played", "best")]
    for kind, cell in zip(("played", "best"), cells, strict=True):
        if cell is not None and cells[0] != cells[1]:
            selector = f"#main-altar .analysis-{kind}[data-cell='{cell[0]},{cell[1]}']"
            assert page.locator(selector).count() > 0, selector
    # the graph has a line per player; a click on it goes to a decision
    assert page.locator("#analysis-graph polyline").count() == 2
    if len(marked) > 1:
        page.get_by_role("button", name="Next mistake").click()
        page.wait_for_function(
            f"() => document.getElementById('table-root').dataset.move === '{marked[1]['move']}'"
        )
        page.get_by_role("button", name="Previous mistake").click()
        page.wait_for_function(
            f"() => document.getElementById('table-root').dataset.move === '{first['move']}'"
        )
    screenshot(page, "replay-analysis")
    assert serious_violations(page) == []
    # the result is shared: another viewer sees it without asking again
    other = pages.open(f"/table.html?t={tid}&replay=1", reduced_motion="reduce")
    other.wait_for_selector("#analysis-panel[data-analysed='true']")
    expect(other.get_by_role("button", name="Analyse")).to_be_hidden()
