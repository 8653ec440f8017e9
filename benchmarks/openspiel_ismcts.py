"""OpenSpiel's information-set MCTS against one of our bots, at equal time per decision.

Two-player games of ``python_sky_totems`` (``skytotems.openspiel``): game i seats
OpenSpiel's Python ``ISMCTSBot`` (random-rollout evaluator, UCT c = 2, a fresh world
sampled from its seat's information state for each simulation) as seat i % 2 and our
bot (``--opponent``, default ``mcts-hard``) in the other seat. Chance outcomes and both
bots are seeded from ``--seed`` and i, fixed before measuring. Before each ISMCTS
decision its simulation count is set so that it spends the time per decision that our
bot has spent on average so far in the series (``--seconds`` before our bot's first
decision; at least two simulations), times ``--time-factor`` (default 1), from its own
running mean time per simulation.
Needs the openspiel extra.

    python benchmarks/openspiel_ismcts.py --games 10 --seed 0 [--opponent mcts-easy] [--out r.jsonl]

It prints one line per game, then the win rates with Wilson 95% intervals.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-not-found]

import skytotems.openspiel  # noqa: F401  (registers python_sky_totems)
from skytotems.bots import make_bot
from skytotems.bots.arena import mix_seed, wilson_interval


class Clock:
    """Running means: our bot's seconds per decision, ISMCTS's per simulation."""

    def __init__(self, seconds: float, factor: float = 1.0) -> None:
        self.mcts_time, self.mcts_decisions = 0.0, 0
        self.sim_time, self.sims = 0.0, 0
        self.first_budget = seconds
        self.factor = factor  # ISMCTS's time per decision, in multiples of our bot's

    def budget(self) -> float:
        if not self.mcts_decisions:
            return self.first_budget
        return self.factor * self.mcts_time / self.mcts_decisions

    def simulations(self) -> int:
        per_sim = self.sim_time / self.sims if self.sims else 0.3
        return max(2, round(self.budget() / per_sim))  # ISMCTS needs 2 to visit a root


def play(index: int, seed: int, clock: Clock, opponent: str = "mcts-hard") -> dict[str, Any]:
    """One game; ISMCTS sits in seat index % 2."""
    game = pyspiel.load_game("python_sky_totems", {"players": 2})
    ismcts_seat = index % 2
    generator = np.random.RandomState(mix_seed(seed, index, 1) % 2**32)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=generator)
    their_bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 1, random_state=generator)
    our_bot = make_bot(opponent, mix_seed(seed, index, 2))
    chance = random.Random(mix_seed(seed, index, 3))
    state = game.new_initial_state()
    times = {"ismcts": 0.0, opponent: 0.0}
    decisions = {"ismcts": 0, opponent: 0}
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(chance.choices(outcomes, probabilities)[0])
            continue
        seat = state.current_player()
        start = time.perf_counter()
        if seat == ismcts_seat:
            their_bot._max_simulations = sims = clock.simulations()
            action = int(their_bot.step(state))
            spent = time.perf_counter() - start
            clock.sim_time += spent
            clock.sims += sims
            who = "ismcts"
        else:
            engine_game = state.committed.game
            chosen = our_bot.choose(state.seat_view(seat), engine_game.legal_actions(seat))
            index_map = state.committed.index_map()
            action = next(i for i, a in index_map.items() if a == chosen)
            spent = time.perf_counter() - start
            clock.mcts_time += spent
            clock.mcts_decisions += 1
            who = opponent
        times[who] += spent
        decisions[who] += 1
        state.apply_action(action)
    returns = state.returns()
    final = state.committed.view(None)
    return {
        "game": index,
        "opponent": opponent,
        "ismcts_seat": ismcts_seat,
        "ismcts_return": returns[ismcts_seat],
        "scores": [s["total"] for s in final["score_sheets"]],
        "decisions": decisions,
        "seconds_per_decision": {k: round(times[k] / max(decisions[k], 1), 3) for k in times},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=0.7, help="budget before calibration")
    parser.add_argument("--out", help="append each game's result to this JSON-lines file")
    parser.add_argument("--opponent", default="mcts-hard", help="our bot (default mcts-hard)")
    parser.add_argument(
        "--time-factor", type=float, default=1.0, help="ISMCTS's time per decision / our bot's"
    )
    args = parser.parse_args()
    clock = Clock(args.seconds, args.time_factor)
    results = []
    for index in range(args.first, args.first + args.games):
        sims_before = clock.sims
        result = play(index, args.seed, clock, args.opponent)
        result["ismcts_simulations"] = clock.sims - sims_before
        results.append(result)
        print(json.dumps(result), flush=True)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as f:
                f.write(json.dumps(result) + "\n")
    summarize(results, args.opponent)


def summarize(results: list[dict[str, Any]], opponent: str) -> None:
    """Win rates of each side with Wilson 95% intervals (a shared first place: half)."""
    n = len(results)
    ismcts_wins = sum(r["ismcts_return"] > 0 for r in results)
    ties = sum(r["ismcts_return"] == 0 for r in results)
    for name, wins in (("ismcts", ismcts_wins), (opponent, n - ismcts_wins - ties)):
        low, high = wilson_interval(wins + ties / 2, n)
        share = (wins + ties / 2) / n
        print(
            f"{name}: {wins} wins of {n} ({ties} shared) = {share:.1%} "
            f"(Wilson 95% {low:.1%}-{high:.1%})"
        )


if __name__ == "__main__":
    main()
