"""The puzzles page in Chromium (issue 18): a puzzle solved by clicking its proved line on
the altar, the server's verdict shown, the solved mark kept in the browser across a
reload; a losing first move is called wrong, and the hint names a move."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from playwright.sync_api import expect
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


def press(page: Page, selector: str, keyboard: bool) -> None:
    """Press what `selector` finds: a click, or the focus and Enter as on a keyboard."""
    if keyboard:
        page.locator(selector).first.focus()
        page.keyboard.press("Enter")
    else:
        page.locator(selector).first.click()


def click_cell(page: Page, c: int, keyboard: bool = False) -> None:
    target = f'#puzzle-altar .cell-target[data-cell="{cell_key(c)}"]'
    press(page, target if keyboard else f"{target} .mark", keyboard)


def select_design(page: Page, design: int, keyboard: bool = False) -> None:
    choice = f'[data-action=pool-design][data-design="{DESIGN_NAMES[design]}"]'
    if page.locator(choice).count():
        press(page, choice, keyboard)


def play(page: Page, action: Any, keyboard: bool = False) -> None:
    """Make `action` with the mouse (or the keyboard), as a player would."""
    kind = action.type

    def hit(selector: str) -> None:
        press(page, selector, keyboard)

    if kind == "take_slot":
        hit(f"[data-action=slot][data-slot='{action.slot}']")
    elif kind == "place_pedestal":
        select_design(page, action.design, keyboard)
        click_cell(page, action.cell, keyboard)
    elif kind == "return_pedestal":
        select_design(page, action.design, keyboard)
        hit("[data-action=return]")
    elif kind == "build_totem":
        hit(f"[data-action=totem-{TOTEM_NAMES[action.kind]}]")
        for c in action.cells:
            if page.locator("[data-action=confirm]").count():
                break
            click_cell(page, c, keyboard)
        hit("[data-action=confirm]")
    elif kind in ("place_cloud", "choose_cat", "wolf_take"):
        click_cell(page, action.cell, keyboard)
    elif kind == "reveal":
        hit(f"[data-action=reveal][data-card='{action.card}']")
    elif kind == "choose_design":
        hit(f"[data-action=choose-design][data-design='{DESIGN_NAMES[action.design]}']")
    elif kind == "wolf_stop":
        hit("[data-action=stop]")
    elif kind == "end_turn":
        hit("[data-action=end_turn]")
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
    value = puzzle.solution.value
    points = f"{value} point" if value == 1 else f"{value} points"
    assert f"You scored {points}," in page.locator("#puzzle-feedback").inner_text()
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


FOCUSED = """() => {
  const active = document.activeElement;
  return {
    id: active.id,
    inPuzzle: Boolean(active.closest('#puzzle')),
    target: active.matches('.cell-target, .pool-item, .slot.target, #puzzle-actions .btn'),
  };
}"""


def test_the_keyboard_reaches_the_puzzle_at_once_and_keeps_its_place_after_a_move(
    pages: Pages,
) -> None:
    """A skip link passes the header and the list of 45 puzzles (53 Tabs before the
    first target); after each move the focus goes to the next target (it fell to the
    page's body), and to the verdict once the puzzle is solved."""
    puzzle = pick()
    page = open_puzzle(pages, puzzle)
    page.keyboard.press("Tab")
    expect(page.locator(".skip-link")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#puzzle-title")).to_be_focused()
    for _ in range(8):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED)["target"]:
            break
    else:
        raise AssertionError("no target of the puzzle within 8 Tabs of the skip link")
    line = puzzle.solution.line
    for i, action in enumerate(line):
        play(page, action, keyboard=True)
        page.wait_for_selector(f"#puzzle[data-moves='{i + 1}']")
        focused = page.evaluate(FOCUSED)
        if i < len(line) - 1:
            assert focused["inPuzzle"] and focused["target"], (i, action, focused)
    expect(page.locator("#puzzle-feedback")).to_have_attribute("data-state", "solved")
    assert focused["id"] == "puzzle-feedback", focused


def test_the_hint_says_a_return_in_the_words_of_its_button(pages: Pages) -> None:
    """The hint said "trade the blue pedestal for a cloud" beside "Return blue for a cloud"."""
    puzzle = next(p for p in shipped() if p.solution.line[0].type == "return_pedestal")
    page = open_puzzle(pages, puzzle)
    button = page.locator("[data-action=return]").first.inner_text().strip()
    page.locator("[data-action=hint]").click()
    page.wait_for_selector("#puzzle-feedback[data-state='hint']")
    hint = page.locator("#puzzle-feedback").inner_text()
    assert f"Hint: {button[0].lower()}{button[1:]}" == hint.strip()


HINT_JS = """([id, moves]) => fetch(`/api/puzzles/${id}/hint`, {method: 'POST',
    headers: {'content-type': 'application/json'}, body: JSON.stringify({moves})})
    .then((r) => r.json())"""


def test_a_hint_outlines_its_cells_on_the_altar(pages: Pages) -> None:
    """A trial: hints said "place the purple pedestal on 1,1" on an altar that shows no
    coordinates. The hinted cells are outlined (as the analysis outlines a best move)."""
    puzzle = pick()
    line = puzzle.solution.line
    at = next(i for i, a in enumerate(line) if getattr(a, "cell", None) is not None)
    page = open_puzzle(pages, puzzle)
    for action in line[:at]:
        play(page, action)
        page.wait_for_selector("#puzzle-feedback[data-state='right']")
    assert page.locator("#puzzle-altar .analysis-best").count() == 0
    page.locator("[data-action=hint]").click()
    page.wait_for_selector("#puzzle-feedback[data-state='hint']")
    hinted = page.evaluate(HINT_JS, [puzzle.id, [a.to_json() for a in line[:at]]])["action"]
    cells = hinted.get("cells") or [hinted["cell"]]
    outlined = page.eval_on_selector_all(
        "#puzzle-altar .analysis-best", "els => [...new Set(els.map((e) => e.dataset.cell))]"
    )
    assert sorted(outlined) == sorted(f"{x},{y}" for x, y in cells)
    assert "outlined" in page.locator("#puzzle-feedback").inner_text()
    # the outline goes with the next move
    play(page, line[at])
    page.wait_for_selector(
        "#puzzle-feedback[data-state='right'], #puzzle-feedback[data-state='solved']"
    )
    assert page.locator("#puzzle-altar .analysis-best").count() == 0


def test_on_a_phone_the_puzzle_starts_on_the_first_screen_and_names_fit(pages: Pages) -> None:
    """A trial: on a phone the 45 puzzles' list put the puzzle 1,741 px down; in
    Portuguese the list's long names stuck out of its card."""
    page = pages.open("/puzzles.html?lang=pt", width=390, height=844)
    page.wait_for_selector("body[data-ready='true']")
    top = page.evaluate("() => document.getElementById('puzzle').getBoundingClientRect().top")
    assert top < 844, top
    overflow = page.evaluate(
        """() => { const card = document.querySelector('.puzzle-list').getBoundingClientRect();
        return [...document.querySelectorAll('.puzzle-item')]
          .map((b) => b.getBoundingClientRect().right - card.right).filter((d) => d > 0.5); }"""
    )
    assert overflow == [], overflow


def test_on_a_phone_the_list_box_fades_at_its_foot_while_rows_are_hidden_below(
    pages: Pages,
) -> None:
    """A trial: the phone's scroll box cut a row mid-text with no sign that it scrolls."""
    fade = "() => getComputedStyle(document.getElementById('puzzle-list')).maskImage"
    phone = pages.open("/puzzles.html", width=390, height=844)
    phone.wait_for_selector("body[data-ready='true']")
    assert phone.get_attribute("#puzzle-list", "data-more") == "true"
    assert "gradient" in phone.evaluate(fade)
    phone.evaluate(
        "() => { const l = document.getElementById('puzzle-list'); l.scrollTop = l.scrollHeight; }"
    )
    phone.wait_for_selector("#puzzle-list[data-more='false']")  # the last row shows whole
    assert phone.evaluate(fade) == "none"
    # a link to a puzzle far down the list shows its row in the box
    linked = pages.open("/puzzles.html?p=s9m21", width=390, height=844)
    linked.wait_for_selector("body[data-ready='true']")
    inside = linked.evaluate(
        """() => { const box = document.getElementById('puzzle-list').getBoundingClientRect();
        const row = document.querySelector('.puzzle-item[aria-current="true"]')
            .getBoundingClientRect();
        return row.top >= box.top - 1 && row.bottom <= box.bottom + 1; }"""
    )
    assert inside, "the linked puzzle's row is scrolled into the list's box"
    laptop = pages.open("/puzzles.html", width=1280, height=800)
    laptop.wait_for_selector("body[data-ready='true']")
    assert laptop.get_attribute("#puzzle-list", "data-more") == "false"
    assert laptop.evaluate(fade) == "none"


EMBLEMS_JS = """() => [...document.querySelectorAll('#puzzle-altar .totem')].map((g) => {
    const disc = g.querySelector('.totem-disc').getBoundingClientRect();
    const badge = g.querySelector('.totem-points').getBoundingClientRect();
    return [[disc.left, disc.top, disc.right, disc.bottom],
            [badge.left, badge.top, badge.right, badge.bottom]]; })"""


def overlap(a: list[float], b: list[float]) -> float:
    """The area two boxes share."""
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return max(0.0, width) * max(0.0, height)


def test_totem_emblems_and_their_points_do_not_cover_each_other(pages: Pages) -> None:
    """A trial: after puzzle 4's line, the horse's emblem and its "8" sat half under the
    wolf's: a later emblem that would cover one stands on a taller pole."""
    puzzle = shipped()[3]
    page = open_puzzle(pages, puzzle)
    for action in puzzle.solution.line:
        play(page, action)
        page.wait_for_selector(
            "#puzzle-feedback[data-state='right'], #puzzle-feedback[data-state='solved']"
        )
    emblems = page.evaluate(EMBLEMS_JS)
    assert len(emblems) >= 2
    covered = [
        (i, j)
        for i in range(len(emblems))
        for j in range(i + 1, len(emblems))
        for a in emblems[i]
        for b in emblems[j]
        if overlap(a, b) > 4.0
    ]
    assert covered == [], covered


def test_the_list_says_what_each_puzzle_asks(pages: Pages) -> None:
    """A trial: the list said only "Puzzle 4 · medium"; which asked for two totems or a
    reveal showed only once the puzzle was open."""
    asks = {"points": "most points", "two_totems": "two totems", "reveal": "reveal a goal"}
    page = pages.open("/puzzles.html")
    page.wait_for_selector("body[data-ready='true']")
    for puzzle in shipped():
        item = page.locator(f".puzzle-item[data-puzzle='{puzzle.id}']")
        expect(item).to_contain_text(f"· {asks[puzzle.question]}")
