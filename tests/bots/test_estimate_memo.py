"""The estimate's memos never change a figure (bots/evaluation.py).

Totem sites and their plan values are memoised per anchor cell, keyed by the states of
the cells around it, and shared between games; a key that missed something the figures
depend on would hand one position another's values. Estimates with every memo emptied
first must equal, to the bit, estimates made one after another with the memos warm.
"""

from __future__ import annotations

import random

from skytotems.bots import evaluation
from skytotems.bots.evaluation import Estimator
from skytotems.rules.engine import Game
from skytotems.rules.options import GameOptions

TOTEM_SETS = ("beginner", "dragon", "cat-plus-three")


def _positions() -> list[Game]:
    """Every fifth position of seeded random games, 2 to 4 players, every totem set."""
    out = []
    for players, totems in zip((2, 3, 4), TOTEM_SETS, strict=True):
        game = Game(GameOptions(players=players, totems=totems), 40 + players)
        chooser = random.Random(players)
        step = 0
        while not game.is_over:
            actions = game.legal_actions(game.decision.seats[0])
            game.apply_fast(actions[chooser.randrange(len(actions))])
            step += 1
            if step % 5 == 0:
                out.append(game.copy())
    return out


def _forget_memos() -> None:
    evaluation._ANCHOR_SITES.clear()
    evaluation._VALUED.clear()
    evaluation._ALTAR_PARTS.clear()


def _estimates(game: Game) -> list[float]:
    est = Estimator(game)
    return [est.value(s) for s in range(game.n)]


def test_memoised_estimates_equal_estimates_from_empty_memos() -> None:
    positions = _positions()
    # Interleave the games, so memo entries made for one are offered to the others.
    positions.sort(key=lambda g: (len(g.history), g.n))
    _forget_memos()
    warm = [_estimates(game) for game in positions]
    cold = []
    for game in positions:
        _forget_memos()
        cold.append(_estimates(game))
    assert warm == cold


def _with_other_bags(positions: list[Game]) -> list[Game]:
    """Each position, then a copy whose bag lacks some pedestals: the same altars at
    other costs per pedestal, so a memo keyed without the costs would hand one the
    other's figures."""
    out = []
    chooser = random.Random(5)
    for game in positions:
        out.append(game)
        other = game.copy()
        for d in range(len(other.bag)):
            other.bag[d] = max(0, other.bag[d] - chooser.randrange(4))
        other.bag_total = sum(other.bag)
        out.append(other)
    return out


def test_memoised_estimates_equal_estimates_from_empty_memos_at_other_costs() -> None:
    positions = _with_other_bags(_positions())
    _forget_memos()
    warm = [_estimates(game) for game in positions]
    cold = []
    for game in positions:
        _forget_memos()
        cold.append(_estimates(game))
    assert warm == cold
