"""The estimate's memos never change a figure (bots/evaluation.py).

Totem sites and their plan values are memoised per anchor cell, keyed by the states of
the cells around it, and shared between games; a key that missed something the figures
depend on would hand one position another's values. Estimates with every memo emptied
first must equal, to the bit, estimates made one after another with the memos warm.
"""

from __future__ import annotations

import dataclasses
import itertools
import random

from skytotems.bots import evaluation
from skytotems.bots.evaluation import Estimator, chance
from skytotems.rules.altar import Altar
from skytotems.rules.engine import Game
from skytotems.rules.options import GameOptions
from skytotems.rules.pieces import T_HORSE, T_WOLF
from skytotems.rules.totems import CAT_HEIGHT

from . import site_reference

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
    evaluation._RECIPES.clear()
    # The memos by weights are emptied, not dropped: estimators of the default weights
    # hold them (`evaluation._MEMOS_BY_ID`).
    for by_weights in (evaluation._READY, evaluation._VALUED, evaluation._ALTAR_PARTS):
        for memo in by_weights.values():
            memo.clear()


def _estimates(game: Game) -> list[float]:
    est = Estimator(game)
    return [est.value(s) for s in range(game.n)]


def _assert_warm_equals_cold(positions: list[Game]) -> None:
    """Estimates made one after another (memos warm) equal each made from empty memos."""
    _forget_memos()
    warm = [_estimates(game) for game in positions]
    cold = []
    for game in positions:
        _forget_memos()
        cold.append(_estimates(game))
    assert warm == cold


def test_memoised_estimates_equal_estimates_from_empty_memos() -> None:
    positions = _positions()
    # Interleave the games, so memo entries made for one are offered to the others.
    positions.sort(key=lambda g: (len(g.history), g.n))
    _assert_warm_equals_cold(positions)


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
    _assert_warm_equals_cold(_with_other_bags(_positions()))


def _reference_potential(est: Estimator, altar: Altar, actions: int, final_build: int) -> float:
    """The plan as first written: every site of the plain search (`site_reference`),
    none memoised or dropped, all sorted, picked best first (the estimate's figures
    must equal it)."""
    if actions <= 0 and not final_build:
        return 0.0
    w = est.w
    open_columns = sum(1 for c in altar.stacks if c not in altar.covered)
    wolf = w.wolf_per_column * max(0, open_columns - 2)
    if T_WOLF not in est.game.buildable_kinds:
        wolf = 0.0
    gaining = actions - (0 if final_build else 1)
    valued: list[tuple[float, tuple[int, ...], bool]] = []
    for key in est.anchor_keys(altar):
        for kind, cells, need, points in site_reference.anchor_sites(*key):  # type: ignore[arg-type]
            p = chance(need, gaining, w.rate)
            blessing = wolf if kind == T_WOLF else est.blessing[kind]
            value = (points + blessing - w.action_cost) * p
            if value > 0.05:
                valued.append((value, cells, kind == T_HORSE))
    if est.game.cat_in_play and actions > 0:
        for c, s in altar.stacks.items():
            if c not in altar.covered and len(s) >= 2:
                need = (CAT_HEIGHT - len(s)) * est.cost[s[0]]
                p = chance(need, actions, w.rate)
                valued.append(((CAT_HEIGHT + w.cat_blessing) * p, (c,), True))
    valued.sort(key=lambda v: v[0], reverse=True)
    used: set[int] = set()
    total = 0.0
    picked = 0
    builds = actions + final_build
    free_build = final_build
    for value, cells, free in valued:
        if not used.isdisjoint(cells):
            continue
        if not free:
            if builds <= 0:
                continue
            builds -= 1
            if free_build:
                value += w.action_cost
                free_build = 0
        used.update(cells)
        total += w.plan[picked] * value
        picked += 1
        if picked == len(w.plan):
            break
    if w.height and actions > 0:
        total += w.height * sum(
            (len(s) - 1) ** w.height_power
            for c, s in altar.stacks.items()
            if c not in altar.covered
        )
    return w.potential * total


def test_plan_and_sites_equal_the_reference_to_the_bit() -> None:
    """The recipes by heights, the plan's candidates kept per cells and the sites by
    kind give the figures of the plain computation, at every number of actions left."""
    positions = _with_other_bags(_positions())
    _forget_memos()
    checked = 0
    for game in positions:
        est = Estimator(game)
        for altar in game.altars:
            for actions, final_build in ((0, 1), (1, 0), (1, 1), (3, 1), (8, 1)):
                expected = _reference_potential(est, altar, actions, final_build)
                assert est.potential(altar, actions, final_build) == expected
                checked += 1
            every = [s for k in est.anchor_keys(altar) for s in site_reference.anchor_sites(*k)]  # type: ignore[arg-type]
            for kind in game.kinds:
                assert est.kind_sites(altar, kind) == [s for s in every if s[0] == kind]
    assert checked > 1000


def test_the_plan_values_memo_is_bounded_in_all() -> None:
    """A long-lived bot process grew to gigabytes (a worker of a 100-game arena, 7 GB):
    the plan values were bounded per pair of figures (gaining actions, wolf blessing),
    and some hundred pairs meet in a few games. Bounded in all now, emptied when full,
    the estimates the same as from empty memos."""
    # weights other than the default's (equal ones would share its memo)
    weights = dataclasses.replace(evaluation.WEIGHTS, room_cap=evaluation.WEIGHTS.room_cap + 100)
    small = evaluation._VALUED[weights] = evaluation.ValuedMemo(limit=400)
    positions = _positions()
    seen_sizes = []
    most_tables = 0
    estimates = []
    for game in positions:
        est = Estimator(game, weights)
        estimates.append([est.value(s) for s in range(game.n)])
        held = sum(len(table) for table in small.tables.values())
        assert small.size == held  # the count is true
        seen_sizes.append(held)
        most_tables = max(most_tables, len(small.tables))
    # the bound spans the tables of many pairs of figures; it was reached and emptied
    assert most_tables >= 5 and max(seen_sizes) < 400
    assert any(later < earlier for earlier, later in itertools.pairwise(seen_sizes))
    fresh = []
    for game in positions:
        evaluation._VALUED[weights] = evaluation.ValuedMemo(limit=400)
        est = Estimator(game, weights)
        fresh.append([est.value(s) for s in range(game.n)])
    assert estimates == fresh
    del evaluation._VALUED[weights]
