"""The page's decision model (`js/ui/decision.js`) on real engine views (RULES.md §3).

The model is what turns the server's legal actions into clickable targets and buttons;
these tests run it in the browser on views the engine produced.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from skytotems import Game, GameOptions, view

if TYPE_CHECKING:
    from conftest import Pages

MODEL_JS = """async (view) => {
    const { interaction } = await import('/js/ui/decision.js');
    const model = interaction(view);
    return {
        prompt: model.prompt.key,
        cells: model.cells.size,
        buttons: model.buttons.map((b) => [b.dataAction, Boolean(b.primary)]),
    };
}"""


def pool_view(placeable: bool) -> dict[str, Any]:
    """A view at a pedestal-placing decision whose first pool pedestal can (or cannot)
    go on some cell, found by seeded random play of the dragon's set."""
    for seed in range(500):
        game = Game(GameOptions(players=2, totems="dragon"), seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            if game.decision.kind == "place_pedestal":
                seen = view(game, legal[0].seat)
                first = seen["decision"]["context"]["pool"][0]
                can_place = any(
                    a["type"] == "place_pedestal" and a["design"] == first
                    for a in seen["legal_actions"]
                )
                if can_place == placeable:
                    return seen
            game.apply(rng.choice(legal))
    raise AssertionError("no such position in 500 seeded games")


def test_a_pedestal_no_cell_can_take_offers_its_return_as_the_main_button(
    pages: Pages,
) -> None:
    """§3: a pedestal of the pool is placed or returned; when no cell takes it, the page
    says so and makes the return the primary button (a click-only player is never stuck)."""
    page = pages.open("/")
    model = page.evaluate(MODEL_JS, pool_view(placeable=False))
    assert model["prompt"] == "prompt.place_pedestal_none"
    assert model["cells"] == 0
    assert ["return", True] in model["buttons"]


def test_a_placeable_pedestal_glows_on_its_cells_and_the_return_stays_secondary(
    pages: Pages,
) -> None:
    page = pages.open("/")
    model = page.evaluate(MODEL_JS, pool_view(placeable=True))
    assert model["prompt"] == "prompt.place_pedestal"
    assert model["cells"] > 0
    assert ["return", False] in model["buttons"]
