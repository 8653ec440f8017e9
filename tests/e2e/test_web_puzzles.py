"""The puzzles page in Chromium (issue 18): a puzzle solved by clicking its proved line on
the altar, the server's verdict shown, the solved mark kept in the browser across a
reload; a losing first move is called wrong, and the hint names a move."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from test_web_accessibility import serious_violations

from skytotems.puzzles.model import Puzzle, shipped
from skytotems.rules.grid import xy
from skytotems.rules.pieces import DESIGN_NAMES, TOTEM_NAMES

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from playwright.sync_api import Page

    from .conftest import Pages


EMPTY_FEEDBACK = "document.querySelector('#puzzle-feedback').dataset.state === ''"


def cell_key(c: int) -> str:
    x, y = xy(c)
    return f"{x},{y}"


def click_cell(page: Page, c: int) -> None:
    page.locator(f'#puzzle-altar .cell-target[data-cell="{cell_key(c)}"] .mark').click()


def select_design(page: Page, design: int) -> None:
    choice = page.locator(f'[data-action=pool-design][data-design="{DESIGN_NAMES[design]}"]')
    if choice.count():
        choice.first.click()


def play(page: Page, action: Any) -> None:
    """Make `action` with the mouse, as a player would."""
    kind = action.type
    if kind == "take_slot":
        page.locator(f"[data-action=slot][data-slot='{action.slot}']").click()
    elif kind == "place_pedestal":
        select_design(page, action.design)
        click_cell(page, action.cell)
    elif kind == "return_pedestal":
        select_design(page, action.design)
        page.locator("[data-action=return]").click()
    elif kind == "build_totem":
        page.locator(f"[data-action=totem-{TOTEM_NAMES[action.kind]}]").click()
        for c in action.cells:
            if page.locator("[data-action=confirm]").count():
                break
            click_cell(page, c)
        page.locator("[data-action=confirm]").click()
    elif kind in ("place_cloud", "choose_cat", "wolf_take"):
        click_cell(page, action.cell)
    elif kind == "reveal":
        page.locator(f"[data-action=reveal][data-card='{action.card}']").click()
    elif kind == "choose_design":
        page.locator(
            f"[data-action=choose-design][data-design='{DESIGN_NAMES[action.design]}']"
        ).click()
    elif kind == "wolf_stop":
        page.locator("[data-action=stop]").click()
    elif kind == "end_turn":
        page.locator("[data-action=end_turn]").click()
    else:  # pragma: no cover - a puzzle line holds only these
        raise AssertionError(f"no click for {action}")


def pick() -> Puzzle:
    """A shipped puzzle whose line uses a slot, so both the board and the altar are clicked."""
    puzzles = shipped()
    return next((p for p in puzzles if p.solution.line[0].type == "take_slot"), puzzles[0])


def open_puzzle(pages: Pages, puzzle: Puzzle) -> Page:
    page = pages.open(f"/puzzles.html?p={puzzle.id}")
    page.wait_for_selector("body[data-ready='true']")
    return page


def test_a_puzzle_is_solved_on_the_altar_and_remembered(
    pages: Pages, screenshot: Callable[[Page, str], Path]
) -> None:
    puzzle = pick()
    page = open_puzzle(pages, puzzle)
    screenshot(page, "puzzle")
    for i, action in enumerate(puzzle.solution.line):
        play(page, action)
        state = "solved" if i == len(puzzle.solution.line) - 1 else "right"
        page.wait_for_selector(f"#puzzle-feedback[data-state='{state}']")
    assert str(puzzle.solution.value) in page.locator("#puzzle-feedback").inner_text()
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    mark = page.locator(f".puzzle-item[data-puzzle='{puzzle.id}']")
    assert mark.get_attribute("data-solved") == "true"


def test_a_losing_first_move_is_wrong_and_a_hint_names_a_move(pages: Pages) -> None:
    puzzle = pick()
    page = open_puzzle(pages, puzzle)
    page.locator("[data-action=hint]").click()
    page.wait_for_selector("#puzzle-feedback[data-state='hint']")
    assert page.locator("#puzzle-feedback").inner_text().strip() != ""
    slots = page.locator("[data-action=slot]:not([disabled])")
    best = puzzle.solution.line[0]
    for i in range(slots.count()):
        slot = slots.nth(i).get_attribute("data-slot")
        if best.type == "take_slot" and str(best.slot) == slot:
            continue
        slots.nth(i).click()
        page.wait_for_selector(
            "#puzzle-feedback[data-state='wrong'], #puzzle-feedback[data-state='right']"
        )
        if page.locator("#puzzle-feedback[data-state='wrong']").count():
            break
        page.locator("[data-action=undo]").click()
        page.wait_for_function(EMPTY_FEEDBACK)
    else:
        raise AssertionError("no slot loses the optimum in this puzzle")
    page.locator("[data-action=reset]").click()
    page.wait_for_function(EMPTY_FEEDBACK)


def named_targets(page: Page) -> list[tuple[str, str, str]]:
    """Each altar target's cell, accessible name and tooltip."""
    targets: list[tuple[str, str, str]] = page.eval_on_selector_all(
        "#puzzle-altar .cell-target",
        "els => els.map(e => [e.dataset.cell, e.getAttribute('aria-label') || '', e.dataset.tip])",
    )
    return targets


def test_the_altar_targets_are_named(pages: Pages) -> None:
    """The cloud cells after "Return ... for a cloud" are buttons named like the table's
    (they had no name and an empty tooltip)."""
    puzzle = next(
        p
        for p in shipped()
        if p.solution.line[0].type == "place_pedestal"
        and any(a.type == "return_pedestal" for a in p.solution.line)
    )
    page = open_puzzle(pages, puzzle)
    first = named_targets(page)  # the pedestal's cells
    assert first, "a pedestal to place: its cells are targets"
    for cell, label, tip in first:
        assert re.fullmatch(rf"Place \w+ on {cell}, height \d to \d", label), (cell, label)
        assert tip.startswith("Place the "), (cell, tip)
    returned = next(i for i, a in enumerate(puzzle.solution.line) if a.type == "return_pedestal")
    for i, action in enumerate(puzzle.solution.line[: returned + 1]):
        play(page, action)
        page.wait_for_selector(f"#puzzle[data-moves='{i + 1}']")
    page.wait_for_selector("#puzzle-altar .cell-target.style-cloud")
    targets = named_targets(page)
    for cell, label, tip in targets:
        assert label == f"Place the cloud on {cell}", (cell, label)
        assert tip == "Place the cloud here", (cell, tip)


def test_axe_finds_nothing_serious_on_a_puzzle_with_targets(pages: Pages) -> None:
    """The altar holds buttons, so it is a group, not an image (axe: nested-interactive)."""
    puzzle = next(p for p in shipped() if p.solution.line[0].type == "place_pedestal")
    page = open_puzzle(pages, puzzle)
    page.wait_for_selector("#puzzle-altar .cell-target")
    assert serious_violations(page) == []
    play(page, puzzle.solution.line[0])
    page.wait_for_selector("#puzzle[data-moves='1']")
    assert serious_violations(page) == []
