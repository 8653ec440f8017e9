"""The replay viewer: stepping with the keyboard and the end of the game (issue 15, bugs 3
and 4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from playwright.sync_api import expect

from skytotems import replay

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from conftest import LiveServer, Pages


def counter_move(page: Page) -> int:
    return int(page.locator("#replay-counter").inner_text().split("/")[0])


def open_replay(pages: Pages, tid: str) -> Page:
    page = pages.open(f"/table.html?t={tid}&replay=1", reduced_motion="reduce")
    page.wait_for_function(
        "() => document.getElementById('replay-counter').textContent.includes('/')"
    )
    return page


def test_an_arrow_key_on_the_focused_slider_steps_one_move(
    pages: Pages, finished_bot_table: dict[str, Any]
) -> None:
    page = open_replay(pages, finished_bot_table["id"])
    page.click("#replay-next")
    page.wait_for_function("() => document.getElementById('table-root').dataset.move === '1'")
    page.focus("#replay-slider")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.getElementById('table-root').dataset.move === '2'")
    page.wait_for_timeout(400)  # a second step would have landed by now
    assert counter_move(page) == 2
    assert page.locator("#table-root").get_attribute("data-move") == "2"
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.getElementById('table-root').dataset.move === '1'")
    page.wait_for_timeout(400)
    assert counter_move(page) == 1


def test_the_last_move_of_a_replay_shows_the_winner_and_the_score_sheet(
    pages: Pages, live_server: LiveServer, finished_bot_table: dict[str, Any]
) -> None:
    summary = live_server.get(f"/api/tables/{finished_bot_table['id']}")
    page = open_replay(pages, summary["id"])
    page.focus("#replay-last")
    page.keyboard.press("Enter")
    page.wait_for_selector("#table-root[data-phase='over']")
    page.wait_for_selector("#scoresheet:not([hidden]) table.scoresheet")
    totals = page.locator("#scoresheet table.scoresheet tr.total td")
    shown = [int(totals.nth(i).inner_text()) for i in range(totals.count())]
    assert shown == summary["result"]["totals"]
    # the same sheet as the live table's, statistics included (clouds gained was missing)
    live = pages.open(f"/table.html?t={summary['id']}", reduced_motion="reduce")
    live.wait_for_selector("#scoresheet:not([hidden]) .stats")
    expect(live.locator("#scoresheet .stats")).to_contain_text("Clouds gained")
    expect(page.locator("#scoresheet .stats")).to_contain_text("Clouds gained")
    # the sheet, a modal dialog, took the focus; Escape gives it back to the controls
    expect(page.locator("#close-scoresheet")).to_be_focused()
    page.keyboard.press("Escape")
    assert page.locator("#scoresheet").is_hidden()
    expect(page.locator("#replay-last")).to_be_focused()
    # the status says who won, and its button reopens the sheet
    assert "Game over" in page.locator("#status-text").inner_text()
    page.click("[data-action=scoresheet]")
    assert page.locator("#scoresheet").is_visible()


def test_the_replay_offers_the_record_as_a_download_for_the_analyse_command(
    pages: Pages, finished_bot_table: dict[str, Any]
) -> None:
    """A player can save the game and run `skytotems analyse` on it (docs/analysis.md)."""
    tid = finished_bot_table["id"]
    page = open_replay(pages, tid)
    link = page.get_by_role("link", name="Download the game record (JSON)")
    expect(link).to_be_visible()
    with page.expect_download() as info:
        link.click()
    download = info.value
    assert download.suggested_filename == f"skytotems-{tid}.json"
    path = download.path()
    assert replay(path.read_text("utf-8")).is_over


SLOW_REPLAY_STEPS_JS = """() => {
  const plain = window.fetch;
  window.fetch = (url, options) => String(url).includes('/replay/')
    ? new Promise((resolve) => setTimeout(resolve, 400)).then(() => plain(url, options))
    : plain(url, options);
}"""


def test_quick_clicks_on_a_slow_connection_each_step_one_move(
    pages: Pages, finished_bot_table: dict[str, Any]
) -> None:
    """Five clicks on ▶ land on move 5 even when positions arrive after the next click (a
    loaded CI run stopped at 4: a click read the move shown, not the one asked for)."""
    page = open_replay(pages, finished_bot_table["id"])
    page.evaluate(SLOW_REPLAY_STEPS_JS)
    for _ in range(5):
        page.click("#replay-next")
    page.wait_for_function("() => document.getElementById('table-root').dataset.move === '5'")
    page.wait_for_timeout(1000)  # a step still on its way would land by now
    assert counter_move(page) == 5
    assert page.locator("#table-root").get_attribute("data-move") == "5"
    page.click("#replay-prev")
    page.click("#replay-prev")
    page.wait_for_function("() => document.getElementById('table-root').dataset.move === '3'")
    page.wait_for_timeout(1000)
    assert counter_move(page) == 3
