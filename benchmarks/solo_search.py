"""Solo series of the MCTS bot with its search level changed, on the solo CLI's deals.

For comparing a search variant with the released level on the same seeded games as
`skytotems solo --bot mcts-hard --seed S` (game i gets the same deal and bot seed). It
prints each game's total as it ends, then the mean and the mean decision time.

    python benchmarks/solo_search.py --first 0 --last 10                  # as released
    python benchmarks/solo_search.py --set iterations=125 --last 5
    python benchmarks/solo_search.py --set iterations=50 --set playout_turns=99
    python benchmarks/solo_search.py --set solo_exploration=8.0 --last 60

A solo search's UCB constant is the level's `solo_exploration`, not `exploration`
(which only duels and larger games use).
"""

from __future__ import annotations

import argparse
import statistics
from multiprocessing import Pool

from skytotems.bots.arena import play_game
from skytotems.bots.mcts import LEVELS, Level, MctsBot, custom_level
from skytotems.bots.solo import SoloTask, solo_tasks
from skytotems.rules.options import GameOptions


def play(job: tuple[Level, SoloTask]) -> tuple[int, int, float]:
    """One solo game of the CLI's series, the bot at `level`: (index, total, ms/decision)."""
    level, task = job
    bot = MctsBot(task.bot_seed, level)
    options = GameOptions(players=1, totems=task.totems)
    result = play_game([bot, bot], options, task.game_seed, task.index)
    return task.index, sum(result.scores), 1000 * sum(result.seconds) / sum(result.decisions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="hard", choices=sorted(LEVELS))
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--last", type=int, default=10, help="one past the last game")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--totems", default="beginner")
    args = parser.parse_args()
    try:
        level = custom_level(args.level, args.set)
    except ValueError as exc:
        raise SystemExit(str(exc)) from None
    series = solo_tasks(f"mcts-{args.level}", args.last, args.seed, args.totems)
    tasks = [(level, task) for task in series[args.first :]]
    totals: list[int] = []
    times: list[float] = []
    with Pool(args.workers) as pool:
        for index, total, ms in pool.imap_unordered(play, tasks):
            print(f"game {index}: {total} ({ms:.0f} ms per decision)", flush=True)
            totals.append(total)
            times.append(ms)
    print(f"{level}")
    print(
        f"mean total {statistics.fmean(totals):.1f} over {len(totals)} games, "
        f"{statistics.fmean(times):.0f} ms per decision"
    )


if __name__ == "__main__":
    main()
