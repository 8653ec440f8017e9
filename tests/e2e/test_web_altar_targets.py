"""Clickable targets on the drawn altar (`js/render/altar.js`), on engine views.

A target behind a taller column, even a column that is itself a target, must still be
clicked where it glows: a person clicking a candidate cell of a horse (RULES.md §7,
heights l and l+2 side by side) would otherwise hit the taller cell in front and undo
their own choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skytotems import GameOptions, Position, game_from_position, view

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from playwright.sync_api import Page

    from conftest import Pages

# draws the viewer's altar with the targets the decision model gives for building a
# horse, then asks, for each target, which cell the pointer meets at its mark's centre
HITS_JS = """async (view) => {
    const { interaction } = await import('/js/ui/decision.js');
    const { renderAltar } = await import('/js/render/altar.js');
    const model = interaction(view, { totemKind: 'horse' });
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('width', '640');
    svg.setAttribute('height', '480');
    svg.style.cssText = 'position: fixed; left: 0; top: 0; z-index: 9999; background: #fff';
    document.body.appendChild(svg);
    renderAltar(svg, view.altars[view.viewer], { targets: model.cells });
    const hits = {};
    for (const mark of svg.querySelectorAll('.cell-target .mark')) {
        const key = mark.closest('[data-cell]').dataset.cell;
        const r = mark.getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        const owner = hit && hit.closest('[data-cell]');
        hits[key] = owner ? owner.dataset.cell : null;
    }
    return hits;
}"""


def test_a_target_behind_a_taller_target_is_clicked_where_it_glows(
    pages: Pages, screenshot: Callable[[Page, str], Path]
) -> None:
    # red column of 1 at (0,1) behind a blue column of 3 at (1,1): a horse fits on both
    game = game_from_position(
        Position(altars=["0,0 y _/r bbb", "0,0 _"], options=GameOptions(players=2))
    )
    seen = view(game, 0)
    horses = [a["cells"] for a in seen["legal_actions"] if a.get("kind") == "horse"]
    assert horses == [[[0, 1], [1, 1]]]
    page = pages.open("/")
    hits = page.evaluate(HITS_JS, seen)
    screenshot(page, "altar-targets")
    assert hits == {"0,1": "0,1", "1,1": "1,1"}


# draws the viewer's altar with the analysis marks of a replayed decision and says, per
# marked cell, the classes of what is drawn there
MARKS_JS = """async ([view, marks]) => {
    const { renderAltar } = await import('/js/render/altar.js');
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    document.body.appendChild(svg);
    renderAltar(svg, view.altars[view.viewer], { marks: new Map(marks) });
    const drawn = {};
    for (const [key] of marks) {
        const el = svg.querySelector(`[data-cell='${key}']`);
        drawn[key] = el ? [...el.classList].filter((c) => c.startsWith('analysis-')) : null;
    }
    return drawn;
}"""


def test_analysis_marks_show_a_cloud_placed_beside_the_altar(pages: Pages) -> None:
    """The played or best move of an analysed decision may put a cloud where the altar has
    none yet (RULES.md §3, Cloud): its spot is drawn and marked, not left out (the replay's
    analysis showed nothing for such a move)."""
    game = game_from_position(Position(altars=["0,0 r _", "0,0 _"], options=GameOptions()))
    seen = view(game, 0)
    beside = "-1,0"
    assert beside not in {f"{x},{y}" for x, y in seen["altars"][0]["clouds"]}
    page = pages.open("/")
    drawn = page.evaluate(MARKS_JS, [seen, [["0,0", "played"], [beside, "best"]]])
    assert drawn == {"0,0": ["analysis-played"], beside: ["analysis-spot", "analysis-best"]}
