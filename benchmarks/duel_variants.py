"""Two bots, or two variants of one search level, in 2-player duels on the same deals.

Each deal is played twice, seats swapped, so the pair of games cancels the seat and the
deal; a bot is a registry name or `mcts-LEVEL:FIELD=VALUE...` (a level with settings,
as in benchmarks/decision_time.py). Prints each pair as it ends, then the first bot's
win rate with its Wilson 95 % interval and its mean score margin per game, paired by
deal, with a 95 % interval. For judging a change of a bot before an arena series:

    python benchmarks/duel_variants.py mcts-hard:iterations=24:endgame_rounds=2 \\
        mcts-hard:iterations=24 --deals 60 --seed 500
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from decision_time import bot_of

from skytotems.bots.arena import mix_seed, play_game, wilson_interval, win_shares
from skytotems.rules.options import GameOptions


def play_deal(job: tuple[str, str, int, int, str]) -> tuple[int, float, float]:
    """Both games of deal `index`: (index, first bot's wins, its margin summed)."""
    first, second, seed, index, totems = job
    game_seed = mix_seed(seed, index)
    wins = margin = 0.0
    for swap in (False, True):
        specs = (second, first) if swap else (first, second)
        bots = [bot_of(spec, mix_seed(seed, index, s, swap)) for s, spec in enumerate(specs)]
        result = play_game(bots, GameOptions(players=2, totems=totems), game_seed, index)
        mine = 1 if swap else 0
        wins += win_shares(result.places)[mine]
        margin += result.scores[mine] - result.scores[1 - mine]
    return index, wins, margin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--deals", type=int, default=30, help="deals, each played twice")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--totems", default="beginner")
    args = parser.parse_args()
    for spec in (args.first, args.second):
        try:
            bot_of(spec, 0)
        except ValueError as exc:
            raise SystemExit(f"{spec}: {exc}") from None
    jobs = [(args.first, args.second, args.seed, i, args.totems) for i in range(args.deals)]
    wins: list[float] = []
    margins: list[float] = []
    with Pool(args.workers) as pool:
        for index, won, margin in pool.imap_unordered(play_deal, jobs):
            print(f"deal {index}: {args.first} won {won:g} of 2, margin {margin:+g}", flush=True)
            wins.append(won)
            margins.append(margin / 2)
    games = 2 * len(wins)
    low, high = wilson_interval(sum(wins), games)
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins)) if len(margins) > 1 else 0
    print(
        f"{args.first} against {args.second}: won {sum(wins):g} of {games} games, "
        f"{100 * sum(wins) / games:.1f} % (95 % {100 * low:.1f}-{100 * high:.1f} %); "
        f"margin {mean:+.2f} +- {half:.2f} points a game"
    )


if __name__ == "__main__":
    main()
