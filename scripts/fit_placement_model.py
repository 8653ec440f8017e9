"""Fit the playouts' placement rule (`skytotems.bots.placement_model`) to the estimate.

Plays seeded greedy solo games and, at every placement decision with more than one
option `prune` keeps, records each option's features and which option the heuristic
estimate rates best (the search's `best_by_estimate`: the seat's estimate after it, at
the position's design costs). Fits a conditional logit (softmax over a decision's
options, linear in the features, a small ridge) by gradient ascent, then reports, on
games it was not fitted on, how often the rule of thumb and the fitted rule choose the
estimate's option and how many points of the estimate each loses against it on average
(regret). Prints the weights' lines (`W_RETURN: Final = ...`) to paste into the module.

    python scripts/fit_placement_model.py                      # the shipped weights' data
    python scripts/fit_placement_model.py --fit-on 1:100 --test-on 2:50

Needs NumPy (the `env` extra); the bots themselves only read the weights.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from skytotems import Game, GameOptions, view
from skytotems.bots.arena import mix_seed
from skytotems.bots.evaluation import Estimator, design_costs, free_clouds
from skytotems.bots.greedy import GreedyBot, prune
from skytotems.bots.mcts import placement_rank
from skytotems.bots.placement_model import (
    FEATURE_NAMES,
    placement_features,
    placement_score,
)
from skytotems.rules.actions import Action, PlacePedestal, ReturnPedestal


@dataclass(frozen=True)
class Decision:
    """One placement decision: its options' features, their estimates, the rule of
    thumb's ranks."""

    features: NDArray[np.float64]  # options x features
    values: list[float]  # the seat's estimate after each option
    ranks: list[float]  # the rule of thumb's `placement_rank` of each option


def decisions_of(series: list[tuple[int, int]]) -> list[Decision]:
    """The placement decisions of greedy solo games: for each (seed, games) of `series`,
    games 0 to games - 1 of that seed (the deals of `skytotems solo --seed`)."""
    return [d for seed, games in series for d in decisions_of_seed(games, seed)]


def decisions_of_seed(games: int, seed: int) -> list[Decision]:
    """The placement decisions of `games` greedy solo games of `seed`."""
    found: list[Decision] = []
    for i in range(games):
        game = Game(GameOptions(players=1), mix_seed(seed, i, 2))
        bot = GreedyBot(mix_seed(seed, i, 3))
        while not game.is_over:
            seat = game.decision.seats[0]
            legal = game.legal_actions(seat)
            if len(legal) > 1 and isinstance(legal[0], (PlacePedestal, ReturnPedestal)):
                options = prune(game, legal)
                if len(options) > 1:
                    found.append(decision_at(game, seat, options))
            game.apply(bot.choose(view(game, seat), legal))
        print(f"seed {seed}, game {i + 1}/{games}: {len(found)} decisions", file=sys.stderr)
    return found


def decision_at(game: Game, seat: int, options: list[Action]) -> Decision:
    """The record of one placement decision."""
    costs = design_costs(game)
    altar = game.altars[seat]
    free = free_clouds(altar)
    values = []
    for action in options:
        child = game.copy()
        child.apply_fast(action)
        values.append(Estimator(child, costs=costs).value(seat))
    features = np.array([placement_features(altar, a, free) for a in options])
    ranks = [placement_rank(altar.stacks, a) for a in options]
    return Decision(features, values, ranks)


def fit(decisions: list[Decision], steps: int, ridge: float) -> NDArray[np.float64]:
    """The conditional logit's weights: the estimate's option the likeliest."""
    weights = np.zeros(len(FEATURE_NAMES))
    for _ in range(steps):
        gradient = np.zeros_like(weights)
        for d in decisions:
            scores = d.features @ weights
            p = np.exp(scores - scores.max())
            p /= p.sum()
            gradient += d.features[int(np.argmax(d.values))] - p @ d.features
        weights += 0.2 * gradient / len(decisions) - ridge * weights
    return weights


def fidelity(
    decisions: list[Decision], scores_of: Callable[[Decision], list[float]]
) -> tuple[float, float]:
    """(share of decisions where the rule picks an option the estimate rates best, the
    mean points of the estimate lost against the estimate's pick)."""
    agree = 0
    regret = 0.0
    for d in decisions:
        scores = scores_of(d)
        pick = max(range(len(scores)), key=lambda k: (scores[k], -k))
        best = max(d.values)
        agree += d.values[pick] >= best - 1e-9
        regret += best - d.values[pick]
    return agree / len(decisions), regret / len(decisions)


def checked(decisions: list[Decision], margin: float, count: int) -> tuple[float, float, float]:
    """The shipped rule with its close options rated by the estimate (`close_placements`,
    at most `count` of them): (agreement, mean regret, estimates a decision)."""
    agree = 0
    regret = 0.0
    estimates = 0
    for d in decisions:
        scores = [placement_score(list(f)) for f in d.features]
        top = max(scores)
        close = sorted(
            (k for k in range(len(scores)) if scores[k] >= top - margin), key=lambda k: -scores[k]
        )[:count]
        if len(close) > 1:
            estimates += len(close)
        pick = max(close, key=lambda k: d.values[k])
        best = max(d.values)
        agree += d.values[pick] >= best - 1e-9
        regret += best - d.values[pick]
    n = len(decisions)
    return agree / n, regret / n, estimates / n


def series(text: str) -> tuple[int, int]:
    """`SEED:GAMES` read as (seed, games), games at least 1."""
    seed, colon, games = text.partition(":")
    try:
        pair = int(seed), int(games)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected SEED:GAMES, e.g. 7:12, not {text!r}") from None
    if not colon or pair[1] < 1:
        raise argparse.ArgumentTypeError(f"expected SEED:GAMES, games at least 1, not {text!r}")
    return pair


# The series the shipped weights were fitted on and tested on.
FIT_ON = [(7, 12), (11, 40)]
TEST_ON = [(8, 12), (12, 30)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--fit-on",
        type=series,
        action="append",
        metavar="SEED:GAMES",
        help="greedy solo games to fit on (repeatable; default: 7:12 11:40)",
    )
    parser.add_argument(
        "--test-on",
        type=series,
        action="append",
        metavar="SEED:GAMES",
        help="other games to test on (repeatable; default: 8:12 12:30)",
    )
    parser.add_argument("--steps", type=int, default=2000, help="gradient steps")
    parser.add_argument("--ridge", type=float, default=1e-3)
    parser.add_argument(
        "--margin",
        type=float,
        action="append",
        help="also report the shipped rule with the options within this margin of its "
        "best rated by the estimate (repeatable; default: 0.25 0.5 1 2)",
    )
    parser.add_argument(
        "--candidates", type=int, default=3, help="at most this many close options (default 3)"
    )
    args = parser.parse_args()
    if args.steps < 1:
        parser.error("--steps must be at least 1")
    if args.candidates < 2:
        parser.error("--candidates must be at least 2")
    if any(m < 0 for m in args.margin or []):
        parser.error("--margin must not be negative")
    train = decisions_of(args.fit_on or FIT_ON)
    test = decisions_of(args.test_on or TEST_ON)
    weights = fit(train, args.steps, args.ridge)
    rules: dict[str, Callable[[Decision], list[float]]] = {
        "rule of thumb (placement_rank)": lambda d: d.ranks,
        "fitted here": lambda d: list(d.features @ weights),
        "fitted, as shipped": lambda d: [placement_score(list(f)) for f in d.features],
    }
    print(f"{len(train)} decisions fitted on, {len(test)} held out")
    for name, rule in rules.items():
        agree, regret = fidelity(test, rule)
        print(f"{name}: picks the estimate's option in {agree:.1%}, mean regret {regret:.3f}")
    for margin in args.margin or [0.25, 0.5, 1.0, 2.0]:
        agree, regret, estimates = checked(test, margin, args.candidates)
        print(
            f"shipped, close options (margin {margin}, at most {args.candidates}) by the "
            f"estimate: picks its option in {agree:.1%}, mean regret {regret:.3f}, "
            f"{estimates:.2f} estimates a decision (all options: "
            f"{sum(len(d.values) for d in test) / len(test):.2f})"
        )
    for name, value in zip(FEATURE_NAMES, weights, strict=True):
        print(f"W_{name.upper()}: Final = {round(float(value), 2)}")


if __name__ == "__main__":
    main()
