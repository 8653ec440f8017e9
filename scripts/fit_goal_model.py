"""Fit the face-down goals' chance (`skytotems.bots.goal_model`) to solo games.

Plays seeded solo games of a bot level (`--record`: the deals of `skytotems solo
--seed S`, game i of each seed) and, at the start of each round, records for every
face-down goal of each altar its card, its distance (`mission_distance`) and the actions
left; when the game ends, whether the goal was met (revealed). Then (`--fit`) fits a
logistic regression of met on the distance, the actions left, the distance per action
left and an offset per mission type (a small ridge on the offsets only), by Newton's
method, over the records with a distance above 0, and prints the constants' lines to
paste into the module, with the fit's mean log-likelihood against the estimate's own
chance (`goals` x the distance's `chance`) on the same records, and on `--test` records
if given.

    python scripts/fit_goal_model.py --record goals-hard.jsonl --level hard --seed 2 --games 30
    python scripts/fit_goal_model.py --fit goals-hard.jsonl goals-medium.jsonl

Needs NumPy (the `env` extra); the bots themselves only read the constants.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable
from multiprocessing import Pool
from typing import Any

import numpy as np
from numpy.typing import NDArray

from skytotems import Game, GameOptions, view
from skytotems.bots.evaluation import WEIGHTS, Estimator, actions_left, chance, mission_distance
from skytotems.bots.goal_model import goal_features, goal_type
from skytotems.bots.mcts import LEVELS, MctsBot
from skytotems.bots.solo import SoloTask, solo_tasks
from skytotems.rules.cards import default_deck

RIDGE = 3.0  # on the type offsets: a type seen in few games stays near the common curve


def record_game(job: tuple[SoloTask, str]) -> dict[str, Any]:
    """One solo game's records: [seat, card, round, distance, actions left] at each
    round's start, and the cards each seat revealed."""
    task, level = job
    bot = MctsBot(task.bot_seed, LEVELS[level])
    game = Game(GameOptions(players=1, totems=task.totems), task.game_seed)
    samples: list[list[Any]] = []
    seen_round = 0
    while not game.is_over:
        if game.phase == "play" and game.round != seen_round:
            seen_round = game.round
            est = Estimator(game)
            for seat in range(game.n):
                for card in game.goals[seat]:
                    need = mission_distance(game.cards[card].mission, game.altars[seat], est)
                    actions = actions_left(game, seat)[0]
                    samples.append([seat, card, game.round, need, actions])
        seat = game.decision.seats[0]
        game.apply(bot.choose(view(game, seat), game.legal_actions(seat)))
    return {
        "level": level,
        "index": task.index,
        "revealed": [list(r) for r in game.revealed],
        "samples": samples,
    }


def record(path: str, level: str, seed: int, games: int, workers: int) -> None:
    """Play the games and write one JSON line per game."""
    jobs = [(task, level) for task in solo_tasks(f"mcts-{level}", games, seed)]
    with Pool(workers) as pool, open(path, "w", encoding="utf-8") as out:
        for done, line in enumerate(pool.imap_unordered(record_game, jobs), 1):
            out.write(json.dumps(line) + "\n")
            out.flush()
            print(f"game {done}/{games}", file=sys.stderr)


Rows = tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]


def games_in(paths: Iterable[str]) -> list[dict[str, Any]]:
    """The recorded games of these files, one per JSON line."""
    games: list[dict[str, Any]] = []
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            games.extend(json.loads(line) for line in lines)
    return games


def rows_of(games: Iterable[dict[str, Any]], levels: list[str], types: list[str]) -> Rows:
    """(features, met, the estimate's own chance) of every record with a distance > 0:
    the features are an indicator of the game's level (one constant each), the terms of
    `goal_features` and an indicator of the mission's type."""
    missions = {card.id: card.mission for card in default_deck().cards}
    features: list[list[float]] = []
    met: list[float] = []
    own: list[float] = []
    for game in games:
        if game["level"] not in levels:
            continue
        level = [1.0 if game["level"] == name else 0.0 for name in levels]
        revealed = [set(cards) for cards in game["revealed"]]
        for seat, card, _round, need, actions in game["samples"]:
            if need <= 0:
                continue
            kind = goal_type(missions[card])
            offsets = [1.0 if kind == t else 0.0 for t in types]
            features.append([*level, *goal_features(need, actions), *offsets])
            met.append(1.0 if card in revealed[seat] else 0.0)
            own.append(WEIGHTS.goals * chance(need, actions, WEIGHTS.rate))
    return np.array(features), np.array(met), np.array(own)


def log_likelihood(p: NDArray[np.float64], met: NDArray[np.float64]) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(np.mean(met * np.log(p) + (1 - met) * np.log(1 - p)))


def fit(x: NDArray[np.float64], met: NDArray[np.float64], types: int) -> NDArray[np.float64]:
    """Logistic regression by Newton's method, a ridge on the last `types` terms."""
    ridge = np.array([0.0] * (x.shape[1] - types) + [RIDGE] * types)
    w = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (met - p) - ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(ridge) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w += step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", metavar="FILE", help="play games and write their records")
    parser.add_argument("--level", default="hard", choices=sorted(LEVELS))
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--fit", nargs="+", metavar="FILE", help="fit on these records")
    parser.add_argument("--test", nargs="+", metavar="FILE", help="and judge on these")
    parser.add_argument(
        "--for-level",
        default="hard",
        help="the level whose constant is printed (its games judge --test)",
    )
    args = parser.parse_args()
    if args.test and not args.fit:
        parser.error("--test needs --fit")
    if not args.record and not args.fit:
        parser.error("nothing to do: give --record FILE, --fit FILE..., or both")
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    if args.workers < 1:
        parser.error(f"--workers must be at least 1, not {args.workers}")
    if args.record:
        record(args.record, args.level, args.seed, args.games, args.workers)
    if not args.fit:
        return
    types = sorted({goal_type(card.mission) for card in default_deck().cards})
    games = games_in(args.fit)
    levels = list(dict.fromkeys(game["level"] for game in games))  # in order of appearance
    if args.for_level not in levels:
        parser.error(f"--for-level: no {args.for_level!r} games in the --fit records")
    x, met, own = rows_of(games, levels, types)
    w = fit(x, met, len(types))
    fitted = 1 / (1 + np.exp(-x @ w))
    print(f"{len(met)} records ({', '.join(levels)}), {met.mean():.3f} met")
    print(
        f"log-likelihood: fitted {log_likelihood(fitted, met):.4f}, "
        f"the estimate's chance {log_likelihood(own, met):.4f}"
    )
    if args.test:
        tx, tmet, town = rows_of(games_in(args.test), [args.for_level], types)
        # the test games' constant is --for-level's
        tw = np.concatenate(([w[levels.index(args.for_level)]], w[len(levels) :]))
        tfitted = 1 / (1 + np.exp(-tx @ tw))
        print(
            f"on --test ({len(tmet)} records of {args.for_level}): fitted "
            f"{log_likelihood(tfitted, tmet):.4f}, the estimate's chance "
            f"{log_likelihood(town, tmet):.4f}"
        )
    if not math.isfinite(float(np.sum(w))):
        sys.exit("the fit did not converge")
    k = len(levels)
    print(f"GOAL_CONSTANT: Final = {w[levels.index(args.for_level)]:.3f}")
    print(f"GOAL_NEED: Final = {w[k]:.4f}")
    print(f"GOAL_ACTIONS: Final = {w[k + 1]:.4f}")
    print(f"GOAL_NEED_PER_ACTION: Final = {w[k + 2]:.4f}")
    print("GOAL_TYPE_OFFSETS: Final[dict[str, float]] = {")
    for name, offset in zip(types, w[k + 3 :], strict=True):
        print(f'    "{name}": {offset:.3f},')
    print("}")


if __name__ == "__main__":
    main()
