"""A bot decides from its view alone: hidden cards and draw order change nothing."""

from __future__ import annotations

import pytest

from skytotems import Game, view
from skytotems.bots import make_bot
from skytotems.bots.base import determinize
from skytotems.rules.rng import Rng

from .bot_helpers import positions, tiny_mcts


def hide_differently(game: Game, seat: int) -> Game:
    """The same game as `seat` sees it, with other seats' face-down cards swapped for
    cards from the box and another order of future draws."""
    other = game.copy()
    other.rng = Rng(game.rng.state ^ 0x5DEECE66D)
    box = list(other.box)
    for s in range(other.n):
        if s == seat or other.options.solo:
            continue
        for k, card in enumerate(other.goals[s]):
            if box:
                replacement = box.pop()
                box.append(card)
                other.goals[s][k] = replacement
    other.box = box
    other._reveal_cache = {}
    other._legal = {}
    other._decision = None
    return other


def sample_positions() -> list[tuple[Game, int]]:
    picked = []
    for i, (game, seat) in enumerate(positions(12, seed=3)):
        if (
            game.phase == "play"
            and not game.options.solo
            and i % 9 == 0
            and len(game.legal_actions(seat)) > 1
        ):
            picked.append((game.copy(), seat))
    return picked[:40]


@pytest.mark.parametrize(
    "name", ["greedy", "mcts-tiny", "mcts-tiny-estimate", "mcts-tiny-expert", "random"]
)
def test_decision_ignores_other_seats_cards_and_the_bag_order(name: str) -> None:
    changed_hidden = 0
    for game, seat in sample_positions():
        twin = hide_differently(game, seat)
        if any(twin.goals[s] != game.goals[s] for s in range(game.n)):
            changed_hidden += 1
        first, second = view(game, seat), view(twin, seat)
        assert first == second
        bots = [
            tiny_mcts(name, 9) if name.startswith("mcts") else make_bot(name, 9) for _ in range(2)
        ]
        a = bots[0].choose(first, game.legal_actions(seat))
        b = bots[1].choose(second, twin.legal_actions(seat))
        assert a == b
    assert changed_hidden >= 10  # the test really changed hidden cards


def test_determinized_games_match_the_view_but_not_necessarily_the_hidden_state() -> None:
    for game, seat in sample_positions()[:10]:
        seen = view(game, seat)
        sampled = determinize(seen, Rng(1))
        assert view(sampled, seat)["legal_actions"] == seen["legal_actions"]
        assert sampled.goals[seat] == game.goals[seat]
