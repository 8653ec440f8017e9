"""What a search pays for a pedestal: the design costs of the estimate (bots/evaluation.py)
are the root position's for a whole search (Level.costs "root"), or each leaf's own."""

from __future__ import annotations

from dataclasses import replace

from skytotems.bots.evaluation import Estimator, design_costs
from skytotems.bots.mcts import LEVELS, MctsBot, Search
from skytotems.rules.engine import Game
from skytotems.rules.position import Position, game_from_position


def _position() -> Game:
    """Seat 0 with red columns that a scarcer red makes costlier to raise."""
    return game_from_position(
        Position(altars=["0,0 r rr/r _", "0,0 _ _/_ _"], round=3, slots=["g", "b", "y"])
    )


def _with_one_red_left(game: Game) -> Game:
    """The same game with all but one red pedestal gone from the bag (drawn elsewhere)."""
    leaf = game.copy()
    red = next(iter(leaf.altars[0].stacks.values()))[0]
    fewer = leaf.bag[red] - 1
    leaf.bag[red] -= fewer
    leaf.bag_total -= fewer
    return leaf


def test_a_scarcer_design_lowers_the_estimate_at_the_leafs_own_costs() -> None:
    root = _position()
    leaf = _with_one_red_left(root)
    assert design_costs(leaf) != design_costs(root)
    assert Estimator(leaf).value(0) < Estimator(root).value(0)


def test_at_given_costs_the_estimate_ignores_the_bag() -> None:
    root = _position()
    leaf = _with_one_red_left(root)
    costs = design_costs(root)
    assert Estimator(leaf, costs=costs).value(0) == Estimator(root, costs=costs).value(0)
    assert Estimator(leaf, costs=costs).cost == costs


def test_a_search_judges_every_leaf_at_its_roots_costs() -> None:
    root = _position()
    leaf = _with_one_red_left(root)
    search = Search(MctsBot(1, "hard"), root, 0, solo=False)
    assert LEVELS["hard"].costs == "root"
    assert search.value(leaf) == search.value(root)


def test_at_leaf_costs_a_search_sees_the_bag_of_each_leaf() -> None:
    root = _position()
    leaf = _with_one_red_left(root)
    search = Search(MctsBot(1, replace(LEVELS["hard"], costs="leaf")), root, 0, solo=False)
    assert search.value(leaf) < search.value(root)
