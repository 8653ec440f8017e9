"""The post-game analysis in the replay viewer (issue 18, docs/analysis.md): "Analyse"
queues the server's job, its progress shows, then each analysed decision shows the
played and the best move, the loss and its interval, and "Next mistake" goes to the
next marked decision. The server runs the fast level with 2 determinizations."""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any

from playwright.sync_api import expect
from test_web_accessibility import serious_violations

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from playwright.sync_api import Page, Route

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
    # a trial: the replay's moves and the analysis's decisions were counted without a word
    moves = page.locator("#replay-slider").get_attribute("max")
    decisions = len(job["result"]["decisions"])
    # (a random bots' game may have no forced move at all: a CI run found 92 of 92)
    assert moves is not None and decisions <= int(moves)
    expect(page.locator("#analysis-covered")).to_have_text(
        f"{decisions} of the game's {moves} moves had a choice and were analysed"
        " (forced moves cost nothing)."
    )
    # from the start, "Next mistake" goes to the first marked decision after it
    ahead = jump_targets(job)
    assert ahead, "a random bot's game has mistakes after its first decision"
    page.get_by_role("button", name="Next mistake").click()
    first = ahead[0]
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
    if len(ahead) > 1:
        page.get_by_role("button", name="Next mistake").click()
        page.wait_for_function(
            f"() => document.getElementById('table-root').dataset.move === '{ahead[1]['move']}'"
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


def analysed(live_server: LiveServer, tid: str) -> dict[str, Any]:
    """The finished analysis of table `tid` (asked for now, or already there)."""
    live_server.post(f"/api/tables/{tid}/analysis", {})
    deadline = time.monotonic() + 90
    while (job := live_server.get(f"/api/tables/{tid}/analysis"))["status"] != "done":
        assert job["status"] != "failed", job
        assert time.monotonic() < deadline, "the analysis did not finish within 90 s"
        time.sleep(0.5)
    return job


def jump_targets(job: dict[str, Any]) -> list[dict[str, Any]]:
    """The marked decisions "Next mistake" visits from the replay's start, in order: a
    marked decision at move 0 (a starting card) is the one already shown, so the first
    jump goes past it (a CI run waited for move 0 while the page rightly went on)."""
    return [d for d in job["result"]["decisions"] if d["mark"] and d["move"] > 0]


def graph_font_px(page: Page) -> float:
    """The smallest label of the graph's scales as drawn, in screen pixels (the graph
    was drawn in a fixed box scaled to the panel: about 7 px on a laptop's rail)."""
    sizes: list[float] = page.eval_on_selector_all(
        "#analysis-graph .analysis-scale text",
        "els => els.map((e) => { const m = e.getScreenCTM();"
        " return Math.hypot(m.a, m.b) * parseFloat(getComputedStyle(e).fontSize); })",
    )
    assert sizes, "the graph has labels"
    return min(sizes)


def shown_move(page: Page) -> int:
    return int(page.locator("#table-root").get_attribute("data-move") or "-1")


def test_the_graph_has_scales_a_legend_in_the_players_colours_and_arrow_keys(
    pages: Pages, live_server: LiveServer, finished_bot_table: dict[str, Any]
) -> None:
    """The graph had no scale and no legend: which line is whose was not said."""
    tid = finished_bot_table["id"]
    job = analysed(live_server, tid)
    moves = sorted({d["move"] for d in job["result"]["decisions"]})
    page = pages.open(f"/table.html?t={tid}&replay=1", reduced_motion="reduce")
    page.wait_for_selector("#analysis-panel[data-analysed='true']")
    graph = page.locator("#analysis-graph")
    # the scales: a score at the bottom and the top, the first and the last move
    labels = graph.locator(".analysis-scale text").evaluate_all("ts => ts.map(t => t.textContent)")
    values = [d["expected"] - d["loss"] for d in job["result"]["decisions"]]
    assert str(math.floor(min(values))) in labels and str(math.ceil(max(values))) in labels
    assert str(moves[0]) in labels and str(moves[-1]) in labels
    assert "Move" in labels and "Score" in labels
    assert graph_font_px(page) >= 10.5  # readable on the laptop's rail too
    # the legend: each player's name in the colour of their line
    names = page.evaluate("() => [0, 1].map((s) => window.skytotems.screen.seatName(s))")
    assert all(names)
    legend = page.locator("#analysis-graph-legend li")
    expect(legend).to_have_count(2)
    for seat in range(2):
        item = legend.nth(seat)
        expect(item).to_have_text(names[seat])
        swatch = item.locator(".analysis-swatch").evaluate(
            "e => getComputedStyle(e).backgroundColor"
        )
        line = graph.locator(f".analysis-line.seat-{seat}").evaluate(
            "e => getComputedStyle(e).stroke"
        )
        assert swatch == line, (seat, swatch, line)
    # the arrow keys on the focused graph go from analysed decision to analysed decision
    graph.focus()
    page.keyboard.press("Home")
    page.wait_for_function(
        f"() => document.getElementById('table-root').dataset.move === '{moves[0]}'"
    )
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        f"() => document.getElementById('table-root').dataset.move === '{moves[1]}'"
    )
    expect(graph).to_have_attribute("aria-valuenow", str(moves[1]))
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(
        f"() => document.getElementById('table-root').dataset.move === '{moves[0]}'"
    )
    page.wait_for_timeout(300)  # the replay's own arrow key would have stepped one move
    assert shown_move(page) == moves[0]
    expect(graph).to_be_focused()
    assert serious_violations(page) == []


def test_losses_are_written_in_the_ui_languages_numbers(
    pages: Pages, live_server: LiveServer, finished_bot_table: dict[str, Any]
) -> None:
    """Portuguese showed a loss as "113.8": it writes "113,8" (Japanese keeps "113.8")."""
    tid = finished_bot_table["id"]
    job = analysed(live_server, tid)
    first = jump_targets(job)[0]
    for lang, point in (("pt", ","), ("ja", ".")):
        page = pages.open(f"/table.html?t={tid}&replay=1&lang={lang}", reduced_motion="reduce")
        page.wait_for_selector("#analysis-panel[data-analysed='true']")
        page.locator("#analysis-next-mistake").click()
        page.wait_for_function(
            f"() => document.getElementById('table-root').dataset.move === '{first['move']}'"
        )
        loss = f"{first['loss']:.1f}".replace(".", point)
        expect(page.locator("#analysis-decision .analysis-loss")).to_contain_text(loss)
        totals = page.locator("#analysis-totals").inner_text()
        for seat, lost in job["result"]["total_loss"].items():
            assert f"{lost:.1f}".replace(".", point) in totals, (lang, seat, totals)


def test_next_mistake_on_a_phone_shows_the_altar_with_its_moves(
    pages: Pages, live_server: LiveServer, finished_bot_table: dict[str, Any]
) -> None:
    """A trial: at 390x844 "Next mistake" left the page at the panel, the altar with
    the played and best moves 350 px above the top of the screen."""
    tid = finished_bot_table["id"]
    job = analysed(live_server, tid)
    first = jump_targets(job)[0]
    page = pages.open(f"/table.html?t={tid}&replay=1", width=390, height=844)
    page.wait_for_selector("#analysis-panel[data-analysed='true']")
    page.locator("#analysis-next-mistake").scroll_into_view_if_needed()
    page.locator("#analysis-next-mistake").click()
    page.wait_for_function(
        f"() => document.getElementById('table-root').dataset.move === '{first['move']}'"
    )
    box = """() => { const r = document.getElementById('altar-scroll').getBoundingClientRect();
        return [Math.round(r.top), Math.round(r.bottom)]; }"""
    settled = None
    for _ in range(30):  # (a smooth scroll: measured once it has stopped)
        page.wait_for_timeout(100)
        now = page.evaluate(box)
        if now == settled:
            break
        settled = now
    assert settled is not None and settled[0] >= 0 and settled[1] <= 844, settled
    assert graph_font_px(page) >= 10.5
    # and its interval is written to the hundredth (a marked loss's lower end is above 0)
    low = f"{first['loss_ci95'][0]:.2f}"
    expect(page.locator("#analysis-decision .analysis-loss")).to_contain_text(low)


def test_the_jumps_can_visit_one_players_mistakes_and_a_player_sees_their_own_first(
    pages: Pages, live_server: LiveServer, finished_bot_table: dict[str, Any]
) -> None:
    """A trial: "Next mistake" went through every player's mistakes in turn, while a
    player wanted to see their own."""
    tid = finished_bot_table["id"]
    job = analysed(live_server, tid)
    marked = jump_targets(job)
    assert marked, "a random bot's game has mistakes"
    seat = marked[0]["seat"]
    mine = [d["move"] for d in marked if d["seat"] == seat]
    page = pages.open(f"/table.html?t={tid}&replay=1", reduced_motion="reduce")
    page.wait_for_selector("#analysis-panel[data-analysed='true']")
    choice = page.get_by_label("Mistakes of")
    expect(choice).to_have_value("")  # a spectator: everyone's
    next_mistake = page.get_by_role("button", name="Next mistake")
    if len(mine) == len(marked):  # the other player made none (a CI run's game): no jump
        choice.select_option(str(1 - seat))
        expect(next_mistake).to_be_disabled()
    choice.select_option(str(seat))
    for move in mine:
        next_mistake.click()
        page.wait_for_function(
            f"() => document.getElementById('table-root').dataset.move === '{move}'"
        )
    # the other player's are not visited (between these or after: the checks above fail)
    expect(next_mistake).to_be_disabled()
    # a browser that played a seat of this table sees that seat's mistakes first
    page.evaluate(
        "([tid, seat]) => localStorage.setItem('skytotems.seats',"
        " JSON.stringify({[tid]: {player: seat, token: 'x', at: Date.now()}}))",
        [tid, seat],
    )
    page.reload()
    page.wait_for_selector("#analysis-panel[data-analysed='true']")
    expect(page.get_by_label("Mistakes of")).to_have_value(str(seat))


def test_the_depth_of_the_analysis_is_chosen_before_asking_and_each_is_kept(
    pages: Pages, live_server: LiveServer
) -> None:
    """A trial: "Analyse" always asked for the server's default level; the deeper ones
    the API offers could not be had from the page."""
    tid = fresh_finished_game(live_server)
    page = pages.open(f"/table.html?t={tid}&replay=1", reduced_motion="reduce")
    page.wait_for_function("() => document.getElementById('table-root').dataset.move === '0'")
    depth = page.get_by_label("Depth")
    expect(depth).to_have_value("fast")  # the server's default (this server's: fast)
    depth.select_option("greedy")
    page.get_by_role("button", name="Analyse").click()
    page.wait_for_selector("#analysis-panel[data-analysed='true']", timeout=180_000)
    assert live_server.get(f"/api/tables/{tid}/analysis?level=greedy")["status"] == "done"
    assert live_server.get(f"/api/tables/{tid}/analysis?level=fast")["status"] == "none"
    # back to the quick level, which nobody asked for: its button, no result
    depth.select_option("fast")
    expect(page.get_by_role("button", name="Analyse")).to_be_visible()
    expect(page.locator("#analysis-result")).to_be_hidden()
    # and to the standard one again: its result, without asking twice
    depth.select_option("greedy")
    page.wait_for_selector("#analysis-panel[data-analysed='true']")
    expect(page.get_by_role("button", name="Analyse")).to_be_hidden()
    # a reload shows the result there is, not the empty default depth (a trial: the
    # standard result seemed lost after a reload)
    page.reload()
    page.wait_for_selector("#analysis-panel[data-analysed='true']")
    expect(page.get_by_label("Depth")).to_have_value("greedy")


def test_a_depth_chosen_while_the_page_still_loads_is_the_one_analysed(
    pages: Pages, live_server: LiveServer
) -> None:
    """A CI run: the depth was changed while the page's first look (at the server's
    default, then at every other depth) was still answering; that late answer put the
    default back, and "Analyse" asked for it instead of the chosen depth."""
    tid = fresh_finished_game(live_server)
    page = pages.open(f"/table.html?t={tid}&replay=1", reduced_motion="reduce")
    held: list[Route] = []

    def hold_the_first_look(route: Route) -> None:
        if "level=" in route.request.url:
            route.continue_()
        else:
            held.append(route)  # the look at the default depth waits

    page.route(f"**/api/tables/{tid}/analysis*", hold_the_first_look)
    page.reload()
    page.wait_for_function("() => document.getElementById('table-root').dataset.move === '0'")
    deadline = time.monotonic() + 15
    while not held:
        assert time.monotonic() < deadline, "the page did not look at its analysis"
        page.wait_for_timeout(50)
    # until the page knows the depth it shows, "Analyse" cannot ask for another one (a
    # trial: pressed then, it asked for the server's default while "quick" was shown)
    expect(page.get_by_role("button", name="Analyse")).to_be_disabled()
    page.get_by_label("Depth").select_option("greedy")
    expect(page.get_by_role("button", name="Analyse")).to_be_enabled()
    held.pop().continue_()  # the first look answers late: nobody asked at the default
    page.wait_for_timeout(500)  # its loop over the other depths answers too
    expect(page.get_by_label("Depth")).to_have_value("greedy")
    page.get_by_role("button", name="Analyse").click()
    page.wait_for_selector("#analysis-panel[data-analysed='true']", timeout=180_000)
    assert live_server.get(f"/api/tables/{tid}/analysis?level=greedy")["status"] == "done"
    assert live_server.get(f"/api/tables/{tid}/analysis?level=fast")["status"] == "none"
