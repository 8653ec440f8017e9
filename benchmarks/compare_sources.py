"""Bench figures of several source trees, measured alternately in one run on one machine.

The machine's speed drifts (by a third from run to run on a shared host), so a figure
is only compared with another measured beside it: each round runs every tree once, in
turn (the order reversed every other round), each run a fresh process that imports the
tree's `src`. The first tree is the reference: for every other one the paired ratio of
its figure to the reference's of the same round, geometric mean and 95 % interval.

    git worktree add /tmp/base <commit>
    python benchmarks/compare_sources.py --figure search --rounds 10 /tmp/base .
    python benchmarks/compare_sources.py --figure games_4p --rounds 10 /tmp/base .

Figures: `search` is `measure_search()` of `skytotems.cli.bench` (mcts-hard's iterations
per CPU second on the fixed positions, bench's `mcts_iterations_per_second`);
`games_4p` is 4-player random games per CPU second (beginner set, 3 s of CPU time per
run, the loop of bench's `games_per_second_4p` and its seeds). CPU time of each process,
so that other work on the machine weighs less on the figures: bench's own `measure` is
wall-clock time, in every tree, and measured with it on this machine the paired ratio's
interval was twice as wide (1.32-1.80 against 1.22-1.41, 8 rounds each), so the loop is
here, the same for every tree.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
from pathlib import Path

FIGURES = {
    "search": (
        "from skytotems.cli.bench import measure_search\n"
        "iterations, seconds = measure_search()\n"
        "print(iterations / seconds)\n"
    ),
    "games_4p": (
        "import random, time\n"
        "from skytotems.rules.engine import Game\n"
        "from skytotems.rules.options import GameOptions\n"
        "options = GameOptions(players=4, totems='beginner')\n"
        "chooser, games = random.Random(20240101), 0\n"  # bench's BENCH_SEED
        "start = time.process_time()\n"
        "while games == 0 or time.process_time() - start < 3.0:\n"
        "    game = Game(options, 20240101 + games)\n"
        "    while not game.is_over:\n"
        "        actions = game.legal_actions(game.decision.seats[0])\n"
        "        game.apply_fast(actions[chooser.randrange(len(actions))])\n"
        "    games += 1\n"
        "print(games / (time.process_time() - start))\n"
    ),
}


def measure(tree: Path, figure: str) -> float:
    """One run of `figure` in a fresh process on `tree`'s sources."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    done = subprocess.run(
        [sys.executable, "-c", FIGURES[figure]],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"{tree}: the {figure} figure failed: {last}")
    return float(done.stdout.split()[-1])


def paired(figures: list[float], reference: list[float]) -> dict[str, float]:
    """Geometric mean of the per-round ratios, with a 95 % interval (normal, on logs)."""
    logs = [math.log(x / y) for x, y in zip(figures, reference, strict=True)]
    mean = statistics.fmean(logs)
    half = 1.96 * statistics.stdev(logs) / math.sqrt(len(logs)) if len(logs) > 1 else math.inf
    return {
        "ratio": round(math.exp(mean), 3),
        "low": round(math.exp(mean - half), 3),
        "high": round(math.exp(mean + half), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", type=Path, help="source trees, the reference first")
    parser.add_argument("--figure", choices=sorted(FIGURES), default="search")
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    if args.rounds < 1:
        raise SystemExit("--rounds: at least 1")
    for tree in args.trees:
        if not (tree / "src" / "skytotems").is_dir():
            raise SystemExit(f"trees: {tree} holds no src/skytotems")
    trees = [str(t) for t in args.trees]
    runs: dict[str, list[float]] = {t: [] for t in trees}
    for round_ in range(args.rounds):
        order = trees if round_ % 2 == 0 else trees[::-1]
        for tree in order:
            runs[tree].append(measure(Path(tree), args.figure))
        print(json.dumps({"round": round_, **{t: round(runs[t][-1], 1) for t in trees}}))
    reference = runs[trees[0]]
    summary = {
        "figure": args.figure,
        "rounds": args.rounds,
        "median": {t: round(statistics.median(v), 1) for t, v in runs.items()},
        "against_first": {t: paired(runs[t], reference) for t in trees[1:]},
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
