"""A player who only clicks: reads what the page highlights and clicks one of those things.

It never looks at the view or the legal actions; it sees the page as a person does
(glowing targets, the status bar's buttons), so a game it finishes is a game a person
can finish with the mouse alone.
"""

from __future__ import annotations

import random
import time
from collections import deque
from typing import TYPE_CHECKING, TypeVar

from playwright.sync_api import TimeoutError as PlaywrightTimeout

if TYPE_CHECKING:
    from collections.abc import Callable

    from playwright.sync_api import Locator, Page

T = TypeVar("T")

MY_TURN = "#table-root[data-mine='1']"
GAME_OVER = "#table-root[data-phase='over']"


def wait_for_my_turn_or_end(page: Page, timeout_ms: int = 20_000) -> bool:
    """True once the page asks this player something, False once the game is over."""
    page.wait_for_selector(f"{MY_TURN}, {GAME_OVER}", timeout=timeout_ms)
    return page.locator(GAME_OVER).count() == 0


def _visible(page: Page, selector: str) -> list[int]:
    locator = page.locator(selector)
    return [i for i in range(locator.count()) if locator.nth(i).is_visible()]


# cells of the altar are clicked on their top face (".mark"), as a person would
TARGETS = ".cell-target .mark, .slot.target, .bag-item.target, .btn.draw-bag"


def _try_click(locator: Locator) -> bool:
    """Click, unless the element's centre is hidden under another piece (then False)."""
    try:
        locator.click(timeout=2_000)
    except PlaywrightTimeout:
        return False
    return True


def click_once(page: Page, rng: random.Random, build_totems: bool = True) -> str:
    """Make one click of the pending choice; returns what was clicked ("missed" when the
    page changed under the pointer, e.g. the game ended: the caller looks again)."""

    def first_of(selector: str, pick_random: bool = False) -> bool:
        found = _visible(page, selector)
        if pick_random:
            rng.shuffle(found)
        return any(_try_click(page.locator(selector).nth(i)) for i in found[:4])

    # a totem whose cells are chosen, a starting card chosen: confirm it
    for selector in ("[data-action=confirm]", "[data-action=confirm-card]"):
        if first_of(selector):
            return selector
    if first_of("[data-action=pick-card]", pick_random=True):
        return "starting card"
    if first_of("[data-action=reveal]"):
        return "reveal"
    if build_totems and first_of("[data-action^='totem-']", pick_random=True):
        return "totem kind"
    if first_of(".cell-target.candidate .mark", pick_random=True):
        return "totem cell"
    if rng.random() < 0.12 and first_of("[data-action=return]"):
        return "return"
    if first_of(TARGETS, pick_random=True):
        return "target"
    for selector in ("#status-buttons .btn-primary", "[data-action=stop]", "[data-action=pass]"):
        if first_of(selector):
            return selector
    return "missed"


def wait_until_answered(page: Page, move_before: str | None, timeout_s: float = 10.0) -> None:
    """After a click: wait until the table moved on, or the page offers a new click."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        state = page.evaluate(
            "() => { const r = document.getElementById('table-root');"
            " return [r.dataset.move, r.dataset.mine, r.classList.contains('busy')]; }"
        )
        move, mine, busy = state
        if not busy and (move != move_before or mine == "1"):
            return
        page.wait_for_timeout(40)


def click_if_asked(page: Page, rng: random.Random, pause_ms: int = 20) -> None:
    """One click (never building a totem) and its answer when the page asks this player;
    otherwise a short pause while the others play."""
    if page.locator(MY_TURN).count():
        move = page.locator("#table-root").get_attribute("data-move")
        click_once(page, rng, build_totems=False)
        wait_until_answered(page, move)
    else:
        page.wait_for_timeout(pause_ms)


def click_until(
    page: Page, done: Callable[[], T | None], seed: int, limit: int, pause_ms: int = 20
) -> T | None:
    """Click whenever asked (`click_if_asked`) until `done()` gives something truthy, and
    return it; None if `limit` rounds pass first."""
    rng = random.Random(seed)
    for _ in range(limit):
        found = done()
        if found:
            return found
        click_if_asked(page, rng, pause_ms)
    return None


def play_by_clicking(
    page: Page,
    seed: int = 0,
    max_clicks: int = 1_500,
    until_move: int | None = None,
    stall_clicks: int = 60,
) -> int:
    """Click until the game is over (or the move counter reaches `until_move`).

    Fails when `stall_clicks` clicks in a row leave the move counter where it was (the
    page offers nothing that moves the game on), naming the last clicks and the status.
    """
    rng = random.Random(seed)
    clicks = 0
    recent: deque[str] = deque(maxlen=12)
    last_move: str | None = None
    since_progress = 0
    while clicks < max_clicks:
        if not wait_for_my_turn_or_end(page):
            return clicks
        move = page.locator("#table-root").get_attribute("data-move")
        if until_move is not None and move is not None and int(move) >= until_move:
            return clicks
        since_progress = 0 if move != last_move else since_progress + 1
        last_move = move
        if since_progress >= stall_clicks:
            status = page.locator("#status-text").inner_text()
            raise AssertionError(
                f"no progress at move {move} in {stall_clicks} clicks; "
                f"status {status!r}; last clicks {list(recent)}"
            )
        what = click_once(page, rng)
        recent.append(what)
        clicks += 1
        if what == "missed":
            page.wait_for_timeout(100)
        wait_until_answered(page, move)
    raise AssertionError(f"the game did not end within {max_clicks} clicks")
