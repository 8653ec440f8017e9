"""A search level's estimate weights (bots/mcts.py `Level.weights`): a search judges its
leaves, priors and estimated turns by its level's weights, so that a variant of them can
be measured on the search itself (`custom_level`'s `weights.NAME=VALUE`, the benchmarks'
`--set`), and the released levels keep the greedy bot's (docs/bots.md "The estimate's
weights in the search")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from skytotems.bots.evaluation import WEIGHTS, Estimator
from skytotems.bots.mcts import LEVELS, Level, MctsBot, Search, custom_level
from skytotems.rules.engine import Game
from skytotems.rules.options import GameOptions
from skytotems.rules.position import Position, game_from_position

BASE = Level(iterations=20, determinizations=2, time_cap=30.0)
# a prepared site (a 2x2 of columns) on each altar: the potential weight counts it
ALTAR = "0,0 rr bb/gg rb"


def solo_game() -> Game:
    return game_from_position(
        Position(altars=[ALTAR, ALTAR], options=GameOptions(players=1), round=3)
    )


def test_a_search_judges_its_leaves_by_its_levels_weights() -> None:
    game = solo_game()
    heavy = replace(WEIGHTS, potential=3.0)
    values = {}
    for weights in (WEIGHTS, heavy):
        search = Search(MctsBot(1, replace(BASE, weights=weights)), game, 0, solo=True)
        est = Estimator(game, weights, search.costs)
        assert search.value(game) == pytest.approx(est.value(0) + est.value(1))
        values[weights.potential] = search.value(game)
    assert values[3.0] != values[WEIGHTS.potential]  # the weights change the judgement


def test_a_searchs_priors_follow_its_levels_weights() -> None:
    """The priors are the greedy bot's one-step estimates: by the same weights."""
    heavy = replace(WEIGHTS, goals=2.0)
    search = Search(MctsBot(1, replace(BASE, weights=heavy)), solo_game(), 0, solo=True)
    assert search.greedy.weights is heavy


def test_a_variant_sets_the_weights_by_name() -> None:
    level = custom_level("hard", ["weights.potential=1.5", "weights.goals=1", "iterations=24"])
    assert (level.weights.potential, level.weights.goals, level.iterations) == (1.5, 1.0, 24)
    assert level.weights.room == WEIGHTS.room  # the others as they were
    assert custom_level("hard", []).weights is WEIGHTS


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("weights.potentail=1", "unknown estimate weight 'potentail'"),
        ("weights.plan=1", "unknown estimate weight 'plan'"),  # a tuple: not settable so
        ("weights.goals=much", "weights.goals must be a number, not 'much'"),
        ("weights=1", "unknown level field 'weights'"),
    ],
)
def test_a_bad_weight_setting_is_named(setting: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        custom_level("hard", [setting])


def test_the_released_levels_keep_the_greedy_bots_weights() -> None:
    # the very object: an estimator of the default weights takes its memos unhashed
    assert all(level.weights is WEIGHTS for level in LEVELS.values())


def test_estimators_of_equal_weights_share_memos_and_others_do_not() -> None:
    """A search's estimator per leaf finds its weights' memos by identity; weights
    equal in value share them, as they would by hashing."""
    game = solo_game()
    heavy = replace(WEIGHTS, potential=3.0)
    first, again = Estimator(game, heavy), Estimator(game, heavy)
    equal = Estimator(game, replace(WEIGHTS, potential=3.0))
    default = Estimator(game)
    assert first.cache is again.cache is equal.cache
    assert first.valued_memo is equal.valued_memo
    assert first.cache is not default.cache
    assert first.value(0) != default.value(0)
