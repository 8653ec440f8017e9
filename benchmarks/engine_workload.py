"""A fixed engine workload for instruction counts, which a loaded machine does not blur.

Seeded random games (12 of 2 players, 6 of 4) through `legal_actions` + `apply_fast`,
the path the bots' playouts take. Wall-clock figures drift with whatever else runs;
`valgrind --tool=callgrind` counts instructions and repeats to the digit, so two trees
compare exactly (run each once first, so both have their bytecode cached):

    PYTHONPATH=src valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/engine_workload.py            # "Collected : N" instructions
    PYTHONPATH=src valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/engine_workload.py --games 0  # the same, start-up only

The difference of the two is the workload's cost; the steps printed must match between
trees (the same games), or the comparison is void.
"""

from __future__ import annotations

import argparse
import random

from skytotems.rules.engine import Game
from skytotems.rules.options import GameOptions


def play(games_2p: int, games_4p: int) -> int:
    """The steps of the workload's games (the same on every tree with the same rules)."""
    steps = 0
    for players, games in ((2, games_2p), (4, games_4p)):
        options = GameOptions(players=players, totems="beginner")
        chooser = random.Random(7)
        for g in range(games):
            game = Game(options, 1000 + g)
            while not game.is_over:
                actions = game.legal_actions(game.decision.seats[0])
                game.apply_fast(actions[chooser.randrange(len(actions))])
                steps += 1
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="2-player games (4-player: half)")
    args = parser.parse_args()
    print("steps", play(args.games, args.games // 2))


if __name__ == "__main__":
    main()
