"""Solo series of the MCTS bot with its search level changed, on the solo CLI's deals.

For comparing a search variant with the released level on the same seeded games as
`skytotems solo --bot mcts-hard --seed S` (game i gets the same deal and bot seed). It
prints each game's total as it ends, then the mean and the mean decision time.

    python benchmarks/solo_search.py --first 0 --last 10                  # as released
    python benchmarks/solo_search.py --set iterations=125 --last 5
    python benchmarks/solo_search.py --set iterations=50 --set solo_playout_turns=99
    python benchmarks/solo_search.py --set solo_exploration=8.0 --last 60
    python benchmarks/solo_search.py --set weights.goals=1.0 --last 60   # the estimate's

A `weights.NAME=VALUE` setting changes one of the estimate's weights (`Weights`) in the
search's leaves, priors and estimated turns (`Level.weights`).

A solo search's UCB constant is the level's `solo_exploration`, not `exploration`, and
its playouts' horizon `solo_playout_turns`, not `duel_playout_turns` (two-player games')
or `playout_turns` (larger games'): setting those three is refused, since it would
measure the unchanged level. Like every bad argument (an empty range of games, no
workers, an unknown totem set, a search of no iterations), before any game is played.

With `--compare` every deal is also played by a baseline (the level as released, or
with the `--base-set` settings), the two series interleaved so that their decision
times are comparable, and the paired difference is printed with its 95 % interval:

    python benchmarks/solo_search.py --set widen_rate=0.6 --last 20 --compare
    python benchmarks/solo_search.py --set iterations=48 --base-set iterations=24 --compare
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections.abc import Callable
from multiprocessing import Pool

from skytotems.bots.analysis import t95
from skytotems.bots.arena import play_game
from skytotems.bots.mcts import LEVELS, Level, MctsBot, custom_level
from skytotems.bots.solo import SoloTask, solo_tasks
from skytotems.rules.errors import OptionsError
from skytotems.rules.options import GameOptions


def play(job: tuple[str, Level, SoloTask]) -> tuple[str, int, int, float]:
    """One solo game of the CLI's series, the bot at `level`: (series, index, total,
    ms/decision)."""
    series, level, task = job
    bot = MctsBot(task.bot_seed, level)
    options = GameOptions(players=1, totems=task.totems)
    result = play_game([bot, bot], options, task.game_seed, task.index)
    ms = 1000 * sum(result.seconds) / sum(result.decisions)
    return series, task.index, sum(result.scores), ms


def paired_difference(totals: dict[int, int], baseline: dict[int, int]) -> str:
    """The mean difference of the deals both series played, with its 95 % interval
    (Student's t) and how many deals went each way."""
    deals = sorted(totals.keys() & baseline.keys())
    diffs = [totals[i] - baseline[i] for i in deals]
    mean = statistics.fmean(diffs)
    half = (
        t95(len(diffs) - 1) * statistics.stdev(diffs) / math.sqrt(len(diffs))
        if len(diffs) > 1
        else math.inf
    )
    better = sum(1 for d in diffs if d > 0)
    worse = sum(1 for d in diffs if d < 0)
    return (
        f"difference {mean:+.1f} +- {half:.1f} points a game (95 %, paired by deal over "
        f"{len(diffs)} deals; {better} better, {worse} worse)"
    )


# Level fields a solo search does not read, with the field it reads instead: setting
# them would measure the unchanged level.
NOT_IN_SOLO = {
    "exploration": "solo_exploration",
    "playout_turns": "solo_playout_turns",
    "duel_playout_turns": "solo_playout_turns",
}


def at_least(least: int) -> Callable[[str], int]:
    """An argparse type: an integer of at least `least`."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, not {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
        return value

    return parse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="hard", choices=sorted(LEVELS))
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE")
    parser.add_argument(
        "--compare", action="store_true", help="also play every deal with the baseline"
    )
    parser.add_argument(
        "--base-set",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="the baseline's settings (with --compare; default: the level as released)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        help="the series' seed (default 1, the series most settings were screened on; "
        "the solo command's own default is 0)",
    )
    parser.add_argument("--first", type=at_least(0), default=0, help="the first game")
    parser.add_argument("--last", type=at_least(1), default=10, help="one past the last game")
    parser.add_argument("--workers", type=at_least(1), default=2)
    parser.add_argument("--totems", default="beginner")
    args = parser.parse_args()
    if args.base_set and not args.compare:
        parser.error("--base-set needs --compare")
    if args.first >= args.last:
        parser.error(f"--first ({args.first}) must be below --last ({args.last})")
    try:
        GameOptions(players=1, totems=args.totems)
    except OptionsError as exc:
        parser.error(f"--totems: {exc}")
    levels: dict[str, Level] = {}
    for option, settings in (("--set", args.set), ("--base-set", args.base_set)):
        for item in settings:
            name = item.partition("=")[0]
            if name in NOT_IN_SOLO:
                parser.error(f"{option} {name}: solo reads {NOT_IN_SOLO[name]} instead")
        try:
            levels[option] = custom_level(args.level, settings)
        except ValueError as exc:
            parser.error(f"{option}: {exc}")
    level, baseline = levels["--set"], levels["--base-set"]
    series = solo_tasks(f"mcts-{args.level}", args.last, args.seed, args.totems)
    tasks: list[tuple[str, Level, SoloTask]] = []
    for task in series[args.first :]:
        tasks.append(("game", level, task))
        if args.compare:
            tasks.append(("baseline", baseline, task))
    totals: dict[str, dict[int, int]] = {"game": {}, "baseline": {}}
    times: dict[str, list[float]] = {"game": [], "baseline": []}
    with Pool(args.workers) as pool:
        for name, index, total, ms in pool.imap_unordered(play, tasks):
            print(f"{name} {index}: {total} ({ms:.0f} ms per decision)", flush=True)
            totals[name][index] = total
            times[name].append(ms)
    print(f"{level}")
    print(
        f"mean total {statistics.fmean(totals['game'].values()):.1f} over "
        f"{len(totals['game'])} games, {statistics.fmean(times['game']):.0f} ms per decision"
    )
    if args.compare:
        print(f"baseline {baseline}")
        print(
            f"baseline mean total {statistics.fmean(totals['baseline'].values()):.1f} over "
            f"{len(totals['baseline'])} games, "
            f"{statistics.fmean(times['baseline']):.0f} ms per decision"
        )
        print(paired_difference(totals["game"], totals["baseline"]))


if __name__ == "__main__":
    main()
