"""The duel benchmark plays each deal twice, seats swapped, and sums it up (docs/bots.md)."""

from __future__ import annotations

import re
import subprocess

from .bot_helpers import run_benchmark


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_benchmark("duel_variants.py", *args)


def test_each_deal_is_played_twice_and_the_summary_adds_them_up() -> None:
    done = run("greedy", "mcts-easy:iterations=2", "--deals", "2", "--workers", "1")
    assert done.returncode == 0, done.stderr
    deals = re.findall(r"deal (\d): greedy won ([\d.]+) of 2, margin ([-+][\d.]+)", done.stdout)
    assert sorted(d[0] for d in deals) == ["0", "1"]
    won = sum(float(d[1]) for d in deals)
    margin = sum(float(d[2]) for d in deals) / 4  # per game
    summary = done.stdout.splitlines()[-1]
    assert summary.startswith(f"greedy against mcts-easy:iterations=2: won {won:g} of 4 games")
    assert f"margin {margin:+.2f}" in summary


def test_a_misspelt_variant_is_refused_in_one_line() -> None:
    done = run("greedy", "mcts-hard:costs=rot", "--deals", "1")
    assert done.returncode != 0
    assert done.stderr.strip() == "mcts-hard:costs=rot: costs must be one of leaf, root, not 'rot'"
